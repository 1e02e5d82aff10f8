import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  commandArbs,
  commands,
  DAY_MS,
  firstSignArb,
  initialModel,
  MINUTE_MS,
  type Model,
  type Real,
  startArb,
} from '#tests/support/sequences/contract-model.ts';
import { parisInstant } from '#tests/support/sequences/civil-calendar.ts';
import { SequenceWorld } from '#tests/support/sequences/sequence-world.ts';

/**
 * The life of a contract checked as sequences (issue 59, point 9; decision 191). Random sequences
 * of a member's steps, staff decisions, payments, Stripe events and moves of the agency's clock
 * run through the product's HTTP API on a template database; after every step these invariants
 * are checked (the code: tests/support/sequences/invariants.ts):
 *
 * (a) per contract and per charge, refunded ≤ received; a charge taken after the stop is refunded
 *     in full; a withdrawal or an accepted termination refunds what the rule says of all the
 *     money the contract received;
 * (b) no payment accepted before the end of the renunciation period (civil days, Paris);
 * (c) no normal invoice for a charge outside a live contract;
 * (d) a renunciation or a withdrawal is accepted if and only if it is within its civil-day
 *     deadline (the test's own calendar: holidays written out, weekends, DST);
 * (e) no mail whose meaning contradicts the state it was sent in;
 * (f) invoices and credit notes without gaps, adding up to the ledger;
 * (g) what the member's and the staff's screens read (schedule, what is left, the next
 *     instalment, « Mon accompagnement », « Mes droits », the staff's billing) equals the ledger.
 *
 * `npm test` runs `SEQUENCE_RUNS` (25) sequences of at most `SEQUENCE_STEPS` (15) steps from a
 * fixed seed; `npm run test:sequences` runs 200 (or `SEQUENCE_RUNS=2000 npm run test:sequences`)
 * from a new seed each time. A failure prints its seed, its path and the steps it took, with the
 * line that replays it (`SEQUENCE_SHRINK=1` also shrinks it to a shorter sequence).
 */

const RUNS = Number(process.env.SEQUENCE_RUNS ?? 25);
const STEPS = Number(process.env.SEQUENCE_STEPS ?? 15);
/** CI's fixed seed; `npm run test:sequences` draws a new one (`SEQUENCE_SEED=random`) unless given one. */
const SEED = process.env.SEQUENCE_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.SEQUENCE_SEED ?? 20_261_207);
const PATH = process.env.SEQUENCE_PATH;
const REPLAY_PATH = process.env.SEQUENCE_REPLAY_PATH;
const SHRINK = process.env.SEQUENCE_SHRINK === '1';
/** `SEQUENCE_VERBOSE=1` prints every sequence's steps, not only a failing one's. */
const VERBOSE = process.env.SEQUENCE_VERBOSE === '1';

const world = new SequenceWorld();
afterAll(() => world.close());

/** One sequence on a clean slate from `startMs`: every command, the invariants after each. */
async function runSequence(startMs: number, cmds: Iterable<fc.AsyncCommand<Model, Real>>): Promise<Real> {
  const run = await world.beginRun(startMs);
  const real: Real = { run, trace: [], lastEvent: null };
  try {
    await fc.asyncModelRun(() => ({ model: initialModel(run.now()), real }), cmds);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n\nThe steps taken (agency's time, Paris):\n${real.trace.join('\n')}`);
  }
  if (VERBOSE) console.info(`sequence from ${new Date(startMs).toISOString()}:\n${real.trace.join('\n')}`);
  return real;
}

/**
 * Sequences that once broke an invariant, kept as fixed examples (each shortened from the seed
 * that found it): they run first, on every `npm test`, whatever the random ones draw.
 */
const { Sign, Renounce, Pay, StripeEvent, Move } = commands;
const at = (day: string, hour: number, minute: number) => parisInstant(day, hour, minute);

describe('sequences that once broke an invariant', () => {
  const regressions: { found: string; start: number; steps: fc.AsyncCommand<Model, Real>[] }[] = [
    {
      found: 'seed 20261207 path 1: (b) a payment confirmed « in 2026 », dated by the database, not by the agency’s clock',
      start: at('2032-04-16', 22, 1),
      steps: [new Sign('plan_horizon_year', true, 5), new Move({ mark: 'renunciation-end', deltaMs: MINUTE_MS }), new Pay()],
    },
    {
      found: 'seed 20261207 path 3: (g) the staff’s billing showed the refund of a payment received after a renunciation, not the payment',
      start: at('2032-03-25', 0, 58),
      steps: [
        new Sign('plan_serenity_month', true, 0),
        new Renounce(),
        new Move({ mark: 'renunciation-end', deltaMs: MINUTE_MS }),
        new StripeEvent('late-checkout'),
      ],
    },
    {
      found:
        'seed 20261207 path 9: (g) a contract paid the day before its term, never activated, still « waiting for the meeting » after it',
      start: at('2033-05-20', 14, 58),
      steps: [new Sign('plan_horizon_month', true, 5), new Move({ mark: 'term-end', deltaMs: -DAY_MS }), new Pay(), new Move({ days: 6 })],
    },
  ];
  for (const regression of regressions)
    it(regression.found, { timeout: 120_000 }, async () => {
      await runSequence(regression.start, regression.steps);
    });
});

describe('the life of a contract, as random sequences through the HTTP API', () => {
  it(`${RUNS} sequences of up to ${STEPS} steps keep every invariant`, { timeout: 60_000 + RUNS * 20_000 }, async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await fc.check(
      fc.asyncProperty(
        startArb,
        firstSignArb,
        fc.commands(commandArbs, { maxCommands: STEPS - 1, size: 'max', ...(REPLAY_PATH ? { replayPath: REPLAY_PATH } : {}) }),
        (start, sign, cmds) => runSequence(start.ms, [sign, ...cmds]).then(() => undefined),
      ),
      { numRuns: RUNS, seed: SEED, ...(PATH ? { path: PATH } : {}), endOnFailure: !SHRINK },
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.failed) {
      const replay = `SEQUENCE_SEED=${result.seed} SEQUENCE_PATH=${result.counterexamplePath} npm run test:sequences`;
      const error = result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
      throw new Error(
        `A sequence broke an invariant after ${result.numRuns} runs (${seconds} s). seed ${result.seed}, path ${result.counterexamplePath}\n` +
          `Replay: ${replay}\nCounterexample: ${fc.stringify(result.counterexample)}\n\n${error}`,
      );
    }
    const used = process.cpuUsage(cpu);
    const cpuSeconds = ((used.user + used.system) / 1e6).toFixed(1);
    console.info(
      `contract sequences: ${result.numRuns} runs, seed ${SEED}${PATH ? `, path ${PATH}` : ''}, ${seconds} s (${cpuSeconds} s of CPU), ${world.eras} product start(s)`,
    );
    if (!PATH) expect(result.numRuns).toBe(RUNS);
  });
});
