import {
  type AnswerDelivery,
  answerDeliveryLabels,
  type LeadField,
  type LeadKind,
  leadFieldLabels,
  leadKindLabels,
  type LeadStatus,
  leadStatusLabels,
} from '#machines/leads/labels.ts';
import { formatDay } from '#src/features/dashboard/format-fr.ts';

/** What the leads page shows of stored codes and history rows (decision 108: never a bare code). */

export const kindLabel = (kind: string) => leadKindLabels[kind as LeadKind] ?? 'Autre';
export const statusLabel = (status: string) => leadStatusLabels[status as LeadStatus] ?? 'Inconnu';

/** '2026-12-03' → '3 déc. 2026'; null → '—'. A calendar day, read at noon UTC so no time zone moves it. */
export function formatFollowUp(day: string | null): string {
  return day ? formatDay(`${day}T12:00:00Z`) : '—';
}

/** Is the follow-up date today or past (in the agency's time zone)? */
export function followUpDue(day: string | null, now: Date): boolean {
  if (!day) return false;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(now);
  return day <= today;
}

/** One history row as a French sentence: « Samira a changé le statut : Nouveau → Contacté ». */
export function historyLine(event: {
  field: string;
  actor: string;
  from: string | null;
  to: string | null;
  fromName: string | null;
  toName: string | null;
}): string {
  const verb = leadFieldLabels[event.field as LeadField] ?? 'a modifié le prospect';
  const sentence = `${event.actor} ${verb}`;
  switch (event.field) {
    case 'status':
      return `${sentence} : ${event.from ? statusLabel(event.from) : '—'} → ${event.to ? statusLabel(event.to) : '—'}`;
    case 'assignee':
      return `${sentence} : ${event.fromName ?? 'personne'} → ${event.toName ?? 'personne'}`;
    case 'answer':
      return event.to ? `${sentence} : « ${event.to} »` : sentence;
    case 'follow_up':
      return `${sentence} : ${event.from ? formatFollowUp(event.from) : 'aucune'} → ${event.to ? formatFollowUp(event.to) : 'aucune'}`;
    default:
      return sentence;
  }
}

/** Who the lead is, for the table and the dialog's title: name and address, or the address alone. */
export function leadTitle(lead: { name: string | null; email: string }): string {
  return lead.name ? `${lead.name} (${lead.email})` : lead.email;
}

/** Where an answer's mail stands, in words (never the outbox's code). */
export const deliveryLabel = (delivery: string) => answerDeliveryLabels[delivery as AnswerDelivery] ?? 'Inconnu';

/** The badge's colour for an answer's mail: sent, on its way, or not sent. */
export function deliveryTone(delivery: string): 'success' | 'warning' | 'danger' | 'neutral' {
  if (delivery === 'sent') return 'success';
  if (delivery === 'pending' || delivery === 'retrying') return 'warning';
  return delivery === 'failed' || delivery === 'dropped' ? 'danger' : 'neutral';
}
