import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messagesChanged, UNREAD_SCHEDULE, unreadKeys } from '#src/features/messages/unread.ts';
import { delaysOf, pollingOptions, queryClient } from '#src/lib/query-client.ts';
import { watchQuery } from '#tests/support/query-watch.ts';

const S = 1000;
const MIN = 60 * S;

/** The member's badge as `useMemberUnread` polls it, with the app's client, counting from `answers`. */
function watchCount(answer: () => Promise<number>) {
  return watchQuery({ queryKey: unreadKeys.member, queryFn: answer, ...pollingOptions }, UNREAD_SCHEDULE, undefined, queryClient);
}

describe('unread counts keep up by themselves (decisions 128 and 214)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('backs off 30 s → 1 min → 2 min → 4 min → 5 min and stays at 5 min', () => {
    expect(delaysOf(UNREAD_SCHEDULE, 7)).toEqual([30 * S, 60 * S, 2 * MIN, 4 * MIN, 5 * MIN, 5 * MIN, 5 * MIN]);
  });

  it('asks at once, then at 30 s, 1 min 30, 3 min 30 while unchanged; a change starts the back-off over', async () => {
    const at: number[] = [];
    const counts = [2, 2, 2, 3, 3, 3];
    const start = Date.now();
    const watching = watchCount(async () => {
      at.push(Date.now() - start);
      return counts.shift() ?? 3;
    });
    await vi.advanceTimersByTimeAsync(4 * MIN);
    // 0, 30 s, 90 s, 210 s (changed) → next at 210 + 30 = 240 s.
    expect(at).toEqual([0, 30 * S, 90 * S, 210 * S, 240 * S]);
    await vi.advanceTimersByTimeAsync(MIN);
    expect(at.at(-1)).toBe(300 * S);
    watching.stop();
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(at).toHaveLength(6);
  });

  it('asks nothing while hidden, at once when the tab comes back, and at once after a conversation was read or written', async () => {
    let calls = 0;
    const watching = watchCount(async () => {
      calls += 1;
      return 1;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    watching.hide();
    await vi.advanceTimersByTimeAsync(60 * MIN);
    // The timer due at 30 s found the tab hidden: no request, and none after.
    expect(calls).toBe(1);
    watching.show();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    // After reading or sending: at once, and the next one 30 s later (back-off started over).
    await vi.advanceTimersByTimeAsync(20 * S);
    messagesChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(29 * S);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(1 * S);
    expect(calls).toBe(4);
    watching.stop();
  });

  it('a change during a running check asks again at once, and the earlier answer is dropped', async () => {
    const answers: ((count: number) => void)[] = [];
    const watching = watchCount(
      () =>
        new Promise<number>((resolve) => {
          answers.push(resolve);
        }),
    );
    await vi.advanceTimersByTimeAsync(0);
    answers[0]?.(2);
    await vi.advanceTimersByTimeAsync(30 * S);
    // The check of 30 s is running when the member reads a conversation.
    expect(answers).toHaveLength(2);
    messagesChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(answers).toHaveLength(3);
    answers[2]?.(0);
    await vi.advanceTimersByTimeAsync(0);
    answers[1]?.(5);
    await vi.advanceTimersByTimeAsync(0);
    expect(watching.observer.getCurrentResult().data).toBe(0);
    watching.stop();
  });
});
