import { log } from '#bff/logger.ts';

/**
 * Runs `task` once after `firstDelayMs`, then every `intervalMs`, on timers that never keep the
 * process alive. A failed pass is logged as `failure` (French, for the team) and the next one runs
 * all the same. `serial`: a pass starts only when the one before has ended (else passes may
 * overlap). `stop()` clears the timers and waits for the pass in progress.
 */
export function startPeriodicJob(job: {
  task: () => Promise<unknown>;
  failure: string;
  firstDelayMs: number;
  intervalMs: number;
  serial?: boolean;
}): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const pass = () => {
    running = (job.serial ? running.then(job.task) : job.task()).catch((error: unknown) => {
      log.error(job.failure, { err: error });
    });
  };
  const first = setTimeout(pass, job.firstDelayMs);
  const timer = setInterval(pass, job.intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
