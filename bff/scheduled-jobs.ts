import { log } from '#bff/logger.ts';
import { startPeriodicJob } from '#bff/periodic-job.ts';

/**
 * One of the agency's time-driven jobs (decision 170): a pass that does what became due at its
 * clock's `now` and nothing twice (every job is idempotent). The same pass runs on a timer in
 * real time, and on demand when the agency's clock is moved (`/_local/clock`).
 */
export interface ScheduledJob {
  /** A short id (`agency-mails`), for logs and tests. */
  name: string;
  /** What it does, in French, for the clock's page (« courriels de l’agence »). */
  label: string;
  /**
   * One pass. `stopping` is aborted when the product closes: a pass in batches checks it between
   * two batches and returns (the next pass takes up what is left: every job is idempotent).
   */
  run: (stopping?: AbortSignal) => Promise<unknown>;
  /** The log line of a failed pass (French, for the team). */
  failure: string;
  firstDelayMs: number;
  intervalMs: number;
  /**
   * `each-day`: its windows are a day or shorter (a reminder « la veille »), or it does one thing
   * per pass (one instalment per member), so a move runs it at every day the clock crosses.
   * `at-end`: what it does depends on the state reached only (retention, refunds to retry), so a
   * move runs it once, at the end.
   */
  cadence: 'each-day' | 'at-end';
}

export interface JobOutcome {
  name: string;
  label: string;
  ok: boolean;
}

export interface JobRegistry {
  readonly jobs: readonly ScheduledJob[];
  /** Runs each job of `cadence` (all by default) once, in the registry's order; a failure is logged and the next one runs. */
  runNow(cadence?: ScheduledJob['cadence']): Promise<JobOutcome[]>;
  /**
   * Starts every job's timer (real time); `stop()` clears them, aborts the passes' `stopping`
   * signal (no pass starts after it, a pass in batches ends after its batch in flight) and waits
   * for any pass in progress.
   */
  startTimers(): void;
  stop(): Promise<void>;
}

/**
 * The agency's jobs in one place, in the order a clock move runs them. A job's passes never
 * overlap, whoever starts them (its timer or a clock move): each waits for the one before.
 */
export function jobRegistry(jobs: readonly ScheduledJob[]): JobRegistry {
  const lanes = new Map<string, Promise<unknown>>();
  const timers: { stop(): Promise<void> }[] = [];
  const stopping = new AbortController();
  const pass = (job: ScheduledJob): Promise<boolean> => {
    const run = (lanes.get(job.name) ?? Promise.resolve())
      .then(() => (stopping.signal.aborted ? undefined : job.run(stopping.signal)))
      .then(
        () => true,
        (error: unknown) => {
          log.error(job.failure, { err: error });
          return false;
        },
      );
    lanes.set(job.name, run);
    return run;
  };
  return {
    jobs,
    async runNow(cadence) {
      const outcomes: JobOutcome[] = [];
      for (const job of jobs) {
        if (cadence && job.cadence !== cadence) continue;
        outcomes.push({ name: job.name, label: job.label, ok: await pass(job) });
      }
      return outcomes;
    },
    startTimers() {
      for (const job of jobs) {
        timers.push(
          startPeriodicJob({ task: () => pass(job), failure: job.failure, firstDelayMs: job.firstDelayMs, intervalMs: job.intervalMs }),
        );
      }
    },
    async stop() {
      stopping.abort();
      await Promise.all(timers.splice(0).map((timer) => timer.stop()));
      await Promise.all(lanes.values());
    },
  };
}
