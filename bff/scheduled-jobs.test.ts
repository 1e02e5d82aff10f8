import { describe, expect, it } from 'vitest';
import { jobRegistry, type ScheduledJob } from '#bff/scheduled-jobs.ts';

/** Decision 170: one registry runs the agency's jobs on timers and on demand, never overlapping. */
function job(name: string, cadence: ScheduledJob['cadence'], run: () => Promise<unknown>): ScheduledJob {
  return { name, label: name, run, failure: `${name} interrompue`, firstDelayMs: 0, intervalMs: 60_000, cadence };
}

describe('the job registry', () => {
  it('runs every job once, in order, awaiting each; a failure is reported and the next one still runs', async () => {
    const order: string[] = [];
    const registry = jobRegistry([
      job('a', 'each-day', async () => order.push('a')),
      job('b', 'each-day', async () => {
        order.push('b');
        throw new Error('panne');
      }),
      job('c', 'at-end', async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('c');
      }),
    ]);
    const outcomes = await registry.runNow();
    expect(order).toEqual(['a', 'b', 'c']);
    expect(outcomes.map((o) => [o.name, o.ok])).toEqual([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
    expect((await registry.runNow('at-end')).map((o) => o.name)).toEqual(['c']);
    expect((await registry.runNow('each-day')).map((o) => o.name)).toEqual(['a', 'b']);
  });

  it('never overlaps two passes of a job, whoever starts them', async () => {
    let running = 0;
    let most = 0;
    const registry = jobRegistry([
      job('slow', 'each-day', async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 30));
        running -= 1;
      }),
    ]);
    registry.startTimers(); // first pass at once
    await Promise.all([registry.runNow(), registry.runNow()]);
    await registry.stop();
    expect(most).toBe(1);
    expect(running).toBe(0);
  });
});
