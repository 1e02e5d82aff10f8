import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { scheduledMailDropReason } from '#bff/mail/agency-mail-triggers.ts';
import { happyPath, type Member } from '#tests/support/happy-path.ts';
import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { emptyRecord, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { decideUpdate } from '#machines/onboarding/restore.ts';
import { type ContextName, parseUpdate } from '#machines/onboarding/update-contexts.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * The check the dispatcher makes at the moment it sends a scheduled mail (decision 191): the
 * member's state then, and the meeting, signature or term the mail names.
 */

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const T0 = Date.UTC(2027, 2, 1, 8, 0, 0);

/** A member stored with the record of the happy path up to `until` (the chart decides each step). */
async function storedMember(until: ContextName) {
  const member: Member = { id: randomUUID(), email: `envoi.${randomUUID()}@example.fr`, gender: 'femme' };
  let record: OnboardingRecord = emptyRecord(member.id, member.email, member.gender);
  for (const step of happyPath(member, { start: T0 })) {
    const parsed = parseUpdate(step.body, step.now);
    if (!parsed.success) throw new Error(step.context);
    const decision = decideUpdate(record, parsed.update, step.now);
    if (!decision.allowed) throw new Error(`${step.context} refused`);
    record = decision.record;
    if (step.context === until) break;
  }
  await database.db.insert(members).values({ id: member.id, email: member.email, gender: 'femme', role: 'member', onboarding: record });
  return { ...member, record };
}

const check = (kind: string, dedupeKey: string | null, to: string, now: number) =>
  scheduledMailDropReason(database.db, { kind, dedupeKey, to }, new Date(now));

describe('a scheduled mail re-checked when it is sent', () => {
  it('goes while it applies; is dropped once the state it was meant for is gone', async () => {
    const signed = await storedMember('sub_date');
    const subDate = signed.record.subscriptionDate ?? '';
    const opens = deadlinesOfSignature(instantMs(subDate)).paymentOpensAtMs;
    const key = `agency-renunciation-period-over:${signed.id}:${subDate}`;
    // Payment open, nothing paid: « le paiement est ouvert » is true.
    expect(await check('agency-renunciation-period-over', key, signed.email, opens)).toBeNull();
    // Paid since it was queued (attente): it is not sent.
    const paid = await storedMember('sub');
    const paidKey = `agency-renunciation-period-over:${paid.id}:${paid.record.subscriptionDate}`;
    expect(await check('agency-renunciation-period-over', paidKey, paid.email, opens + DAY_MS)).toBe('ne s’applique plus à l’état attente');
  });

  it('is dropped when it names another signature or term than the member’s current one', async () => {
    const paid = await storedMember('sub');
    const withdrawalOver = deadlinesOfSignature(instantMs(paid.record.subscriptionDate ?? '')).withdrawal.endsAtMs;
    const older = `agency-withdrawal-period-over:${paid.id}:2026-05-04T09:00:00.000Z`;
    expect(await check('agency-withdrawal-period-over', older, paid.email, withdrawalOver)).toBe(
      'concerne un autre rendez-vous ou un autre contrat',
    );
    const current = `agency-withdrawal-period-over:${paid.id}:${paid.record.subscriptionDate}`;
    expect(await check('agency-withdrawal-period-over', current, paid.email, withdrawalOver)).toBeNull();
    const active = await storedMember('meeting_mm');
    const end = new Date(termEndsAtMs(active.record) ?? 0).toISOString();
    const month = Date.parse(end) - 30 * DAY_MS;
    expect(await check('agency-term-ending', `agency-term-ending:${active.id}:30:${end}`, active.email, month)).toBeNull();
    expect(await check('agency-term-ending', `agency-term-ending:${active.id}:30:2026-01-01T00:00:00.000Z`, active.email, month)).toBe(
      'concerne un autre rendez-vous ou un autre contrat',
    );
  });

  it('leaves every other mail alone, and drops one for nobody', async () => {
    const paid = await storedMember('sub');
    expect(await check('agency-payment-received', null, paid.email, T0)).toBeNull();
    expect(await check('agency-welcome', `agency-welcome:${paid.id}`, paid.email, T0)).toBeNull();
    expect(await check('agency-term-ended', null, 'personne@example.fr', T0)).toBe('membre introuvable');
  });
});
