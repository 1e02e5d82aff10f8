import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { contractTerminations, creditNotes } from '#bff/db/credit-notes-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { onboardingEvents } from '#bff/db/schema.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { contractEndsAtMs, terminationRefundDueByMs } from '#machines/onboarding/periods.ts';
import { FILE_FEE_CENTS, formatEuros, planById } from '#machines/onboarding/plans.ts';
import { agencyMailsOf, sendUpdate, signUpMember, walkToPaidContract } from '#tests/support/member-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';
import { requestTermination, samplePdf } from '#tests/support/termination.ts';

/** Decision 119 over HTTP, with the movable clock: termination for a legitimate reason (R224-2), credit notes. */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const newMember = () => signUpMember(product, 'resiliation');

const outboxOf = (email: string) => agencyMailsOf(product, email);

/** A member paid in full (169 € + 1 020 €) as payment opens, active on day 15 (or as the withdrawal period ends, if later: decision 165). */
async function activeMember() {
  clock.set(new Date());
  const member = await newMember();
  const { signedAt } = await walkToPaidContract({ member, staff, clock, planId: 'plan_serenity_year' });
  clock.set(new Date(Math.max(signedAt + 15 * DAY_MS, deadlinesOfSignature(signedAt).withdrawal.endsAtMs)));
  expect((await sendUpdate(staff.agent, { context: 'meeting_mm', uid: member.id })).body.state).toBe('membre-actif');
  return { member, signedAt };
}

async function matchProfileOf(memberId: string) {
  const result = (await product.database.db.execute(
    sql`SELECT available, unavailable_reason FROM match_profiles WHERE member_id = ${memberId}::uuid`,
  )) as unknown as { rows: { available: boolean; unavailable_reason: string | null }[] };
  return result.rows[0];
}

/** The member's form (decision 189): the reason, her words, and the proof as a file. */
const REQUEST = { reason: 'demenagement', explanation: 'Je pars vivre au Canada pour mon travail.' };
const PROOF = { bytes: samplePdf('Contrat de travail a Montreal'), name: 'contrat.pdf', type: 'application/pdf' };

async function staffRights(memberId: string) {
  return staff.agent.json<{
    member: { state: string };
    rights: {
      refunds: { amountCents: number; dueBy: string; done: boolean }[];
      termination: {
        reasonLabel: string;
        explanation: string;
        proof: { typeLabel: string; url: string } | null;
        dueBy: string;
        pending: boolean;
        statusLabel: string;
        refusalReason: string | null;
      } | null;
    };
  }>(staff.agent.get(`/api/v1/dashboard/members/${memberId}`));
}

describe('termination for a legitimate reason (R224-2)', () => {
  it('request → staff accept: resilie, pro-rata refund due in two months made, a credit note per refund, three mails', async () => {
    const { member, signedAt } = await activeMember();
    // Staff cannot ask for the member (they record a letter instead); the member cannot decide.
    expect((await sendUpdate(staff.agent, { context: 'terminate', ...REQUEST, uid: member.id })).status).toBe(403);
    expect((await requestTermination(staff.agent, REQUEST, PROOF)).status).toBe(403);
    expect((await sendUpdate(member.agent, { context: 'terminate_ok', uid: member.id })).status).toBe(403);
    // Nothing pending yet: staff decisions are refused with the state.
    const early = await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id });
    expect(early.status).toBe(409);
    expect(early.body.error?.state).toBe('membre-actif');
    // A bad request is refused in French and changes nothing.
    const bad = await requestTermination(member.agent, { ...REQUEST, reason: 'ennui' }, PROOF);
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBeTruthy();

    const requestedAt = signedAt + 73 * DAY_MS;
    clock.set(new Date(requestedAt));
    const asked = await requestTermination(member.agent, REQUEST, PROOF);
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expect(asked.body.state).toBe('resiliation-demandee');
    expect((await requestTermination(member.agent, REQUEST, PROOF)).status).toBe(409);
    // Not proposed to anyone meanwhile.
    const profile = await matchProfileOf(member.id);
    expect(profile?.available).toBe(false);
    expect(profile?.unavailable_reason).toBe('resiliation-demandee');
    // The explanation stays out of the event log.
    const events = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, member.id));
    const logged = events.find((e) => e.context === 'terminate');
    expect(JSON.stringify(logged?.payload)).not.toContain('Canada');
    // Staff see the request with its deadline.
    const pending = await staffRights(member.id);
    expect(pending.member.state).toBe('resiliation-demandee');
    expect(pending.rights.termination).toMatchObject({
      reasonLabel: 'Déménagement',
      explanation: REQUEST.explanation,
      proof: expect.objectContaining({ typeLabel: 'PDF' }),
      pending: true,
      dueBy: toIsoInstant(terminationRefundDueByMs(requestedAt)),
    });

    clock.set(new Date(requestedAt + 5 * DAY_MS));
    const accepted = await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.state).toBe('resilie');
    expect((await sendUpdate(staff.agent, { context: 'terminate_ok', uid: member.id })).status).toBe(409);

    // Price 1 189 € reduced pro rata of the 73 days elapsed until the request over the term's days.
    const end = contractEndsAtMs(toIsoInstant(signedAt), 12) ?? 0;
    const termDays = Math.round((end - signedAt) / DAY_MS);
    const price = FILE_FEE_CENTS + planById('plan_serenity_year').totalCents;
    const kept = Math.round((price * 73) / termDays);
    const rows = await product.database.db.select().from(refunds).where(eq(refunds.memberId, member.id)).orderBy(asc(refunds.id));
    expect(rows.every((r) => r.reason === 'termination' && r.status === 'succeeded')).toBe(true);
    expect(rows.reduce((sum, r) => sum + r.amountCents, 0)).toBe(price - kept);
    expect(rows.every((r) => r.dueBy.getTime() === terminationRefundDueByMs(requestedAt))).toBe(true);

    // One credit note per refund row, linked to the refunded session's invoice, numbered AV-AAAA-NNNNNN.
    const notes = await product.database.db.select().from(creditNotes).where(eq(creditNotes.memberId, member.id));
    expect(notes).toHaveLength(rows.length);
    for (const note of notes) {
      const refund = rows.find((r) => r.id === note.refundId);
      const [invoice] = await product.database.db
        .select()
        .from(invoices)
        .where(eq(invoices.checkoutSessionId, refund?.checkoutSessionId ?? ''));
      expect(note.invoiceNumber).toBe(invoice?.number);
      expect(note.number).toMatch(/^AV-\d{4}-\d{6}$/);
      expect(note.amountCents).toBe(refund?.amountCents);
      expect(Buffer.from(note.pdf).subarray(0, 5).toString()).toBe('%PDF-');
    }
    // Listed and downloadable by the member and staff; another member gets 404.
    const list = await member.agent.json<{ creditNotes: { number: string; amountCents: number }[] }>(
      member.agent.get('/api/v1/user/credit-notes'),
    );
    expect(list.creditNotes.map((c) => c.number).sort()).toEqual(notes.map((c) => c.number).sort());
    const first = notes[0]?.number ?? '';
    const mine = await member.agent.get(`/api/v1/user/credit-notes/${first}.pdf`);
    expect(mine.status).toBe(200);
    expect(Buffer.from(await mine.arrayBuffer()).equals(Buffer.from(notes[0]?.pdf ?? []))).toBe(true);
    expect((await staff.agent.get(`/api/v1/dashboard/members/${member.id}/credit-notes/${first}.pdf`)).status).toBe(200);
    const other = await newMember();
    expect((await other.agent.get(`/api/v1/user/credit-notes/${first}.pdf`)).status).toBe(404);
    expect((await member.agent.get('/api/v1/user/credit-notes/AV-2026-1.pdf')).status).toBe(400);

    // Mails: request received (deadline), accepted (amount and deadline), one per credit note with its PDF.
    const mails = await outboxOf(member.email);
    const kinds = mails.map((m) => m.kind);
    expect(kinds.filter((k) => k === 'agency-termination-requested')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'agency-termination-confirmed')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'agency-credit-note')).toHaveLength(notes.length);
    const confirmed = mails.find((m) => m.kind === 'agency-termination-confirmed');
    expect(confirmed?.text.replace(/\s/g, ' ')).toContain(`Nous vous remboursons ${formatEuros(price - kept).replace(/\s/g, ' ')}`);
    const creditMail = mails.find((m) => m.kind === 'agency-credit-note');
    expect(JSON.stringify(creditMail?.attachments)).toContain('avoir-AV-');
    const view = await staffRights(member.id);
    expect(view.member.state).toBe('resilie');
    expect(view.rights.termination).toMatchObject({ pending: false, statusLabel: 'Acceptée' });
  });

  it('request → staff refuse with a reason: back to membre-actif, the refusal mailed, nothing refunded', async () => {
    const { member, signedAt } = await activeMember();
    clock.set(new Date(signedAt + 40 * DAY_MS));
    expect((await requestTermination(member.agent, { ...REQUEST, reason: 'maladie-invalidite' })).status).toBe(201);
    // A refusal without a reason is refused.
    expect((await sendUpdate(staff.agent, { context: 'terminate_no', uid: member.id, reason: '' })).status).toBe(400);
    const refused = await sendUpdate(staff.agent, {
      context: 'terminate_no',
      uid: member.id,
      reason: 'Aucun justificatif médical n’a été fourni.',
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(200);
    expect(refused.body.state).toBe('membre-actif');
    expect(await product.database.db.select().from(refunds).where(eq(refunds.memberId, member.id))).toHaveLength(0);
    expect(await product.database.db.select().from(creditNotes).where(eq(creditNotes.memberId, member.id))).toHaveLength(0);
    const mails = await outboxOf(member.email);
    const refusal = mails.filter((m) => m.kind === 'agency-termination-refused');
    expect(refusal).toHaveLength(1);
    expect(refusal[0]?.text).toContain('Aucun justificatif médical n’a été fourni.');
    const view = await staffRights(member.id);
    expect(view.rights.termination).toMatchObject({ statusLabel: 'Refusée', refusalReason: 'Aucun justificatif médical n’a été fourni.' });
    const profile = await matchProfileOf(member.id);
    expect(profile?.unavailable_reason ?? null).toBeNull();

    // Her export holds the request and the answer; erasure keeps the dates and the decision and
    // drops her words (they may tell of health, art. 9) and the staff's reply.
    const exported = await member.agent.json<{ terminations: Record<string, unknown>[] }>(member.agent.get('/api/v1/user/export'));
    expect(exported.terminations).toEqual([
      expect.objectContaining({
        reason: 'Maladie ou invalidité grave',
        explanation: REQUEST.explanation,
        decision: 'refusée',
        refusalReason: 'Aucun justificatif médical n’a été fourni.',
      }),
    ]);
    expect((await member.agent.post('/api/v1/user/erase', { email: member.email })).status).toBe(200);
    const [kept] = await product.database.db.select().from(contractTerminations).where(eq(contractTerminations.memberId, member.id));
    expect(kept).toMatchObject({
      reason: 'maladie-invalidite',
      decision: 'refused',
      explanation: 'Effacé à la demande du membre',
    });
    expect(kept?.refusalReason).toBe('Effacé');
  });
});
