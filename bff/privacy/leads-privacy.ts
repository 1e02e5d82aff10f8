import { randomUUID } from 'node:crypto';
import type { Db, Transaction } from '#bff/db/database.ts';
import {
  addressHasAccount,
  contactMessagesFrom,
  deleteAddressTraces,
  deleteLeadsOf,
  deleteProspectPreSubscriptions,
  leadFollowUpRows,
} from '#bff/privacy/store/leads.ts';
import { type LeadStatus, leadStatusLabels } from '#machines/leads/labels.ts';

/**
 * The leads inbox (decision 112) and the rights of the people in it: a member's leads in their
 * export and their erasure (decision 155), the messages they sent through the contact form with
 * their address and staff's follow-up (status, follow-up date, notes) of those messages and of
 * their pre-registrations, staff not named as in `staffFollowUp`; and the erasure of a prospect
 * without an account, run by staff (decision 157).
 */

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
  const { followUps, notes, answers } = await leadFollowUpRows(db, ids);
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
  const rows = await contactMessagesFrom(db, email);
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
  return deleteLeadsOf(tx, memberId, email);
}

/**
 * What else holds an address, in an erasure's transaction: mails to or about it (the outbox and
 * the local mailbox), rate-limit buckets keyed by it, the embedded auth service's mail timestamps.
 * Shared by a member's erasure and a prospect's.
 */
export async function eraseAddressTraces(tx: Transaction, email: string): Promise<Record<string, number>> {
  return deleteAddressTraces(tx, email.toLowerCase());
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
    if (await addressHasAccount(tx, address)) return { refused: 'has_account' as const };
    const erased = await eraseLeads(tx, null, address);
    Object.assign(erased, await deleteProspectPreSubscriptions(tx, address, randomUUID()));
    Object.assign(erased, await eraseAddressTraces(tx, address));
    return { erased };
  });
}
