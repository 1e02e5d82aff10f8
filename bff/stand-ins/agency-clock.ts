import * as v from 'valibot';
import type { Clock } from '#bff/clock.ts';
import type { Db } from '#bff/db/database.ts';
import type { JobOutcome, JobRegistry } from '#bff/scheduled-jobs.ts';
import { saveClockOffset, storedClockOffset } from '#bff/stand-ins/store/clock-offset.ts';

/**
 * The agency's clock outside production (decision 170): the base clock (real time, or a test's
 * clock) plus an offset that only ever grows. A person or a test moves it through `/_local/clock`
 * to watch days 7 and 14, the instalments and the term happen; the offset is kept in `settings`
 * (like the stand-ins' webhook secrets), so a restarted demo keeps its date. Production never
 * builds one: its clock is the system's.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
/** A long move crosses at most this many stops (one a day up to 400 days). */
const MAX_STOPS = 400;

export interface AgencyClock extends Clock {
  /** How far ahead of its base the agency's clock is, in ms. */
  offsetMs(): number;
  /**
   * Moves the clock forward to `target`, crossing it one day at a time and running at each stop
   * the jobs whose windows are a day or shorter, then once every other job; the new offset is
   * stored. Moves are serial; a target before the clock's `now` throws `ClockBackwards`.
   */
  moveTo(target: Date, jobs: JobRegistry): Promise<{ now: Date; ran: JobOutcome[] }>;
}

export class ClockBackwards extends Error {
  constructor(readonly now: Date) {
    super('clock-backwards');
  }
}

const StoredOffset = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

async function readOffset(db: Db): Promise<number> {
  const parsed = v.safeParse(StoredOffset, await storedClockOffset(db));
  return parsed.success ? parsed.output : 0;
}

/** The agency's clock over `base`, with the offset stored in `db` (0 on a new database). */
export async function loadAgencyClock(db: Db, base: Clock): Promise<AgencyClock> {
  let offset = await readOffset(db);
  let moving: Promise<unknown> = Promise.resolve();
  const now = () => new Date(base.now().getTime() + offset);
  const setTo = (at: number) => {
    // Never backwards, even by the few ms real time took between two stops.
    offset = Math.max(offset, at - base.now().getTime());
  };
  const move = async (target: Date, jobs: JobRegistry) => {
    const from = now().getTime();
    const to = target.getTime();
    if (to < from) throw new ClockBackwards(new Date(from));
    const step = Math.max(DAY_MS, Math.ceil((to - from) / MAX_STOPS));
    const ran = new Map<string, JobOutcome>();
    const note = (outcomes: JobOutcome[]) => {
      for (const o of outcomes) ran.set(o.name, { ...o, ok: o.ok && (ran.get(o.name)?.ok ?? true) });
    };
    for (let at = from + step; at < to; at += step) {
      setTo(at);
      note(await jobs.runNow('each-day'));
    }
    setTo(to);
    await saveClockOffset(db, offset, now());
    note(await jobs.runNow('each-day'));
    note(await jobs.runNow('at-end'));
    return { now: now(), ran: jobs.jobs.map((job) => ran.get(job.name)).filter((o): o is JobOutcome => o !== undefined) };
  };
  return {
    now,
    offsetMs: () => offset,
    moveTo(target, jobs) {
      const result = moving.then(() => move(target, jobs));
      moving = result.catch(() => undefined);
      return result;
    },
  };
}
