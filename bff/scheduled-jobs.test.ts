import { describe, expect, it } from 'vitest';
import { jobRegistry, type ScheduledJob } from '#bff/scheduled-jobs.ts';

/** Decision 170: one registry runs the agency's jobs on timers and on demand, never overlapping. */
function job(name: string, cadence: ScheduledJob['cadence'], run: ScheduledJob['run']): ScheduledJob {
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

  it('a close between the batches of a pass: the batch in flight ends, no batch starts after it, long before the pass would have ended', async () => {
    const BATCHES = 100;
    const BATCH_MS = 20;
    const started: number[] = [];
    let finished = 0;
    let stoppedAt = Number.POSITIVE_INFINITY;
    // A pass in batches like the mails' and the retention's (decision 213): it checks the signal between two batches.
    const registry = jobRegistry([
      job('batches', 'at-end', async (stopping) => {
        for (let batch = 0; batch < BATCHES; batch += 1) {
          if (stopping?.aborted) break;
          started.push(performance.now());
          await new Promise((resolve) => setTimeout(resolve, BATCH_MS));
          finished += 1;
        }
      }),
    ]);
    registry.startTimers(); // first pass at once
    await new Promise((resolve) => setTimeout(resolve, BATCH_MS * 3));
    const closing = performance.now();
    stoppedAt = closing;
    await registry.stop();
    const closedIn = performance.now() - closing;
    // The batch in flight was waited for, and nothing started after the close.
    expect(started.length).toBeGreaterThan(0);
    expect(finished).toBe(started.length);
    expect(started.every((at) => at < stoppedAt)).toBe(true);
    expect(started.length).toBeLessThan(BATCHES / 4);
    expect(closedIn).toBeLessThan((BATCHES * BATCH_MS) / 4);
    // A pass asked after the close does not run.
    const before = started.length;
    await registry.runNow();
    expect(started.length).toBe(before);
  });
});
