import { asc, inArray, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { contactMessages, leadFollowUps, leadNotes } from '#bff/db/leads-schema.ts';
import { type LeadStatus, leadStatusLabels } from '#machines/leads/labels.ts';

/**
 * A member's leads (decision 112) in their export and their erasure (decision 155): the messages
 * they sent through the contact form with their address, and staff's follow-up (status, follow-up
 * date, notes) of those messages and of their pre-registrations. Like `staffFollowUp`, the staff
 * members are not named.
 */

/** The leads of a member: pre-registrations with their address or linked by the sign-up link, contact messages with their address. */
function leadIds(memberId: string, email: string) {
  return sql`(SELECT id FROM pre_subscriptions WHERE lower(email) = lower(${email}) OR member_id = ${memberId}
              UNION ALL SELECT id FROM contact_messages WHERE lower(email) = lower(${email}))`;
}

export interface LeadFollowUpExport {
  status: string;
  followUpOn: string | null;
  notes: { text: string; writtenAt: string; by: string }[];
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
  const [followUps, notes] = await Promise.all([
    db
      .select()
      .from(leadFollowUps)
      .where(inArray(leadFollowUps.leadId, [...ids])),
    db
      .select()
      .from(leadNotes)
      .where(inArray(leadNotes.leadId, [...ids]))
      .orderBy(asc(leadNotes.id)),
  ]);
  const entry = (id: string) => {
    let found = byLead.get(id);
    if (!found) {
      found = { status: leadStatusLabels.nouveau, followUpOn: null, notes: [] };
      byLead.set(id, found);
    }
    return found;
  };
  for (const f of followUps) {
    Object.assign(entry(f.leadId), { status: leadStatusLabels[f.status as LeadStatus] ?? f.status, followUpOn: f.followUpOn });
  }
  for (const n of notes) entry(n.leadId).notes.push({ text: n.body, writtenAt: n.createdAt.toISOString(), by: 'l’équipe' });
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
 * In the erasure's transaction, before the pre-registrations go: staff's follow-up, notes and
 * history of every lead of the member, then their contact messages. Nothing of them is kept.
 */
export async function eraseLeads(tx: Transaction, memberId: string, email: string): Promise<Record<string, number>> {
  const count = async (query: ReturnType<typeof sql>) => ((await tx.execute(query)) as unknown as { rows: unknown[] }).rows.length;
  const ids = leadIds(memberId, email);
  return {
    lead_follow_ups: await count(sql`DELETE FROM lead_follow_ups WHERE lead_id IN ${ids} RETURNING 1`),
    lead_notes: await count(sql`DELETE FROM lead_notes WHERE lead_id IN ${ids} RETURNING 1`),
    lead_events: await count(sql`DELETE FROM lead_events WHERE lead_id IN ${ids} RETURNING 1`),
    contact_messages: await count(sql`DELETE FROM contact_messages WHERE lower(email) = lower(${email}) RETURNING 1`),
  };
}
