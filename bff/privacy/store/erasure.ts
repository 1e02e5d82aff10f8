// What a member's erasure reads, keeps (`legal_records`), scrubs or deletes in every table, and its log (`erasure_log`).
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contractCopies, erasureLog, legalRecords } from '#bff/db/privacy-schema.ts';
import { checkoutSessions, members } from '#bff/db/schema.ts';
import { guardianMailsOfMember } from '#bff/introductions/store/guardians.ts';
import { affectedRows as count } from '#bff/privacy/store/affected-rows.ts';

/** The member's row, locked. */
export async function lockMember(tx: Transaction, memberId: string) {
  const [row] = await tx.select().from(members).where(eq(members.id, memberId)).for('update');
  return row;
}

/** The stored copies of the member's signed contracts. */
export function contractCopiesToKeep(tx: Transaction, memberId: string) {
  return tx.select().from(contractCopies).where(eq(contractCopies.memberId, memberId));
}

/** The member's checkout sessions. */
export function checkoutSessionsOf(tx: Transaction, memberId: string) {
  return tx.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, memberId));
}

/** Keeps a record the agency must hold after the erasure. */
export async function insertLegalRecord(tx: Transaction, row: typeof legalRecords.$inferInsert): Promise<void> {
  await tx.insert(legalRecords).values(row);
}

async function tableExists(tx: Transaction, name: string): Promise<boolean> {
  const result = (await tx.execute(sql`SELECT to_regclass(${name}) IS NOT NULL AS present`)) as unknown as { rows: { present: boolean }[] };
  return result.rows[0]?.present === true;
}

/**
 * Scrubs the member (id, lower-case `email`, the ids of their checkout sessions) from the stored
 * contract copies, payments, invoices, terminations, webhook payloads, meetings, staff's messages
 * and follow-up, candidate lists, photos, presentation and change requests; counts by table.
 */
export async function scrubMemberRows(
  tx: Transaction,
  input: { memberId: string; email: string; sessionIds: readonly string[]; now: Date },
): Promise<Record<string, number>> {
  const { memberId, email, now } = input;
  const summary: Record<string, number> = {};
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
  const csids = input.sessionIds;
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
  return summary;
}

/** Deletes the member's guardian and the guardian's mails (`guardianMails`, a condition on `mail_outbox`); counts by table. */
export async function deleteGuardian(tx: Transaction, memberId: string): Promise<{ member_guardians: number; guardian_mails: number }> {
  const guardianMails = guardianMailsOfMember(memberId);
  return {
    member_guardians: await count(tx, sql`DELETE FROM member_guardians WHERE member_id = ${memberId} RETURNING 1`),
    guardian_mails: await count(tx, sql`DELETE FROM mail_outbox WHERE ${guardianMails} RETURNING 1`),
  };
}

/**
 * Unlinks the member's consents (theirs and their pre-registrations') under `anonymousId`; counts
 * the records.
 */
export function anonymiseConsents(tx: Transaction, memberId: string, email: string, anonymousId: string): Promise<number> {
  return count(
    tx,
    sql`UPDATE consents SET member_id = NULL, anonymous_id = ${anonymousId}
          WHERE member_id = ${memberId}
             OR anonymous_id IN (SELECT id FROM pre_subscriptions WHERE lower(email) = ${email} OR member_id = ${memberId}) RETURNING 1`,
  );
}

/** Deletes the pre-registrations made with the address or linked to the account; counts them. */
export function deletePreSubscriptions(tx: Transaction, memberId: string, email: string): Promise<number> {
  return count(tx, sql`DELETE FROM pre_subscriptions WHERE lower(email) = ${email} OR member_id = ${memberId} RETURNING 1`);
}

/** Replaces the payloads of the member's onboarding events, through the trigger's audited exception (0006); counts them. */
export async function scrubOnboardingEvents(tx: Transaction, memberId: string): Promise<number> {
  await tx.execute(sql`SELECT set_config('app.erasure_member', ${memberId}, true)`);
  const scrubbed = await count(
    tx,
    sql`UPDATE onboarding_events SET payload = jsonb_build_object('erased', true, 'context', context)
          WHERE member_id = ${memberId} RETURNING 1`,
  );
  await tx.execute(sql`SELECT set_config('app.erasure_member', '', true)`);
  return scrubbed;
}

/** Writes the member's anonymised row. */
export async function updateErasedMember(tx: Transaction, memberId: string, set: Partial<typeof members.$inferInsert>): Promise<void> {
  await tx.update(members).set(set).where(eq(members.id, memberId));
}

/** Logs the erasure. */
export async function insertErasureLog(tx: Transaction, row: typeof erasureLog.$inferInsert): Promise<void> {
  await tx.insert(erasureLog).values(row);
}

/** Notes in the erasure log that the auth user is deleted. */
export async function markAuthUserDeletedInLog(db: Db, memberId: string): Promise<void> {
  await db.execute(
    sql`UPDATE erasure_log SET summary = summary || '{"authUser": 1}'::jsonb WHERE member_id = ${memberId} AND (summary->>'authUser') = '0'`,
  );
}

/** Erased members whose auth user is not deleted yet. */
export async function erasedWithAuthUser(db: Db): Promise<string[]> {
  const result = (await db.execute(sql`SELECT DISTINCT member_id FROM erasure_log WHERE (summary->>'authUser') = '0'`)) as unknown as {
    rows: { member_id: string }[];
  };
  return result.rows.map((r) => r.member_id);
}
