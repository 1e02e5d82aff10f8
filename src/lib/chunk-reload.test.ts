import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, RELOAD_GUARD_MS, RELOAD_STORAGE_KEY, reloadOnce } from '#src/lib/chunk-reload.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe('reloadOnce', () => {
  it('reloads, then refuses a second reload within 10 s, then allows it again', () => {
    const storage = memoryStorage();
    let clock = 1_000_000;
    const reload = vi.fn();
    const deps = { storage, now: () => clock, reload };
    expect(reloadOnce(deps)).toBe(true);
    expect(storage.data.get(RELOAD_STORAGE_KEY)).toBe('1000000');
    clock += RELOAD_GUARD_MS - 1;
    expect(reloadOnce(deps)).toBe(false);
    clock += 1;
    expect(reloadOnce(deps)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload without storage (no loop guard)', () => {
    const reload = vi.fn();
    expect(reloadOnce({ storage: null, now: () => 0, reload })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('isChunkLoadError', () => {
  it.each([
    new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'),
    new TypeError('error loading dynamically imported module'),
    new TypeError('Importing a module script failed.'),
    Object.assign(new Error('x'), { name: 'ChunkLoadError' }),
  ])('recognises %s', (error) => {
    expect(isChunkLoadError(error)).toBe(true);
  });

  it('ignores other errors', () => {
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});
