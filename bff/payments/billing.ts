import { and, eq, gt, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { instalments } from '#bff/db/instalments-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { checkoutSessions, members } from '#bff/db/schema.ts';
import { customerNameOf } from '#bff/invoices/invoices.ts';
import { agencySchedules, memberInstalments } from '#bff/payments/instalments.ts';
import { billingKindLabels, billingStatusLabels, offerLabels } from '#machines/onboarding/labels.ts';
import { isPlanId, planById, planIds } from '#machines/onboarding/plans.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/**
 * The staff's billing view (decision 120): payments (checkout sessions that confirmed a step),
 * instalments (paid, failed, and those due or to come from each member's schedule), refunds, with
 * their invoice numbers — for the agency (a period, a status, a kind) or one member. The same rows
 * feed the JSON view and the CSV export.
 */

const billingKinds = ['payment', 'instalment', 'refund'] as const;
type BillingKind = (typeof billingKinds)[number];
const billingStatuses = [
  'payee',
  'a-venir',
  'echouee',
  'annulee',
  'remboursee',
  'remboursement-en-cours',
  'rembourse',
  'remboursement-echoue',
] as const;
type BillingStatus = (typeof billingStatuses)[number];

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
const REFUND_REASON_WORDS = {
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
  const people = await db
    .select({ id: members.id, email: members.email, contract: members.contract, profile: members.profile })
    .from(members)
    .where(query.memberId ? and(eq(members.id, query.memberId), eq(members.role, 'member')) : eq(members.role, 'member'));
  const byId = new Map(people.map((p) => [p.id, { name: customerNameOf(p), email: p.email }]));
  const ids = [...byId.keys()];
  if (ids.length === 0) return [];
  const entries: BillingEntry[] = [];
  const who = (memberId: string) => byId.get(memberId) ?? { name: 'Membre inconnu', email: '' };

  const invoiceRows = await db
    .select({ number: invoices.number, reference: invoices.checkoutSessionId })
    .from(invoices)
    .where(inArray(invoices.memberId, ids));
  const invoiceOf = new Map(invoiceRows.map((r) => [r.reference, r.number]));

  // Every payment received: the sessions that confirmed a step, and those paid that confirmed none
  // (one that arrived for a stopped contract, refunded at once: decision 175), so that no refund
  // is shown without the payment it gives back.
  const refundRows = await db.select().from(refunds).where(inArray(refunds.memberId, ids));
  const refundedOutside = new Set(refundRows.filter((r) => r.reason === 'outside_contract').map((r) => r.checkoutSessionId));
  const sessions = await db
    .select()
    .from(checkoutSessions)
    .where(
      and(
        inArray(checkoutSessions.memberId, ids),
        or(
          isNotNull(checkoutSessions.consumedAt),
          and(eq(checkoutSessions.status, 'complete'), eq(checkoutSessions.paymentStatus, 'paid'), gt(checkoutSessions.amountTotal, 0)),
        ),
      ),
    );
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

  const instalmentRows = await db.select().from(instalments).where(inArray(instalments.memberId, ids));
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

const BILLING_CSV_HEADERS = ['Date', 'Type', 'Membre', 'E-mail', 'Libellé', 'Montant (€)', 'Statut', 'Facture', 'Remarque'];

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

// ---------------------------------------------------------------------------
// The agency's view in SQL (issue 64, decision 204): the recorded lines (payments, instalments,
// refunds) filtered, ordered, counted, summed and paged by the database; the lines each schedule
// still expects (to come, cancelled) computed for the subscribers whose schedule can reach the
// period, read in a few set-based queries (`agencySchedules`), and merged in order.

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

const MONTHLY_PLAN_IDS = planIds.filter((id) => planById(id).type === 'monthly');

function periodOf(query: BillingQuery): { from: Date | null; to: Date | null } {
  return {
    from: query.from ? new Date(parisDayStartMs(query.from)) : null,
    to: query.to ? new Date(parisDayStartMs(new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10))) : null,
  };
}

/** Every recorded line of the agency, as one relation (`e`) with its member (`m`), filtered by the query. */
function recordedSql(query: BillingQuery): SQL {
  const { from, to } = periodOf(query);
  const where: SQL[] = [sql`m.role = 'member'`];
  if (from) where.push(sql`e.at >= ${from.toISOString()}::timestamptz`);
  if (to) where.push(sql`e.at < ${to.toISOString()}::timestamptz`);
  if (query.status) where.push(sql`e.status = ${query.status}`);
  if (query.kind) where.push(sql`e.kind = ${query.kind}`);
  const monthly = sql`ARRAY[${sql.join(
    MONTHLY_PLAN_IDS.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  return sql`(
    SELECT 'payment:' || s.id AS key, s.created_at AS at,
      CASE WHEN s.offer_id = ANY(${monthly}) THEN 'instalment' ELSE 'payment' END AS kind,
      s.member_id, s.offer_id, NULL::int AS number, NULL::text AS reason, coalesce(s.amount_total, 0) AS amount,
      'payee' AS status, s.id AS charge, NULL::text AS invoice_number,
      EXISTS (SELECT 1 FROM refunds o WHERE o.checkout_session_id = s.id AND o.reason = 'outside_contract') AS outside, 0 AS source
    FROM checkout_sessions s
    WHERE s.member_id IS NOT NULL AND (s.consumed_at IS NOT NULL OR (s.status = 'complete' AND s.payment_status = 'paid' AND s.amount_total > 0))
    UNION ALL
    SELECT 'instalment:' || r.id, coalesce(CASE WHEN r.status = 'paid' THEN r.paid_at ELSE r.failed_at END, r.updated_at), 'instalment',
      r.member_id, r.offer_id, r.number, NULL, r.amount_cents, CASE WHEN r.status = 'paid' THEN 'payee' ELSE 'echouee' END,
      NULL, r.invoice_number, r.outside_contract, 1
    FROM instalments r
    UNION ALL
    SELECT 'refund:' || f.id, coalesce(f.completed_at, f.requested_at), 'refund', f.member_id, NULL, NULL, f.reason, -f.amount_cents,
      CASE f.status WHEN 'succeeded' THEN 'rembourse' WHEN 'failed' THEN 'remboursement-echoue' ELSE 'remboursement-en-cours' END,
      f.checkout_session_id, NULL, false, 3
    FROM refunds f
  ) e JOIN members m ON m.id = e.member_id WHERE ${sql.join(where, sql` AND `)}`;
}

/** customerNameOf's order in SQL: the contract's full name, else the profile's names, else the e-mail. */
const NAME_SQL = sql`CASE
  WHEN jsonb_typeof(m.contract->'fullName') = 'string' AND btrim(m.contract->>'fullName') <> '' THEN btrim(m.contract->>'fullName')
  WHEN jsonb_typeof(m.profile->'firstName') = 'string' AND jsonb_typeof(m.profile->'lastName') = 'string'
    AND btrim(btrim(m.profile->>'firstName') || ' ' || btrim(m.profile->>'lastName')) <> ''
    THEN btrim(btrim(m.profile->>'firstName') || ' ' || btrim(m.profile->>'lastName'))
  ELSE m.email END`;

interface RecordedRow extends Record<string, unknown> {
  key: string;
  at: string | Date;
  kind: BillingKind;
  member_id: string;
  offer_id: string | null;
  number: number | null;
  reason: keyof typeof REFUND_REASON_WORDS | null;
  amount: number;
  status: BillingStatus;
  invoice_number: string | null;
  outside: boolean;
  name: string;
  email: string;
}

function recordedEntry(r: RecordedRow): BillingEntry {
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
  return { ...base, label: `Remboursement (${REFUND_REASON_WORDS[r.reason ?? 'withdrawal']})` };
}

async function rowsOf<Row>(db: Db, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
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
const byDate = billingOrder;

async function recordedPage(db: Db, query: BillingQuery, limit: number, offset: number): Promise<BillingEntry[]> {
  const rows = await rowsOf<RecordedRow>(
    db,
    sql`SELECT e.key, e.at, e.kind, e.member_id, e.offer_id, e.number, e.reason, e.amount, e.status,
      coalesce(e.invoice_number, (SELECT i.number FROM invoices i WHERE i.checkout_session_id = e.charge ORDER BY i.number DESC LIMIT 1)) AS invoice_number,
      e.outside, ${NAME_SQL} AS name, m.email
    FROM ${recordedSql(query)}
    ORDER BY e.at DESC, (${NAME_SQL}) COLLATE "C", e.source, e.key COLLATE "C"
    LIMIT ${limit} OFFSET ${offset}`,
  );
  return rows.map(recordedEntry);
}

async function recordedTotals(db: Db, query: BillingQuery) {
  const [row] = await rowsOf<{ n: number; received: number; refunded: number; expected: number; failed: number }>(
    db,
    sql`SELECT
      count(*)::int AS n,
      coalesce(sum(e.amount) FILTER (WHERE e.status = 'payee'), 0)::bigint AS received,
      coalesce(-sum(e.amount) FILTER (WHERE e.status = 'rembourse'), 0)::bigint AS refunded,
      coalesce(sum(e.amount) FILTER (WHERE e.status IN ('a-venir', 'echouee')), 0)::bigint AS expected,
      (count(*) FILTER (WHERE e.status = 'echouee'))::int AS failed
    FROM ${recordedSql(query)}`,
  );
  return {
    count: Number(row?.n ?? 0),
    totals: {
      receivedCents: Number(row?.received ?? 0),
      refundedCents: Number(row?.refunded ?? 0),
      expectedCents: Number(row?.expected ?? 0),
      failedCount: Number(row?.failed ?? 0),
    },
  };
}

/** The lines the schedules still expect (to come, cancelled) within the query, in order. */
async function expectedLines(db: Db, query: BillingQuery, now: Date): Promise<BillingEntry[]> {
  if (query.kind && query.kind !== 'instalment') return [];
  if (query.status && query.status !== 'a-venir' && query.status !== 'annulee') return [];
  const { from, to } = periodOf(query);
  // A schedule's lines fall within 12 months of its first payment: only those subscribers can reach the period.
  const where: SQL[] = [sql`s.subscription_id IS NOT NULL`, sql`s.member_id IS NOT NULL`, sql`m.role = 'member'`];
  if (from) where.push(sql`s.created_at >= ${from.toISOString()}::timestamptz - interval '13 months'`);
  if (to) where.push(sql`s.created_at < ${to.toISOString()}::timestamptz`);
  const subscribers = await rowsOf<{ id: string; name: string; email: string }>(
    db,
    sql`SELECT DISTINCT m.id, ${NAME_SQL} AS name, m.email FROM checkout_sessions s JOIN members m ON m.id = s.member_id
        WHERE ${sql.join(where, sql` AND `)}`,
  );
  if (subscribers.length === 0) return [];
  const who = new Map(subscribers.map((r) => [r.id, r]));
  const schedules = await agencySchedules(db, [...who.keys()], now);
  const fromMs = from?.getTime() ?? Number.NEGATIVE_INFINITY;
  const toMs = to?.getTime() ?? Number.POSITIVE_INFINITY;
  const lines: BillingEntry[] = [];
  for (const [memberId, current] of schedules) {
    const label = offerLabels[current.schedule.planId];
    for (const row of current.schedule.rows) {
      if (row.status !== 'a-venir' && row.status !== 'annulee') continue;
      if (query.status && row.status !== query.status) continue;
      if (row.dueAt < fromMs || row.dueAt >= toMs) continue;
      lines.push({
        key: `schedule:${current.subscriptionId}:${row.number}`,
        at: new Date(row.dueAt),
        kind: 'instalment',
        memberId,
        memberName: who.get(memberId)?.name ?? 'Membre inconnu',
        email: who.get(memberId)?.email ?? '',
        label: `${label} — mensualité ${row.number} sur ${row.of}${row.due ? ' (échue)' : ''}`,
        amountCents: row.amountCents,
        status: row.status,
        invoiceNumber: null,
        outsideContract: false,
      });
    }
  }
  return lines.sort(byDate);
}

/** One page of the agency's billing, its count and its totals over every line of the query. */
export async function agencyBillingPage(db: Db, query: BillingQuery, paging: { page: number; perPage: number }, now: Date) {
  const offset = (paging.page - 1) * paging.perPage;
  const [expected, recorded] = await Promise.all([expectedLines(db, query, now), recordedTotals(db, query)]);
  // Without expected lines the page is the database's; with them, the recorded lines up to the page's
  // end are merged with them in order.
  const entries =
    expected.length === 0
      ? await recordedPage(db, query, paging.perPage, offset)
      : [...(await recordedPage(db, query, offset + paging.perPage, 0)), ...expected].sort(byDate).slice(offset, offset + paging.perPage);
  const extra = billingTotals(expected);
  const total = recorded.count + expected.length;
  return {
    entries,
    total,
    page: paging.page,
    perPage: paging.perPage,
    pageCount: Math.max(1, Math.ceil(total / paging.perPage)),
    totals: {
      receivedCents: recorded.totals.receivedCents + extra.receivedCents,
      refundedCents: recorded.totals.refundedCents + extra.refundedCents,
      expectedCents: recorded.totals.expectedCents + extra.expectedCents,
      failedCount: recorded.totals.failedCount + extra.failedCount,
    },
  };
}

/** The agency's billing as CSV, chunk by chunk (the export streams it: never the whole file in memory). */
export async function* agencyBillingCsv(db: Db, query: BillingQuery, now: Date, chunk = 1000): AsyncGenerator<string> {
  yield `\uFEFF${BILLING_CSV_HEADERS.join(';')}\r\n`;
  const expected = await expectedLines(db, query, now);
  let pending = 0;
  for (let offset = 0; ; offset += chunk) {
    const rows = await recordedPage(db, query, chunk, offset);
    const last = rows.at(-1);
    // The expected lines that sort before this chunk's last line go with it.
    const take: BillingEntry[] = [];
    while (pending < expected.length && (!last || rows.length < chunk || byDate(expected[pending] as BillingEntry, last) <= 0))
      take.push(expected[pending++] as BillingEntry);
    const lines = [...rows, ...take].sort(byDate);
    if (lines.length > 0) yield billingCsv(lines).slice(billingCsv([]).length);
    if (rows.length < chunk) return;
  }
}
