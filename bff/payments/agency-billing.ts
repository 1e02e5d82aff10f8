import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { BILLING_CSV_HEADERS, type BillingEntry, type BillingQuery, billingCsv, REFUND_REASON_WORDS } from '#bff/payments/billing.ts';
import { refreshExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import { billingLineRows, billingLineTotals, billingLineTotalsRead, type LineRow } from '#bff/payments/store/billing-lines.ts';
import { offerLabels } from '#machines/onboarding/labels.ts';
import { isPlanId, planById } from '#machines/onboarding/plans.ts';

/**
 * The agency's billing view in SQL (issue 64, decisions 204 and 213): every line — payments,
 * instalments, the lines the schedules still expect (stored with the events that fix them,
 * `expected_instalments`), refunds — filtered by period, status and kind, ordered, counted,
 * summed and paged by the database; the CSV export streamed chunk by chunk.
 */

export const BillingPageSchema = v.object({
  page: v.optional(
    v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'Nombre entier attendu'), v.transform(Number), v.minValue(1, 'Au moins 1')),
    '1',
  ),
  perPage: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,4}$/, 'Nombre entier attendu'),
      v.transform(Number),
      v.minValue(1, 'Au moins 1'),
      v.maxValue(500, 'Au plus 500'),
    ),
    '100',
  ),
});

function lineEntry(r: LineRow): BillingEntry {
  const base = {
    key: r.key,
    at: new Date(r.at),
    kind: r.kind,
    memberId: r.member_id,
    memberName: r.name,
    email: r.email,
    amountCents: Number(r.amount),
    status: r.status,
    invoiceNumber: r.invoice_number,
    outsideContract: r.outside,
  };
  if (r.key.startsWith('payment:')) {
    const monthly = r.kind === 'instalment' && isPlanId(r.offer_id);
    const label = r.offer_id && r.offer_id in offerLabels ? offerLabels[r.offer_id as keyof typeof offerLabels] : 'Paiement';
    return {
      ...base,
      label: monthly && isPlanId(r.offer_id) ? `${label} — mensualité 1 sur ${planById(r.offer_id).installments}` : (label ?? 'Paiement'),
    };
  }
  if (r.key.startsWith('instalment:')) {
    const plan = isPlanId(r.offer_id) ? planById(r.offer_id) : null;
    return { ...base, label: `${plan ? offerLabels[plan.id] : 'Formule'} — mensualité ${r.number} sur ${plan?.installments ?? '?'}` };
  }
  if (r.key.startsWith('schedule:')) {
    const label = isPlanId(r.offer_id) ? offerLabels[r.offer_id] : 'Formule';
    return { ...base, label: `${label} — mensualité ${r.number} sur ${r.of}${r.due ? ' (échue)' : ''}` };
  }
  return { ...base, label: `Remboursement (${REFUND_REASON_WORDS[r.reason ?? 'withdrawal']})` };
}

async function linesPage(db: Db, query: BillingQuery, now: Date, limit: number, offset: number): Promise<BillingEntry[]> {
  const rows = await billingLineRows(db, query, now, limit, offset);
  return rows.map(lineEntry);
}

/** The same count and totals read from every line (the former reading, kept for the tests to compare). */
export async function linesTotalsRead(db: Db, query: BillingQuery, now: Date) {
  return billingLineTotalsRead(db, query, now);
}

/** One page of the agency's billing, its count and its totals over every line of the query. */
export async function agencyBillingPage(db: Db, query: BillingQuery, paging: { page: number; perPage: number }, now: Date) {
  // The lines of members marked by a write that did not store them (a script, a test): written first.
  await refreshExpectedInstalments(db);
  const offset = (paging.page - 1) * paging.perPage;
  const [entries, counted] = await Promise.all([linesPage(db, query, now, paging.perPage, offset), billingLineTotals(db, query, now)]);
  return {
    entries,
    total: counted.count,
    page: paging.page,
    perPage: paging.perPage,
    pageCount: Math.max(1, Math.ceil(counted.count / paging.perPage)),
    totals: counted.totals,
  };
}

/** The agency's billing as CSV, chunk by chunk (the export streams it: never the whole file in memory). */
export async function* agencyBillingCsv(db: Db, query: BillingQuery, now: Date, chunk = 1000): AsyncGenerator<string> {
  yield `\uFEFF${BILLING_CSV_HEADERS.join(';')}\r\n`;
  await refreshExpectedInstalments(db);
  for (let offset = 0; ; offset += chunk) {
    const lines = await linesPage(db, query, now, chunk, offset);
    if (lines.length > 0) yield billingCsv(lines).slice(billingCsv([]).length);
    if (lines.length < chunk) return;
  }
}
