import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_DELAY_MS, MAX_DELAY_MS, nextDelay, watchState } from '#src/features/onboarding/state-watch.ts';
import { fakeWatchEnvironment as fakeEnvironment } from '#tests/support/fake-watch-environment.ts';

describe('waiting screens re-check the state with a back-off (issue 21)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('backs off 5 s → 10 s → 20 s → 40 s → 60 s and stays at 60 s', () => {
    const delays = [FIRST_DELAY_MS];
    for (let i = 0; i < 6; i += 1) delays.push(nextDelay(delays.at(-1) as number));
    expect(delays).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, MAX_DELAY_MS, MAX_DELAY_MS]);
  });

  it('checks at 5, 15, 35, 75, 135 and 195 s, and stops once the member moved', async () => {
    const { env } = fakeEnvironment();
    const times: number[] = [];
    const start = Date.now();
    let moveAt = 6;
    const check = vi.fn(async () => {
      times.push((Date.now() - start) / 1000);
      moveAt -= 1;
      return moveAt === 0;
    });
    const stop = watchState(check, env);
    await vi.advanceTimersByTimeAsync(400_000);
    expect(times).toEqual([5, 15, 35, 75, 135, 195]);
    expect(check).toHaveBeenCalledTimes(6);
    stop();
  });

  it('asks nothing while the tab is hidden, and checks at once when it comes back, the back-off starting over', async () => {
    const fake = fakeEnvironment();
    const check = vi.fn(async () => false);
    const stop = watchState(check, fake.env);
    await vi.advanceTimersByTimeAsync(15_000); // checks at 5 s and 15 s
    expect(check).toHaveBeenCalledTimes(2);
    fake.hide();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(check).toHaveBeenCalledTimes(2);
    fake.show();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(FIRST_DELAY_MS);
    expect(check).toHaveBeenCalledTimes(4);
    stop();
    expect(fake.listenerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(check).toHaveBeenCalledTimes(4);
  });

  it('a failed check (offline) is tried again later', async () => {
    const { env } = fakeEnvironment();
    const check = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(true);
    const stop = watchState(check, env);
    await vi.advanceTimersByTimeAsync(FIRST_DELAY_MS + nextDelay(FIRST_DELAY_MS));
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(check).toHaveBeenCalledTimes(2);
    stop();
  });
});
