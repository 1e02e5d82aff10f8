// The leads of a person (their follow-up, notes, answers, contact messages) as read for an export and deleted by an erasure, and the traces of an address.
import { asc, inArray, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contactMessages, leadAnswers, leadFollowUps, leadNotes } from '#bff/db/leads-schema.ts';
import { affectedRows } from '#bff/privacy/store/affected-rows.ts';

/**
 * The leads of a person: pre-registrations with their address or linked by the sign-up link to
 * their account (`memberId`, null for someone without one), contact messages with their address.
 */
function leadIds(memberId: string | null, email: string) {
  return sql`(SELECT id FROM pre_subscriptions WHERE lower(email) = lower(${email}) OR member_id = ${memberId}
              UNION ALL SELECT id FROM contact_messages WHERE lower(email) = lower(${email}))`;
}

/** The follow-up rows, notes and answers (oldest first) of these leads, read at once. */
export async function leadFollowUpRows(db: Db, ids: readonly string[]) {
  const [followUps, notes, answers] = await Promise.all([
    db
      .select()
      .from(leadFollowUps)
      .where(inArray(leadFollowUps.leadId, [...ids])),
    db
      .select()
      .from(leadNotes)
      .where(inArray(leadNotes.leadId, [...ids]))
      .orderBy(asc(leadNotes.id)),
    db
      .select()
      .from(leadAnswers)
      .where(inArray(leadAnswers.leadId, [...ids]))
      .orderBy(asc(leadAnswers.id)),
  ]);
  return { followUps, notes, answers };
}

/** The contact form's messages sent with this address, oldest first. */
export function contactMessagesFrom(db: Db, email: string) {
  return db
    .select()
    .from(contactMessages)
    .where(sql`lower(${contactMessages.email}) = lower(${email})`)
    .orderBy(asc(contactMessages.createdAt));
}

/** Deletes the follow-up, notes, history and answers of every lead of the person, then their contact messages; counts by table. */
export async function deleteLeadsOf(tx: Transaction, memberId: string | null, email: string): Promise<Record<string, number>> {
  const ids = leadIds(memberId, email);
  return {
    lead_follow_ups: await affectedRows(tx, sql`DELETE FROM lead_follow_ups WHERE lead_id IN ${ids} RETURNING 1`),
    lead_notes: await affectedRows(tx, sql`DELETE FROM lead_notes WHERE lead_id IN ${ids} RETURNING 1`),
    lead_events: await affectedRows(tx, sql`DELETE FROM lead_events WHERE lead_id IN ${ids} RETURNING 1`),
    lead_answers: await affectedRows(tx, sql`DELETE FROM lead_answers WHERE lead_id IN ${ids} RETURNING 1`),
    contact_messages: await affectedRows(tx, sql`DELETE FROM contact_messages WHERE lower(email) = lower(${email}) RETURNING 1`),
  };
}

/**
 * Deletes what else holds an address (lower case): mails to or about it (the outbox and the local
 * mailbox), rate-limit buckets keyed by it, the embedded auth service's mail timestamps (when that
 * service's tables are there); counts by table.
 */
export async function deleteAddressTraces(tx: Transaction, address: string): Promise<Record<string, number>> {
  const summary: Record<string, number> = {
    mail_outbox: await affectedRows(
      tx,
      sql`DELETE FROM mail_outbox WHERE lower(to_address) = ${address}
          OR position(${address} in lower(subject || ' ' || text_body || ' ' || coalesce(html_body, ''))) > 0 RETURNING 1`,
    ),
    mailbox: await affectedRows(
      tx,
      sql`DELETE FROM mailbox WHERE lower(to_address) = ${address} OR lower(from_address) = ${address}
          OR position(${address} in lower(raw)) > 0 RETURNING 1`,
    ),
    rate_limits: await affectedRows(tx, sql`DELETE FROM rate_limits WHERE position(${address} in lower(key)) > 0 RETURNING 1`),
  };
  const authTable = (await tx.execute(sql`SELECT to_regclass('embedded_auth.mail_requests') IS NOT NULL AS present`)) as unknown as {
    rows: { present: boolean }[];
  };
  if (authTable.rows[0]?.present) {
    summary.mail_requests = await affectedRows(
      tx,
      sql`DELETE FROM embedded_auth.mail_requests WHERE lower(address) = ${address} RETURNING 1`,
    );
  }
  return summary;
}

/** Whether the address (lower case) has an account, or a pre-registration of it is linked to one. */
export async function addressHasAccount(tx: Transaction, address: string): Promise<boolean> {
  const linked = (await tx.execute(
    sql`SELECT 1 FROM members WHERE lower(email) = ${address}
          UNION ALL SELECT 1 FROM pre_subscriptions WHERE lower(email) = ${address} AND member_id IS NOT NULL LIMIT 1`,
  )) as unknown as { rows: unknown[] };
  return linked.rows.length > 0;
}

/**
 * Deletes the pre-registrations of an address without an account, their consent proofs kept under
 * `anonymousId`, unlinked; counts by table.
 */
export async function deleteProspectPreSubscriptions(
  tx: Transaction,
  address: string,
  anonymousId: string,
): Promise<{ consents: number; pre_subscriptions: number }> {
  return {
    consents: await affectedRows(
      tx,
      sql`UPDATE consents SET anonymous_id = ${anonymousId}
          WHERE member_id IS NULL AND anonymous_id IN (SELECT id FROM pre_subscriptions WHERE lower(email) = ${address}) RETURNING 1`,
    ),
    pre_subscriptions: await affectedRows(tx, sql`DELETE FROM pre_subscriptions WHERE lower(email) = ${address} RETURNING 1`),
  };
}
