import { stageColumns } from '#bff/members/stage.ts';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { adminClient, type AuthConnection } from '#bff/auth/supabase.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contractCopies, erasureLog, legalRecords, memberPrivacy } from '#bff/db/privacy-schema.ts';
import { checkoutSessions, members } from '#bff/db/schema.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
import { guardianMailsOfMember } from '#bff/introductions/guardian.ts';
import { endIntroductionsOf } from '#bff/introductions/introductions.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import { recordOf } from '#bff/members/members.ts';
import { eraseAddressTraces, eraseLeads } from '#bff/privacy/leads-privacy.ts';
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

async function count(tx: Transaction, query: ReturnType<typeof sql>): Promise<number> {
  const result = (await tx.execute(query)) as unknown as { rows: unknown[] };
  return result.rows.length;
}

async function tableExists(tx: Transaction, name: string): Promise<boolean> {
  const result = (await tx.execute(sql`SELECT to_regclass(${name}) IS NOT NULL AS present`)) as unknown as { rows: { present: boolean }[] };
  return result.rows[0]?.present === true;
}

/** The database part of the erasure (one transaction). Returns null when there is nothing to erase. */
export async function eraseMemberData(
  db: Db,
  memberId: string,
  options: { now: Date; requestedBy: 'member' | 'staff' | 'retention' },
): Promise<ErasureSummary | null> {
  const { now } = options;
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(members).where(eq(members.id, memberId)).for('update');
    const [privacy] = await tx.select().from(memberPrivacy).where(eq(memberPrivacy.id, memberId));
    if (row?.role !== 'member' || privacy?.erasedAt) return null;
    const email = row.email.toLowerCase();
    const summary: ErasureSummary = {};

    // 1. What the agency must keep: signed contracts and payments, minimal, with their legal basis.
    const copies = await tx.select().from(contractCopies).where(eq(contractCopies.memberId, memberId));
    for (const copy of copies) {
      await tx.insert(legalRecords).values({
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
    const payments = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, memberId));
    for (const payment of payments.filter((p) => p.paymentStatus === 'paid' || p.paymentStatus === 'no_payment_required')) {
      await tx.insert(legalRecords).values({
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
    summary.contract_copies = await count(tx, sql`DELETE FROM contract_copies WHERE member_id = ${memberId} RETURNING 1`);

    // 2. Payments: the sessions stay (they prove which steps were paid) without the address.
    summary.checkout_sessions = await count(
      tx,
      sql`UPDATE checkout_sessions SET customer_email = NULL, updated_at = ${now}
          WHERE member_id = ${memberId} OR lower(customer_email) = ${email} RETURNING 1`,
    );
    // Invoices (decision 110): accounting documents, kept with their numbers (no gap) and their PDF
    // for 10 years (L123-22); the searchable copy of the name is dropped.
    summary.invoices = await count(tx, sql`UPDATE invoices SET customer_name = 'Membre effacé' WHERE member_id = ${memberId} RETURNING 1`);
    // Terminations (decision 119): the dates, reason and decision stay with the refunds they justify;
    // the member's own words (which may tell of health, art. 9) and the staff's reply go. The proof,
    // a file (decision 189), stays with its request, restricted and logged, until the retention job
    // deletes it 5 years after the contract's end (art. 17(3)(e) GDPR: the decision may be disputed).
    summary.contract_terminations = await count(
      tx,
      sql`UPDATE contract_terminations SET explanation = 'Effacé à la demande du membre',
            refusal_reason = CASE WHEN refusal_reason IS NULL THEN NULL ELSE 'Effacé' END
          WHERE member_id = ${memberId} RETURNING 1`,
    );
    // Webhook payloads (Stripe customer details, Calendly invitee): emptied, ids kept for de-duplication.
    const csids = payments.map((p) => p.id);
    summary.webhook_events = await count(
      tx,
      sql`UPDATE webhook_events SET payload = jsonb_build_object('erased', true)
          WHERE NOT (payload ? 'erased') AND (
            position(${email} in lower(payload::text)) > 0 OR position(${memberId} in payload::text) > 0
            ${
              csids.length > 0
                ? sql`OR payload #>> '{data,object,id}' IN (${sql.join(
                    csids.map((id) => sql`${id}`),
                    sql`, `,
                  )})`
                : sql``
            }
          ) RETURNING 1`,
    );

    // 3. Meetings: times and status stay (the agency's agenda), not who.
    summary.bookings = await count(
      tx,
      sql`UPDATE bookings SET invitee_email = NULL, invitee_name = NULL, cancel_url = NULL, reschedule_url = NULL, updated_at = ${now}
          WHERE member_id = ${memberId} OR lower(invitee_email) = ${email} RETURNING 1`,
    );

    // 4. Messages from staff: their text goes; their dates stay.
    if (await tableExists(tx, 'direct_messages')) {
      summary.direct_messages = await count(
        tx,
        sql`UPDATE direct_messages SET subject = '[message effacé]', body = '[message effacé]' WHERE member_id = ${memberId} RETURNING 1`,
      );
    }

    // 4a. Staff's follow-up (decision 124): internal notes, tags and counsellor go.
    summary.member_notes = await count(tx, sql`DELETE FROM member_notes WHERE member_id = ${memberId} RETURNING 1`);
    summary.member_tags = await count(tx, sql`DELETE FROM member_tags WHERE member_id = ${memberId} RETURNING 1`);
    summary.member_counsellors = await count(tx, sql`DELETE FROM member_counsellors WHERE member_id = ${memberId} RETURNING 1`);
    // Staff's candidate lists (decision 201): the member's shortlist, their place on others', and
    // the « never propose » pairs that name them (with staff's reason) go.
    summary.member_shortlists = await count(
      tx,
      sql`DELETE FROM member_shortlists WHERE member_id = ${memberId} OR candidate_id = ${memberId} RETURNING 1`,
    );
    summary.never_propose_pairs = await count(
      tx,
      sql`DELETE FROM never_propose_pairs WHERE member_low = ${memberId} OR member_high = ${memberId} RETURNING 1`,
    );

    // 4b. Photos (decision 116): deleted, bytes and thumbnails alike; nothing of them is kept.
    summary.member_photos = await count(tx, sql`DELETE FROM member_photos WHERE member_id = ${memberId} RETURNING 1`);
    // The short presentation (decision 128): free text written by the member, it goes.
    summary.member_presentations = await count(tx, sql`DELETE FROM member_presentations WHERE member_id = ${memberId} RETURNING 1`);
    // Change requests of « Mon profil » (decision 123): the answers they carry go too.
    summary.member_change_requests = await count(tx, sql`DELETE FROM member_change_requests WHERE member_id = ${memberId} RETURNING 1`);

    // 4b. Introductions (decision 117): the guardian goes, with every guardian's mail about one of
    // this member's introductions; each introduction stays for the other side and as the agency's
    // proof of consents (L224-93), without this member's free text (their comments, the agency's
    // note to them). Views show the other side nothing of an erased member (`otherPerson`).
    // They end first, as the agency's event (decision 194): nothing is shared from now on, and the
    // scrub below reads the rows as they were ended.
    summary.introductions_ended = await endIntroductionsOf(tx, memberId, 'compte-efface', now);
    summary.member_guardians = await count(tx, sql`DELETE FROM member_guardians WHERE member_id = ${memberId} RETURNING 1`);
    summary.guardian_mails = await count(tx, sql`DELETE FROM mail_outbox WHERE ${guardianMailsOfMember(memberId)} RETURNING 1`);
    const pairs = await tx
      .select()
      .from(introductions)
      .where(sql`${introductions.memberA} = ${memberId}::uuid OR ${introductions.memberB} = ${memberId}::uuid`)
      .for('update');
    for (const pair of pairs) {
      const side = pair.memberA.toLowerCase() === memberId.toLowerCase() ? 'a' : 'b';
      const context = structuredClone(pair.context) as IntroductionContext;
      context.answers[side].comment = null;
      for (const round of context.history) round.answers[side].comment = null;
      await tx
        .update(introductions)
        .set({ context, ...(side === 'a' ? { noteA: null } : { noteB: null }), updatedAt: now })
        .where(eq(introductions.id, pair.id));
    }
    summary.introductions = pairs.length;

    // 5. Mail logs and the local mailbox (every mail to or about this address), rate-limit buckets
    // keyed by it, and the embedded auth service's mail timestamps.
    Object.assign(summary, await eraseAddressTraces(tx, email));

    // 6. Consents: kept as anonymous proofs (one fresh random id), unlinked from the member;
    // pre-registrations made with this address are deleted.
    const anonymousId = randomUUID();
    summary.consents = await count(
      tx,
      sql`UPDATE consents SET member_id = NULL, anonymous_id = ${anonymousId}
          WHERE member_id = ${memberId}
             OR anonymous_id IN (SELECT id FROM pre_subscriptions WHERE lower(email) = ${email} OR member_id = ${memberId}) RETURNING 1`,
    );
    // The leads inbox (decision 155): staff's follow-up of her pre-registrations and contact
    // messages, then those messages; before the pre-registrations, which name the leads.
    Object.assign(summary, await eraseLeads(tx, memberId, email));
    // Also the one linked to the account by its sign-up link (decision 127), whatever its address.
    summary.pre_subscriptions = await count(
      tx,
      sql`DELETE FROM pre_subscriptions WHERE lower(email) = ${email} OR member_id = ${memberId} RETURNING 1`,
    );

    // 7. The event log: payloads replaced through the trigger's audited exception (0006).
    await tx.execute(sql`SELECT set_config('app.erasure_member', ${memberId}, true)`);
    summary.onboarding_events = await count(
      tx,
      sql`UPDATE onboarding_events SET payload = jsonb_build_object('erased', true, 'context', context)
          WHERE member_id = ${memberId} RETURNING 1`,
    );
    await tx.execute(sql`SELECT set_config('app.erasure_member', '', true)`);

    // 8. The member row: kept (its id links the legal records), anonymised, disabled.
    const anonymous = erasedEmail(memberId);
    const record = { ...recordOf(row), email: anonymous, disabled: true };
    await tx
      .update(members)
      .set({
        email: anonymous,
        onboarding: record,
        profile: null,
        questionnaire: null,
        contract: null,
        disabled: true,
        version: row.version + 1,
        updatedAt: now,
        ...stageColumns(record, row.version + 1),
      })
      .where(eq(members.id, memberId));
    await tx.update(memberPrivacy).set({ erasedAt: now, matchmakingPausedAt: now }).where(eq(memberPrivacy.id, memberId));
    summary.members = 1;

    await tx
      .insert(erasureLog)
      .values({ memberId, requestedBy: options.requestedBy, summary: { ...summary, authUser: 0 }, createdAt: now });
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
  await db.execute(
    sql`UPDATE erasure_log SET summary = summary || '{"authUser": 1}'::jsonb WHERE member_id = ${memberId} AND (summary->>'authUser') = '0'`,
  );
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
  const result = (await db.execute(sql`SELECT DISTINCT member_id FROM erasure_log WHERE (summary->>'authUser') = '0'`)) as unknown as {
    rows: { member_id: string }[];
  };
  return result.rows.map((r) => r.member_id);
}
