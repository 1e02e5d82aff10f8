import { randomUUID } from 'node:crypto';
import { asc, inArray, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contactMessages, leadAnswers, leadFollowUps, leadNotes } from '#bff/db/leads-schema.ts';
import { type LeadStatus, leadStatusLabels } from '#machines/leads/labels.ts';

/**
 * The leads inbox (decision 112) and the rights of the people in it: a member's leads in their
 * export and their erasure (decision 155), the messages they sent through the contact form with
 * their address and staff's follow-up (status, follow-up date, notes) of those messages and of
 * their pre-registrations, staff not named as in `staffFollowUp`; and the erasure of a prospect
 * without an account, run by staff (decision 157).
 */

/**
 * The leads of a person: pre-registrations with their address or linked by the sign-up link to
 * their account (`memberId`, null for someone without one), contact messages with their address.
 */
function leadIds(memberId: string | null, email: string) {
  return sql`(SELECT id FROM pre_subscriptions WHERE lower(email) = lower(${email}) OR member_id = ${memberId}
              UNION ALL SELECT id FROM contact_messages WHERE lower(email) = lower(${email}))`;
}

export interface LeadFollowUpExport {
  status: string;
  followUpOn: string | null;
  notes: { text: string; writtenAt: string; by: string }[];
  /** The answers the agency mailed to the person from the inbox (decision 211). */
  answers: { subject: string; text: string; sentAt: string }[];
}

/**
 * Staff's follow-up of each lead, by lead id; a lead nobody touched has none. The member's own
 * pre-registrations are `converted`: their status is « Converti », as the leads inbox shows it
 * for every pre-registration that became an account, whatever was stored before.
 */
export async function leadFollowUpsForExport(
  db: Db,
  ids: readonly string[],
  options: { converted: boolean },
): Promise<Map<string, LeadFollowUpExport>> {
  const byLead = new Map<string, LeadFollowUpExport>();
  if (ids.length === 0) return byLead;
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
  const entry = (id: string) => {
    let found = byLead.get(id);
    if (!found) {
      found = { status: leadStatusLabels.nouveau, followUpOn: null, notes: [], answers: [] };
      byLead.set(id, found);
    }
    return found;
  };
  for (const f of followUps) {
    Object.assign(entry(f.leadId), { status: leadStatusLabels[f.status as LeadStatus] ?? f.status, followUpOn: f.followUpOn });
  }
  for (const n of notes) entry(n.leadId).notes.push({ text: n.body, writtenAt: n.createdAt.toISOString(), by: 'l’équipe' });
  for (const a of answers) entry(a.leadId).answers.push({ subject: a.subject, text: a.body, sentAt: a.createdAt.toISOString() });
  if (options.converted) for (const id of ids) entry(id).status = leadStatusLabels.converti;
  return byLead;
}

/** The contact form's messages sent with this address, oldest first, each with staff's follow-up. */
export async function contactMessagesForExport(db: Db, email: string) {
  const rows = await db
    .select()
    .from(contactMessages)
    .where(sql`lower(${contactMessages.email}) = lower(${email})`)
    .orderBy(asc(contactMessages.createdAt));
  const followUps = await leadFollowUpsForExport(
    db,
    rows.map((r) => r.id),
    { converted: false },
  );
  return rows.map((r) => ({
    name: r.name,
    email: r.email,
    subject: r.subject,
    message: r.message,
    sentAt: r.createdAt.toISOString(),
    followUp: followUps.get(r.id) ?? null,
  }));
}

/**
 * In the erasure's transaction, before the pre-registrations go: staff's follow-up, notes,
 * history and answers of every lead of the member, then their contact messages. Nothing of them is kept.
 */
export async function eraseLeads(tx: Transaction, memberId: string | null, email: string): Promise<Record<string, number>> {
  const count = counter(tx);
  const ids = leadIds(memberId, email);
  return {
    lead_follow_ups: await count(sql`DELETE FROM lead_follow_ups WHERE lead_id IN ${ids} RETURNING 1`),
    lead_notes: await count(sql`DELETE FROM lead_notes WHERE lead_id IN ${ids} RETURNING 1`),
    lead_events: await count(sql`DELETE FROM lead_events WHERE lead_id IN ${ids} RETURNING 1`),
    lead_answers: await count(sql`DELETE FROM lead_answers WHERE lead_id IN ${ids} RETURNING 1`),
    contact_messages: await count(sql`DELETE FROM contact_messages WHERE lower(email) = lower(${email}) RETURNING 1`),
  };
}

function counter(tx: Transaction) {
  return async (query: ReturnType<typeof sql>) => ((await tx.execute(query)) as unknown as { rows: unknown[] }).rows.length;
}

/**
 * What else holds an address, in an erasure's transaction: mails to or about it (the outbox and
 * the local mailbox), rate-limit buckets keyed by it, the embedded auth service's mail timestamps.
 * Shared by a member's erasure and a prospect's.
 */
export async function eraseAddressTraces(tx: Transaction, email: string): Promise<Record<string, number>> {
  const count = counter(tx);
  const address = email.toLowerCase();
  const summary: Record<string, number> = {
    mail_outbox: await count(
      sql`DELETE FROM mail_outbox WHERE lower(to_address) = ${address}
          OR position(${address} in lower(subject || ' ' || text_body || ' ' || coalesce(html_body, ''))) > 0 RETURNING 1`,
    ),
    mailbox: await count(
      sql`DELETE FROM mailbox WHERE lower(to_address) = ${address} OR lower(from_address) = ${address}
          OR position(${address} in lower(raw)) > 0 RETURNING 1`,
    ),
    rate_limits: await count(sql`DELETE FROM rate_limits WHERE position(${address} in lower(key)) > 0 RETURNING 1`),
  };
  const authTable = (await tx.execute(sql`SELECT to_regclass('embedded_auth.mail_requests') IS NOT NULL AS present`)) as unknown as {
    rows: { present: boolean }[];
  };
  if (authTable.rows[0]?.present) {
    summary.mail_requests = await count(sql`DELETE FROM embedded_auth.mail_requests WHERE lower(address) = ${address} RETURNING 1`);
  }
  return summary;
}

/** Why a prospect's erasure is refused: the address has an account, whose erasure covers it. */
export type ProspectErasure = { erased: Record<string, number> } | { refused: 'has_account' };

/**
 * Erasure of someone who pre-registered or wrote through the contact form but has no account
 * (GDPR art. 17, decision 157), run by staff from the leads inbox: in one transaction, every lead
 * of the address with staff's follow-up, notes and history, the pre-registrations (their consent
 * proofs kept, unlinked, under a fresh random id, as a member's erasure keeps them), and the
 * address's traces. Refused when the address has an account or a pre-registration of it is linked
 * to one: the member's own erasure covers those.
 */
export async function eraseProspect(db: Db, email: string): Promise<ProspectErasure> {
  const address = email.toLowerCase();
  return db.transaction(async (tx) => {
    const linked = (await tx.execute(
      sql`SELECT 1 FROM members WHERE lower(email) = ${address}
          UNION ALL SELECT 1 FROM pre_subscriptions WHERE lower(email) = ${address} AND member_id IS NOT NULL LIMIT 1`,
    )) as unknown as { rows: unknown[] };
    if (linked.rows.length > 0) return { refused: 'has_account' as const };
    const count = counter(tx);
    const erased = await eraseLeads(tx, null, address);
    erased.consents = await count(
      sql`UPDATE consents SET anonymous_id = ${randomUUID()}
          WHERE member_id IS NULL AND anonymous_id IN (SELECT id FROM pre_subscriptions WHERE lower(email) = ${address}) RETURNING 1`,
    );
    erased.pre_subscriptions = await count(sql`DELETE FROM pre_subscriptions WHERE lower(email) = ${address} RETURNING 1`);
    Object.assign(erased, await eraseAddressTraces(tx, address));
    return { erased };
  });
}
