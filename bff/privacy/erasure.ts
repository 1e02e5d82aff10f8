import { stageColumns } from '#bff/members/stage.ts';
import { randomUUID } from 'node:crypto';
import { adminClient, type AuthConnection } from '#bff/auth/supabase.ts';
import type { Db } from '#bff/db/database.ts';
import { endIntroductionsOf } from '#bff/introductions/introductions.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import { recordOf } from '#bff/members/members.ts';
import { eraseAddressTraces, eraseLeads } from '#bff/privacy/leads-privacy.ts';
import {
  anonymiseConsents,
  checkoutSessionsOf,
  contractCopiesToKeep,
  deleteGuardian,
  deletePreSubscriptions,
  erasedWithAuthUser,
  insertErasureLog,
  insertLegalRecord,
  lockMember,
  markAuthUserDeletedInLog,
  scrubMemberRows,
  scrubOnboardingEvents,
  updateErasedMember,
} from '#bff/privacy/store/erasure.ts';
import { lockIntroductionsOfMember, updateIntroduction } from '#bff/privacy/store/introductions.ts';
import { markErased, privacyOf } from '#bff/privacy/store/member-privacy.ts';
import { log } from '#bff/logger.ts';

/**
 * Erasure of a member's personal data (GDPR art. 17), decision 070.
 *
 * In one database transaction: what the agency must keep is copied, minimal, to `legal_records`
 * (the signed contract and each payment, Code de commerce L123-22: 10 years); every other table is
 * scrubbed of the member (anonymised or deleted); the onboarding event payloads are replaced
 * through the trigger's audited exception (`app.erasure_member`); an `erasure_log` row records it.
 * Then, outside the transaction, the auth user's sessions are ended and the user deleted.
 */

/** Legal basis stated on each kept record. */
const LEGAL_BASIS = {
  contract:
    'Contrat de courtage matrimonial et son annexe : preuve du contrat et des délais légaux (Code de la consommation L224‑90 à L224‑95 ; Code de commerce L123‑22 ; Code civil 2224), RGPD art. 6.1.c et 6.1.f. Conservé 10 ans, accès restreint.',
  payment:
    'Pièce comptable (paiement) : Code de commerce L123‑22 (conservation 10 ans des documents comptables et pièces justificatives), RGPD art. 6.1.c.',
} as const;

/** 10 years after the end of the financial year (taken as the calendar year) of the event. */
function retainUntil(occurredAt: Date): Date {
  return new Date(Date.UTC(occurredAt.getUTCFullYear() + 10, 11, 31, 23, 59, 59));
}

/** The address that replaces the member's: unique (the e-mail index), valid, never deliverable. */
function erasedEmail(memberId: string): string {
  return `efface-${memberId}@efface.invalid`;
}

export type ErasureSummary = Record<string, number>;

/** The database part of the erasure (one transaction). Returns null when there is nothing to erase. */
export async function eraseMemberData(
  db: Db,
  memberId: string,
  options: { now: Date; requestedBy: 'member' | 'staff' | 'retention' },
): Promise<ErasureSummary | null> {
  const { now } = options;
  return db.transaction(async (tx) => {
    const row = await lockMember(tx, memberId);
    const privacy = await privacyOf(tx, memberId);
    if (row?.role !== 'member' || privacy?.erasedAt) return null;
    const email = row.email.toLowerCase();
    const summary: ErasureSummary = {};

    // 1. What the agency must keep: signed contracts and payments, minimal, with their legal basis.
    const copies = await contractCopiesToKeep(tx, memberId);
    for (const copy of copies) {
      await insertLegalRecord(tx, {
        memberId,
        kind: 'contract',
        legalBasis: LEGAL_BASIS.contract,
        reference: copy.sha256,
        details: { signedAt: copy.signedAt.toISOString(), planId: recordOf(row).selectedPlanId },
        document: copy.pdf,
        occurredAt: copy.signedAt,
        retainUntil: retainUntil(copy.signedAt),
        createdAt: now,
      });
    }
    const payments = await checkoutSessionsOf(tx, memberId);
    for (const payment of payments.filter((p) => p.paymentStatus === 'paid' || p.paymentStatus === 'no_payment_required')) {
      await insertLegalRecord(tx, {
        memberId,
        kind: 'payment',
        legalBasis: LEGAL_BASIS.payment,
        reference: payment.id,
        details: {
          offerId: payment.offerId,
          amountTotal: payment.amountTotal,
          currency: payment.currency,
          paymentStatus: payment.paymentStatus,
          livemode: payment.livemode,
          paidAt: payment.createdAt.toISOString(),
        },
        occurredAt: payment.createdAt,
        retainUntil: retainUntil(payment.createdAt),
        createdAt: now,
      });
    }
    summary.legal_records = copies.length + payments.length;
    // The stored copies go (the legal records hold them), then 2. payments, 3. meetings, 4. staff's
    // messages, 4a. follow-up and candidate lists, 4b. photos, presentation and change requests:
    // what of each stays and what goes is told beside its statement.
    Object.assign(
      summary,
      await scrubMemberRows(tx, {
        memberId,
        email,
        sessionIds: payments.map((p) => p.id),
        now,
      }),
    );

    // 4b. Introductions (decision 117): the guardian goes, with every guardian's mail about one of
    // this member's introductions; each introduction stays for the other side and as the agency's
    // proof of consents (L224-93), without this member's free text (their comments, the agency's
    // note to them). Views show the other side nothing of an erased member (`otherPerson`).
    // They end first, as the agency's event (decision 194): nothing is shared from now on, and the
    // scrub below reads the rows as they were ended.
    summary.introductions_ended = await endIntroductionsOf(tx, memberId, 'compte-efface', now);
    Object.assign(summary, await deleteGuardian(tx, memberId));
    const pairs = await lockIntroductionsOfMember(tx, memberId);
    for (const pair of pairs) {
      const side = pair.memberA.toLowerCase() === memberId.toLowerCase() ? 'a' : 'b';
      const context = structuredClone(pair.context) as IntroductionContext;
      context.answers[side].comment = null;
      for (const round of context.history) round.answers[side].comment = null;
      await updateIntroduction(tx, pair.id, { context, ...(side === 'a' ? { noteA: null } : { noteB: null }), updatedAt: now });
    }
    summary.introductions = pairs.length;

    // 5. Mail logs and the local mailbox (every mail to or about this address), rate-limit buckets
    // keyed by it, and the embedded auth service's mail timestamps.
    Object.assign(summary, await eraseAddressTraces(tx, email));

    // 6. Consents: kept as anonymous proofs (one fresh random id), unlinked from the member;
    // pre-registrations made with this address are deleted.
    summary.consents = await anonymiseConsents(tx, memberId, email, randomUUID());
    // The leads inbox (decision 155): staff's follow-up of her pre-registrations and contact
    // messages, then those messages; before the pre-registrations, which name the leads.
    Object.assign(summary, await eraseLeads(tx, memberId, email));
    // Also the one linked to the account by its sign-up link (decision 127), whatever its address.
    summary.pre_subscriptions = await deletePreSubscriptions(tx, memberId, email);

    // 7. The event log: payloads replaced through the trigger's audited exception (0006).
    summary.onboarding_events = await scrubOnboardingEvents(tx, memberId);

    // 8. The member row: kept (its id links the legal records), anonymised, disabled.
    const anonymous = erasedEmail(memberId);
    const record = { ...recordOf(row), email: anonymous, disabled: true };
    await updateErasedMember(tx, memberId, {
      email: anonymous,
      onboarding: record,
      profile: null,
      questionnaire: null,
      contract: null,
      disabled: true,
      version: row.version + 1,
      updatedAt: now,
      ...stageColumns(record, row.version + 1),
    });
    await markErased(tx, memberId, now);
    summary.members = 1;

    await insertErasureLog(tx, { memberId, requestedBy: options.requestedBy, summary: { ...summary, authUser: 0 }, createdAt: now });
    return summary;
  });
}

/** Deletes the auth user (sessions, refresh tokens, factors go with it). True when gone. */
export async function deleteAuthUser(auth: AuthConnection, memberId: string): Promise<boolean> {
  const admin = adminClient(auth);
  const { error } = await admin.auth.admin.deleteUser(memberId);
  if (!error) return true;
  // Already gone is done.
  return error.status === 404;
}

/** Notes in the erasure log that the auth user is deleted. */
export async function markAuthUserDeleted(db: Db, memberId: string): Promise<void> {
  await markAuthUserDeletedInLog(db, memberId);
}

/** The whole erasure: database, then the auth user. Returns null when the member is unknown or already erased. */
export async function eraseMember(
  deps: { db: Db; auth: AuthConnection },
  memberId: string,
  options: { now: Date; requestedBy: 'member' | 'staff' | 'retention' },
): Promise<ErasureSummary | null> {
  const summary = await eraseMemberData(deps.db, memberId, options);
  if (!summary) return null;
  if (await deleteAuthUser(deps.auth, memberId)) {
    await markAuthUserDeleted(deps.db, memberId);
    summary.authUser = 1;
  } else {
    log.error('effacement : suppression du compte d’authentification à reprendre (tâche de conservation)', { memberId });
    summary.authUser = 0;
  }
  return summary;
}

/** Erased members whose auth user could not be deleted yet (retried by the retention job). */
export async function pendingAuthDeletions(db: Db): Promise<string[]> {
  return erasedWithAuthUser(db);
}
