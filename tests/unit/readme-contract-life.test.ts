import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { instalmentDueAt } from '#machines/onboarding/instalments.ts';
import { addCalendarDays, deadlinesOfSignature, isWorkingDay } from '#machines/onboarding/legal-deadlines.ts';
import { contractEndsAtMs } from '#machines/onboarding/periods.ts';
import { planById } from '#machines/onboarding/plans.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/**
 * The README's « watch a contract's life » (issue 59 point 8) moves the agency's clock by the days
 * it prints. Those numbers must work whatever the day a newcomer runs it: checked here for every
 * day of two years (weekends, Easter, Ascension, Whit Monday, 14 July, Christmas, New Year, DST),
 * against the product's own civil-day and instalment functions. The HTTP walk itself (each move
 * runs the jobs due on the way) is tests/integration/agency-clock.test.ts and
 * tests/e2e/contract-life.spec.ts.
 */

const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
const walk = readme.slice(readme.indexOf("watch a contract's life"), readme.indexOf('The same with `curl`'));

/** The days of step `n`'s « Clock: **N days** », and its « up to **M** » when it has one. */
function clockOf(step: number): { days: number; upTo: number | null } {
  const line = new RegExp(`^${step}\\. Clock: \\*\\*(\\d+) days\\*\\*(?: \\(up to \\*\\*(\\d+)\\*\\*)?`, 'm').exec(walk);
  if (!line) throw new Error(`README: no « Clock » in step ${step}`);
  return { days: Number(line[1]), upTo: line[2] === undefined ? null : Number(line[2]) };
}

describe('the README’s clock moves fit every day of the year', () => {
  it('prints its moves where this test reads them', () => {
    expect(walk).toContain('Clock: **');
    expect([2, 4, 5, 6].map((n) => clockOf(n).days)).toEqual([3, 8, 15, 31]);
  });

  it('payment open after the second move; the withdrawal over after the third; the term reached by the last', () => {
    const meeting = clockOf(2).days;
    const payment = clockOf(4);
    const withdrawal = clockOf(5).days;
    const month = clockOf(6).days;
    const plan = planById('plan_horizon_month');
    let longest = 0;
    for (let day = '2026-01-01'; day < '2028-01-01'; day = addCalendarDays(day, 1)) {
      for (const hour of [9, 18, 23]) {
        const run = parisDayStartMs(day) + hour * 60 * 60 * 1000;
        const signed = run + meeting * DAY_MS + 5 * 60 * 1000;
        const deadlines = deadlinesOfSignature(signed);
        // « 8 days », « up to 11 when the 7th day … is a Saturday, a Sunday or a public holiday ».
        const seventh = addCalendarDays(deadlines.signedOnDay, 7);
        const move = isWorkingDay(seventh) ? payment.days : (payment.upTo ?? payment.days);
        const paid = signed + move * DAY_MS + 10 * 60 * 1000;
        expect(paid, `signed ${deadlines.signedOnDay}: payment open after ${move} days`).toBeGreaterThanOrEqual(deadlines.paymentOpensAtMs);
        longest = Math.max(longest, Math.ceil((deadlines.paymentOpensAtMs - signed) / DAY_MS));
        // « 15 days: withdrawal period over », before instalment 2 is due.
        const active = paid + withdrawal * DAY_MS;
        expect(active, `signed ${deadlines.signedOnDay}: withdrawal over`).toBeGreaterThanOrEqual(deadlines.withdrawal.endsAtMs);
        expect(active, `signed ${deadlines.signedOnDay}: before instalment 2`).toBeLessThan(instalmentDueAt(paid, 2));
        // « 31 days, again and again: each instalment taken …; then the term's end »: every instalment is
        // due before the term, and the term is passed within as many moves as the plan has months.
        const term = contractEndsAtMs(new Date(signed).toISOString(), plan.durationMonths) ?? 0;
        expect(instalmentDueAt(paid, plan.installments)).toBeLessThan(term);
        expect(active + plan.durationMonths * month * DAY_MS, `signed ${deadlines.signedOnDay}: the term`).toBeGreaterThanOrEqual(term);
      }
    }
    // The « up to » is the longest wait there is: not more than needed.
    expect(longest).toBe(payment.upTo);
  });
});
