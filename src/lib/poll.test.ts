import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNREAD_SCHEDULE } from '#src/features/messages/unread.ts';
import { delaysOf, type PollOutcome, poll } from '#src/lib/poll.ts';
import { fakeWatchEnvironment as fakeEnvironment } from '#tests/support/fake-watch-environment.ts';

const S = 1000;
const MIN = 60 * S;

describe('unread counts keep up by themselves (decision 128)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('backs off 30 s → 1 min → 2 min → 4 min → 5 min and stays at 5 min', () => {
    expect(delaysOf(UNREAD_SCHEDULE, 7)).toEqual([30 * S, 60 * S, 2 * MIN, 4 * MIN, 5 * MIN, 5 * MIN, 5 * MIN]);
  });

  it('asks at once, then at 30 s, 1 min 30, 3 min 30 while unchanged; a change starts the back-off over', async () => {
    const { env } = fakeEnvironment();
    const at: number[] = [];
    const outcomes: PollOutcome[] = ['unchanged', 'unchanged', 'unchanged', 'changed', 'unchanged', 'unchanged'];
    const start = Date.now();
    const poller = poll(
      async () => {
        at.push(Date.now() - start);
        return outcomes.shift() ?? 'unchanged';
      },
      env,
      UNREAD_SCHEDULE,
      { immediate: true },
    );
    await vi.advanceTimersByTimeAsync(4 * MIN);
    // 0, 30 s, 90 s, 210 s (changed) → next at 210 + 30 = 240 s.
    expect(at).toEqual([0, 30 * S, 90 * S, 210 * S, 240 * S]);
    await vi.advanceTimersByTimeAsync(MIN);
    expect(at.at(-1)).toBe(300 * S);
    poller.stop();
    await vi.advanceTimersByTimeAsync(10 * MIN);
    expect(at).toHaveLength(6);
  });

  it('asks nothing while hidden, at once when the tab comes back, and at once on now()', async () => {
    const { env, hide, show } = fakeEnvironment();
    let calls = 0;
    const poller = poll(
      async () => {
        calls += 1;
        return 'unchanged';
      },
      env,
      UNREAD_SCHEDULE,
      { immediate: true },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    hide();
    await vi.advanceTimersByTimeAsync(60 * MIN);
    // The timer due at 30 s found the tab hidden: no request, and none after.
    expect(calls).toBe(1);
    show();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    // After reading or sending: at once, and the next one 30 s later (back-off started over).
    await vi.advanceTimersByTimeAsync(20 * S);
    poller.now();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(29 * S);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(1 * S);
    expect(calls).toBe(4);
    poller.stop();
  });

  it('a now() during a running check asks again right after it', async () => {
    const { env } = fakeEnvironment();
    let calls = 0;
    let release: () => void = () => {};
    const poller = poll(
      () => {
        calls += 1;
        return new Promise<PollOutcome>((resolve) => {
          release = () => resolve('unchanged');
        });
      },
      env,
      UNREAD_SCHEDULE,
      { immediate: true },
    );
    await vi.advanceTimersByTimeAsync(0);
    poller.now();
    expect(calls).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    poller.stop();
  });
});
