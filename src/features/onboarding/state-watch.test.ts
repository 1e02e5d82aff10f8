import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_DELAY_MS, MAX_DELAY_MS, moved, STATE_SCHEDULE, stateWatchQuery } from '#src/features/onboarding/state-watch.ts';
import { delaysOf } from '#src/lib/query-client.ts';
import { watchQuery } from '#tests/support/query-watch.ts';

const watch = (check: () => Promise<boolean>) =>
  watchQuery(stateWatchQuery('/mon-compte/inscription/attente', check), STATE_SCHEDULE, moved);

describe('waiting screens re-check the state with a back-off (issue 21, decision 214)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('backs off 5 s → 10 s → 20 s → 40 s → 60 s and stays at 60 s', () => {
    expect(delaysOf(STATE_SCHEDULE, 7)).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, MAX_DELAY_MS, MAX_DELAY_MS]);
  });

  it('checks at 5, 15, 35, 75, 135 and 195 s, and stops once the member moved', async () => {
    const times: number[] = [];
    const start = Date.now();
    let moveAt = 6;
    const check = vi.fn(async () => {
      times.push((Date.now() - start) / 1000);
      moveAt -= 1;
      return moveAt === 0;
    });
    const watching = watch(check);
    await vi.advanceTimersByTimeAsync(400_000);
    expect(times).toEqual([5, 15, 35, 75, 135, 195]);
    expect(check).toHaveBeenCalledTimes(6);
    watching.stop();
  });

  it('asks nothing while the tab is hidden, and checks at once when it comes back, the back-off starting over', async () => {
    const check = vi.fn(async () => false);
    const watching = watch(check);
    await vi.advanceTimersByTimeAsync(15_000); // checks at 5 s and 15 s
    expect(check).toHaveBeenCalledTimes(2);
    watching.hide();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(check).toHaveBeenCalledTimes(2);
    watching.show();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(FIRST_DELAY_MS);
    expect(check).toHaveBeenCalledTimes(4);
    watching.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(check).toHaveBeenCalledTimes(4);
  });

  it('a failed check (offline) is tried again later, not at once', async () => {
    const check = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(true);
    const watching = watch(check);
    await vi.advanceTimersByTimeAsync(FIRST_DELAY_MS);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(2 * FIRST_DELAY_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(check).toHaveBeenCalledTimes(2);
    watching.stop();
  });
});
