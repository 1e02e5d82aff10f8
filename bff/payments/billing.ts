import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { customerNameOf } from '#bff/invoices/invoices.ts';
import { invoiceReferencesOf } from '#bff/invoices/store/invoices.ts';
import { memberInstalments } from '#bff/payments/instalment-schedules.ts';
import { type BillingKind, type BillingStatus, billingKinds, billingStatuses } from '#bff/payments/store/billing-lines.ts';
import { paidSessionsOf } from '#bff/payments/store/checkout-sessions.ts';
import { instalmentsOfMembers } from '#bff/payments/store/instalments.ts';
import { billedMembers } from '#bff/payments/store/members.ts';
import { refundsOfMembers } from '#bff/payments/store/refunds.ts';
import { billingKindLabels, billingStatusLabels, offerLabels } from '#machines/onboarding/labels.ts';
import { isPlanId, planById } from '#machines/onboarding/plans.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/**
 * The staff's billing view (decision 120): payments (checkout sessions that confirmed a step),
 * instalments (paid, failed, and those due or to come from each member's schedule), refunds, with
 * their invoice numbers — for one member, read and computed here (and the agency's, in SQL, in
 * agency-billing.ts, decisions 204 and 213). The same rows feed the JSON view and the CSV export.
 */

export interface BillingEntry {
  /** Unique within a list (a stable React key). */
  key: string;
  at: Date;
  kind: BillingKind;
  memberId: string;
  memberName: string;
  email: string;
  label: string;
  /** Negative for a refund. */
  amountCents: number;
  status: BillingStatus;
  invoiceNumber: string | null;
  /** An instalment taken outside the contract (after the last, a stop, the term's end): refunded at once (decision 175). */
  outsideContract: boolean;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const daySchema = v.pipe(
  v.string(),
  v.regex(DAY, 'Date attendue au format AAAA-MM-JJ.'),
  v.check((d) => Number.isFinite(Date.parse(`${d}T00:00:00Z`)), 'Date invalide.'),
);

export const BillingQuerySchema = v.pipe(
  v.object({
    from: v.optional(daySchema),
    to: v.optional(daySchema),
    status: v.optional(v.picklist(billingStatuses, 'Statut inconnu.')),
    kind: v.optional(v.picklist(billingKinds, 'Type inconnu.')),
  }),
  v.check((q) => !q.from || !q.to || q.from <= q.to, 'La date de début doit précéder la date de fin.'),
);
export type BillingQuery = v.InferOutput<typeof BillingQuerySchema>;

/** Why a refund was made, in the words of the billing view (decision 175 adds the charge after the stop). */
export const REFUND_REASON_WORDS = {
  withdrawal: 'rétractation',
  termination: 'résiliation',
  outside_contract: 'prélèvement après la fin du contrat, remboursé d’office',
} as const;

function refundStatus(status: string): BillingStatus {
  if (status === 'succeeded') return 'rembourse';
  if (status === 'failed') return 'remboursement-echoue';
  return 'remboursement-en-cours';
}

/** Every billing line of the agency (or of `memberId`), newest first, filtered by the query. */
export async function billingEntries(db: Db, query: BillingQuery & { memberId?: string }, now: Date): Promise<BillingEntry[]> {
  const people = await billedMembers(db, query.memberId);
  const byId = new Map(people.map((p) => [p.id, { name: customerNameOf(p), email: p.email }]));
  const ids = [...byId.keys()];
  if (ids.length === 0) return [];
  const entries: BillingEntry[] = [];
  const who = (memberId: string) => byId.get(memberId) ?? { name: 'Membre inconnu', email: '' };

  const invoiceRows = await invoiceReferencesOf(db, ids);
  const invoiceOf = new Map(invoiceRows.map((r) => [r.reference, r.number]));

  // Every payment received: the sessions that confirmed a step, and those paid that confirmed none
  // (one that arrived for a stopped contract, refunded at once: decision 175), so that no refund
  // is shown without the payment it gives back.
  const refundRows = await refundsOfMembers(db, ids);
  const refundedOutside = new Set(refundRows.filter((r) => r.reason === 'outside_contract').map((r) => r.checkoutSessionId));
  const sessions = await paidSessionsOf(db, ids);
  for (const s of sessions) {
    if (!s.memberId) continue;
    const monthly = isPlanId(s.offerId) && planById(s.offerId).type === 'monthly';
    const label = s.offerId && s.offerId in offerLabels ? offerLabels[s.offerId] : 'Paiement';
    entries.push({
      key: `payment:${s.id}`,
      at: s.createdAt,
      kind: monthly ? 'instalment' : 'payment',
      memberId: s.memberId,
      memberName: who(s.memberId).name,
      email: who(s.memberId).email,
      label: monthly && isPlanId(s.offerId) ? `${label} — mensualité 1 sur ${planById(s.offerId).installments}` : (label ?? 'Paiement'),
      amountCents: s.amountTotal ?? 0,
      status: 'payee',
      invoiceNumber: invoiceOf.get(s.id) ?? null,
      outsideContract: refundedOutside.has(s.id),
    });
  }

  const instalmentRows = await instalmentsOfMembers(db, ids);
  for (const r of instalmentRows) {
    const plan = isPlanId(r.offerId) ? planById(r.offerId) : null;
    entries.push({
      key: `instalment:${r.id}`,
      at: (r.status === 'paid' ? r.paidAt : r.failedAt) ?? r.updatedAt,
      kind: 'instalment',
      memberId: r.memberId,
      memberName: who(r.memberId).name,
      email: who(r.memberId).email,
      label: `${plan ? offerLabels[plan.id] : 'Formule'} — mensualité ${r.number} sur ${plan?.installments ?? '?'}`,
      amountCents: r.amountCents,
      status: r.status === 'paid' ? 'payee' : 'echouee',
      invoiceNumber: r.invoiceNumber,
      outsideContract: r.outsideContract,
    });
  }

  // What each member's schedule still expects: instalments due (late) or to come, and those cancelled.
  const subscribers = [
    ...new Set(sessions.filter((s) => s.subscriptionId !== null && s.memberId !== null).map((s) => s.memberId as string)),
  ];
  for (const memberId of subscribers) {
    const current = await memberInstalments(db, memberId, now);
    if (!current) continue;
    const label = offerLabels[current.schedule.planId];
    for (const row of current.schedule.rows) {
      if (row.status !== 'a-venir' && row.status !== 'annulee') continue;
      entries.push({
        key: `schedule:${current.subscriptionId}:${row.number}`,
        at: new Date(row.dueAt),
        kind: 'instalment',
        memberId,
        memberName: who(memberId).name,
        email: who(memberId).email,
        label: `${label} — mensualité ${row.number} sur ${row.of}${row.due ? ' (échue)' : ''}`,
        amountCents: row.amountCents,
        status: row.status,
        invoiceNumber: null,
        outsideContract: false,
      });
    }
  }

  for (const r of refundRows) {
    entries.push({
      key: `refund:${r.id}`,
      at: r.completedAt ?? r.requestedAt,
      kind: 'refund',
      memberId: r.memberId,
      memberName: who(r.memberId).name,
      email: who(r.memberId).email,
      label: `Remboursement (${REFUND_REASON_WORDS[r.reason]})`,
      amountCents: -r.amountCents,
      status: refundStatus(r.status),
      invoiceNumber: invoiceOf.get(r.checkoutSessionId) ?? null,
      outsideContract: false,
    });
  }

  const from = query.from ? parisDayStartMs(query.from) : Number.NEGATIVE_INFINITY;
  const to = query.to
    ? parisDayStartMs(new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10))
    : Number.POSITIVE_INFINITY;
  return entries
    .filter((e) => e.at.getTime() >= from && e.at.getTime() < to)
    .filter((e) => !query.status || e.status === query.status)
    .filter((e) => !query.kind || e.kind === query.kind)
    .sort((a, b) => b.at.getTime() - a.at.getTime() || a.memberName.localeCompare(b.memberName, 'fr'));
}

/** Totals of a list: received (paid), refunded, still expected (to come or failed). */
export function billingTotals(entries: readonly BillingEntry[]) {
  const sum = (f: (e: BillingEntry) => boolean) => entries.filter(f).reduce((s, e) => s + e.amountCents, 0);
  return {
    receivedCents: sum((e) => e.status === 'payee'),
    refundedCents: -sum((e) => e.status === 'rembourse'),
    expectedCents: sum((e) => e.status === 'a-venir' || e.status === 'echouee'),
    failedCount: entries.filter((e) => e.status === 'echouee').length,
  };
}

export function entryJson(e: BillingEntry) {
  return { ...e, at: e.at.toISOString() };
}

// ---------------------------------------------------------------------------
// CSV (Excel, French settings): BOM, `;` separator, CRLF, French headers, amounts with a decimal comma.

const parisDateTime = frenchDateFormat({
  timeZone: 'Europe/Paris',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** 9500 → "95,00"; -25400 → "-254,00" (no grouping: a number Excel reads). */
export function euroCell(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** A text cell: quoted when needed; a leading = + - @ is neutralised (no formula injection). */
export function textCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const BILLING_CSV_HEADERS = ['Date', 'Type', 'Membre', 'E-mail', 'Libellé', 'Montant (€)', 'Statut', 'Facture', 'Remarque'];

export function billingCsv(entries: readonly BillingEntry[]): string {
  const lines = [BILLING_CSV_HEADERS.join(';')];
  for (const e of entries) {
    lines.push(
      [
        textCell(parisDateTime.format(e.at).replace(',', '')),
        textCell(billingKindLabels[e.kind]),
        textCell(e.memberName),
        textCell(e.email),
        textCell(e.label),
        euroCell(e.amountCents),
        textCell(billingStatusLabels[e.status]),
        textCell(e.invoiceNumber ?? ''),
        textCell(e.outsideContract ? 'Reçue hors contrat : remboursée d’office' : ''),
      ].join(';'),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

const SOURCE_RANK: Record<string, number> = { payment: 0, instalment: 1, schedule: 2, refund: 3 };
const rankOf = (e: BillingEntry) => SOURCE_RANK[e.key.slice(0, e.key.indexOf(':'))] ?? 4;
const codeOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The agency view's order, the database's (`ORDER BY at DESC, name COLLATE "C", source, key`):
 * newest first; at the same instant by name (code points, as the database compares them), then
 * payments, instalments, expected lines, refunds, then by key, so that every page is exact.
 */
export const billingOrder = (a: BillingEntry, b: BillingEntry) =>
  b.at.getTime() - a.at.getTime() || codeOrder(a.memberName, b.memberName) || rankOf(a) - rankOf(b) || codeOrder(a.key, b.key);
