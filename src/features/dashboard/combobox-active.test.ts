import { describe, expect, it } from 'vitest';
import { keepActive, moveActive } from '#src/features/dashboard/combobox-active.ts';

const list = (...ids: string[]) => ids.map((id) => ({ id }));

describe('the recipient combobox’s current option', () => {
  it('stays on the member the arrows reached when late results still list that member', () => {
    // ↓ on the results for « conversation.17 » reached m2; the results for the text typed last arrive.
    expect(keepActive('m2', list('m2'))).toBe('m2');
    expect(keepActive('m2', list('m1', 'm2', 'm3'))).toBe('m2');
  });

  it('is dropped when the member is no longer listed, and stays none when there was none', () => {
    expect(keepActive('m2', list('m1', 'm3'))).toBeNull();
    expect(keepActive('m2', [])).toBeNull();
    expect(keepActive(null, list('m1'))).toBeNull();
  });

  it('moves down and up with wrap-round; from none, ↓ reaches the first and ↑ the last', () => {
    const items = list('a', 'b', 'c');
    expect(moveActive(items, null, 1)).toBe('a');
    expect(moveActive(items, null, -1)).toBe('c');
    expect(moveActive(items, 'a', 1)).toBe('b');
    expect(moveActive(items, 'c', 1)).toBe('a');
    expect(moveActive(items, 'a', -1)).toBe('c');
    expect(moveActive(items, 'b', -1)).toBe('a');
    // A current member no longer in the list counts as none.
    expect(moveActive(items, 'gone', 1)).toBe('a');
    expect(moveActive([], 'a', 1)).toBeNull();
  });
});
