import type fc from 'fast-check';
import { describe, it } from 'vitest';
import { commands, DAY_MS, MINUTE_MS, type Model, type Real } from '#tests/support/sequences/contract-model.ts';
import { parisInstant } from '#tests/support/sequences/civil-calendar.ts';
import { randomSequences, runSequence, sequenceWorld } from '#tests/support/sequences/run-sequences.ts';

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
 *
 * The random sequences are split in two halves (decision 226): this file runs the first with the
 * regressions, `contract-sequences-second-half.test.ts` the second, on the other worker
 * (tests/support/sequences/run-sequences.ts).
 */

const world = sequenceWorld();

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
      await runSequence(world, regression.start, regression.steps);
    });
});

describe('the life of a contract, as random sequences through the HTTP API', () => {
  randomSequences(world, 0);
});
