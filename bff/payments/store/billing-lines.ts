// The agency's billing lines (payments, instalments, expected lines, refunds) read in SQL: a page, the count and the totals.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import type { RefundReason } from '#bff/db/refunds-schema.ts';
import { planById, planIds } from '#machines/onboarding/plans.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/**
 * The agency's billing view in SQL (issue 64, decisions 204 and 213): every line filtered by
 * period, status and kind, ordered, counted, summed and paged by the database.
 */

export const billingKinds = ['payment', 'instalment', 'refund'] as const;
export type BillingKind = (typeof billingKinds)[number];
export const billingStatuses = [
  'payee',
  'a-venir',
  'echouee',
  'annulee',
  'remboursee',
  'remboursement-en-cours',
  'rembourse',
  'remboursement-echoue',
] as const;
export type BillingStatus = (typeof billingStatuses)[number];

/** What the lines are filtered by (the staff's query, validated by the domain): Paris days, a status, a kind. */
interface BillingLineFilter {
  from?: string;
  to?: string;
  status?: BillingStatus;
  kind?: BillingKind;
}

const MONTHLY_PLAN_IDS = planIds.filter((id) => planById(id).type === 'monthly');

function periodOf(query: BillingLineFilter): { from: Date | null; to: Date | null } {
  return {
    from: query.from ? new Date(parisDayStartMs(query.from)) : null,
    to: query.to ? new Date(parisDayStartMs(new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10))) : null,
  };
}

/**
 * An expected line's status at `now` (the schedule's, machines/onboarding/instalments.ts): the stored
 * status with time taken out, cancelled once the contract's stop or term (`ends_at`) is reached.
 */
const expectedStatusSql = (now: SQL) => sql`CASE WHEN x.status <> 'annulee' AND x.ends_at IS NOT NULL AND x.ends_at <= ${now}
  THEN 'annulee' ELSE x.status END`;

const LINE_COLUMNS = sql.raw(
  'key, at, kind, member_id, offer_id, number, of, due, reason, amount, status, charge, invoice_number, outside, source',
);

/**
 * The four kinds of line, each a relation of LINE_COLUMNS (payments, instalments, expected lines,
 * refunds), each with its condition for the status asked (`status`): on the table's columns where
 * the status is computed from them, so that the planner estimates it (a CASE it cannot: 0.5 %).
 */
function lineBranches(nowDate: Date, status: BillingStatus | undefined): { line: SQL; where?: SQL; status: SQL | null }[] {
  const now = sql`${nowDate.toISOString()}::timestamptz`;
  const open = sql`(x.ends_at IS NULL OR x.ends_at > ${now})`;
  const expectedStatus: Partial<Record<BillingStatus, SQL>> = {
    'a-venir': sql`x.status = 'a-venir' AND ${open}`,
    echouee: sql`x.status = 'echouee' AND ${open}`,
    annulee: sql`(x.status = 'annulee' OR NOT ${open})`,
  };
  const statusOf = (conditions: Partial<Record<BillingStatus, SQL>>) => (status === undefined ? null : (conditions[status] ?? sql`false`));
  const monthly = sql`ARRAY[${sql.join(
    MONTHLY_PLAN_IDS.map((id) => sql`${id}`),
    sql`, `,
  )}]::text[]`;
  return [
    {
      line: sql`SELECT 'payment:' || s.id, s.created_at,
      CASE WHEN s.offer_id = ANY(${monthly}) THEN 'instalment' ELSE 'payment' END,
      s.member_id, s.offer_id, NULL::int, NULL::int, false, NULL::text,
      coalesce(s.amount_total, 0), 'payee', s.id, NULL::text, false, 0
    FROM checkout_sessions s`,
      where: sql`s.member_id IS NOT NULL AND (s.consumed_at IS NOT NULL OR (s.status = 'complete' AND s.payment_status = 'paid' AND s.amount_total > 0))`,
      status: statusOf({ payee: sql`true` }),
    },
    {
      line: sql`SELECT 'instalment:' || r.id, coalesce(CASE WHEN r.status = 'paid' THEN r.paid_at ELSE r.failed_at END, r.updated_at), 'instalment',
      r.member_id, r.offer_id, r.number, NULL::int, false, NULL::text, r.amount_cents,
      CASE WHEN r.status = 'paid' THEN 'payee' ELSE 'echouee' END, NULL::text, r.invoice_number, r.outside_contract, 1
    FROM instalments r`,
      status: statusOf({ payee: sql`r.status = 'paid'`, echouee: sql`r.status IS DISTINCT FROM 'paid'` }),
    },
    {
      line: sql`SELECT 'schedule:' || x.subscription_id || ':' || x.number, x.due_at, 'instalment', x.member_id, x.plan_id, x.number, x.of,
      ${expectedStatusSql(now)} = 'a-venir' AND x.due_at <= ${now}, NULL::text, x.amount_cents, ${expectedStatusSql(now)},
      NULL::text, NULL::text, false, 2
    FROM expected_instalments x`,
      // The status at now is to come or cancelled: written on the columns, so that the planner can estimate it.
      where: sql`(x.status IN ('a-venir', 'annulee') OR x.ends_at <= ${now})`,
      status: statusOf(expectedStatus),
    },
    {
      line: sql`SELECT 'refund:' || f.id, coalesce(f.completed_at, f.requested_at), 'refund', f.member_id, NULL::text, NULL::int, NULL::int,
      false, f.reason, -f.amount_cents,
      CASE f.status WHEN 'succeeded' THEN 'rembourse' WHEN 'failed' THEN 'remboursement-echoue' ELSE 'remboursement-en-cours' END,
      f.checkout_session_id, NULL::text, false, 3
    FROM refunds f`,
      status: statusOf({
        rembourse: sql`f.status = 'succeeded'`,
        'remboursement-echoue': sql`f.status = 'failed'`,
        'remboursement-en-cours': sql`f.status IS DISTINCT FROM 'succeeded' AND f.status IS DISTINCT FROM 'failed'`,
      }),
    },
  ];
}

/** The kinds each branch of `lineBranches` can give, in their order. */
const BRANCH_KINDS: readonly (readonly BillingKind[])[] = [['payment', 'instalment'], ['instalment'], ['instalment'], ['refund']];

/** The query's filters on a line `b` (period, kind; the status is the branch's), and that its owner is a member. */
function lineFilters(query: BillingLineFilter, owner = sql`b.member_id IN (SELECT id FROM members WHERE role = 'member')`): SQL {
  const { from, to } = periodOf(query);
  const where: SQL[] = [owner];
  if (from) where.push(sql`b.at >= ${from.toISOString()}::timestamptz`);
  if (to) where.push(sql`b.at < ${to.toISOString()}::timestamptz`);
  if (query.kind) where.push(sql`b.kind = ${query.kind}`);
  return sql.join(where, sql` AND `);
}

/**
 * Every line of the agency the query keeps, as one relation (`e`). For a page, `top` (its offset
 * plus its length): each kind gives only its `top` newest lines, ties included, read backwards on
 * the index of its instant; no line of the page can be further down its own kind (decision 216).
 * Without `top` (the totals), every line.
 */
function linesSql(query: BillingLineFilter, nowDate: Date, top?: number, sources?: readonly number[], owner?: SQL): SQL {
  const all = lineBranches(nowDate, query.status);
  // A kind asked: only the branches that can give it (a branch that cannot was read whole for nothing).
  const kept = all.filter(
    (_, source) => (!sources || sources.includes(source)) && (!query.kind || BRANCH_KINDS[source]?.includes(query.kind)),
  );
  const branches = kept.map(({ line, where, status }) => {
    const conditions = [where, status].filter((c): c is SQL => c !== undefined && c !== null);
    const own = conditions.length > 0 ? sql`${line} WHERE ${sql.join(conditions, sql` AND `)}` : line;
    const kept = sql`SELECT * FROM (${own}) AS b(${LINE_COLUMNS}) WHERE ${lineFilters(query, owner)}`;
    return top === undefined ? kept : sql`(${kept} ORDER BY b.at DESC FETCH FIRST ${top} ROWS WITH TIES)`;
  });
  return sql`(${sql.join(branches, sql` UNION ALL `)}) e`;
}

/** customerNameOf's order in SQL: the contract's full name, else the profile's names, else the e-mail. */
const NAME_SQL = sql`CASE
  WHEN jsonb_typeof(m.contract->'fullName') = 'string' AND btrim(m.contract->>'fullName') <> '' THEN btrim(m.contract->>'fullName')
  WHEN jsonb_typeof(m.profile->'firstName') = 'string' AND jsonb_typeof(m.profile->'lastName') = 'string'
    AND btrim(btrim(m.profile->>'firstName') || ' ' || btrim(m.profile->>'lastName')) <> ''
    THEN btrim(btrim(m.profile->>'firstName') || ' ' || btrim(m.profile->>'lastName'))
  ELSE m.email END`;

export interface LineRow extends Record<string, unknown> {
  key: string;
  at: string | Date;
  kind: BillingKind;
  member_id: string;
  offer_id: string | null;
  number: number | null;
  of: number | null;
  due: boolean;
  reason: RefundReason | null;
  amount: number;
  status: BillingStatus;
  invoice_number: string | null;
  outside: boolean;
  name: string;
  email: string;
}

async function rowsOf<Row>(db: Db, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** One page of the lines, `limit` from `offset`, in the view's order, with their invoice and owner. */
export async function billingLineRows(db: Db, query: BillingLineFilter, now: Date, limit: number, offset: number): Promise<LineRow[]> {
  return rowsOf<LineRow>(
    db,
    sql`SELECT e.key, e.at, e.kind, e.member_id, e.offer_id, e.number, e.of, e.due, e.reason, e.amount, e.status,
      coalesce(e.invoice_number, (SELECT i.number FROM invoices i WHERE i.checkout_session_id = e.charge ORDER BY i.number DESC LIMIT 1)) AS invoice_number,
      -- A payment refunded outside the contract: looked up for the page's lines only.
      CASE WHEN e.source = 0 THEN EXISTS (SELECT 1 FROM refunds o WHERE o.checkout_session_id = e.charge AND o.reason = 'outside_contract')
        ELSE e.outside END AS outside,
      ${NAME_SQL} AS name, m.email
    FROM ${linesSql(query, now, offset + limit)} JOIN members m ON m.id = e.member_id
    ORDER BY e.at DESC, (${NAME_SQL}) COLLATE "C", e.source, e.key COLLATE "C"
    LIMIT ${limit} OFFSET ${offset}`,
  );
}

/** The expected lines' source (`lineBranches`' third): read, their status depending on the time. */
const EXPECTED_SOURCE = 2;
/**
 * An expected line's owner is a member: every owner exists (a foreign key, ON DELETE CASCADE), so
 * « not one of the few others » (`members_not_member`, migration 0058: one hashed look-up) is the
 * same condition as « among the members », which looked up each line's owner in 100 000.
 */
const EXPECTED_OWNER = sql`b.member_id NOT IN (SELECT id FROM members WHERE role IS DISTINCT FROM 'member')`;

/**
 * The stored kinds' lines the query keeps, from their daily totals (`billing_day_totals`, kept by the
 * writes' triggers, migration 0058): `lines`, `amount`, `status` per day, kind and status.
 */
function storedTotalsSql(query: BillingLineFilter): SQL {
  const where: SQL[] = [];
  if (query.from) where.push(sql`t.day >= ${query.from}::date`);
  if (query.to) where.push(sql`t.day <= ${query.to}::date`);
  if (query.kind) {
    const monthly = sql`ARRAY[${sql.join(
      MONTHLY_PLAN_IDS.map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]`;
    where.push(sql`(CASE t.source WHEN 0 THEN (CASE WHEN t.offer_id = ANY(${monthly}) THEN 'instalment' ELSE 'payment' END)
      WHEN 1 THEN 'instalment' ELSE 'refund' END) = ${query.kind}`);
  }
  if (query.status) where.push(sql`t.status = ${query.status}`);
  return sql`SELECT t.lines, t.amount, t.status FROM billing_day_totals t${where.length > 0 ? sql` WHERE ${sql.join(where, sql` AND `)}` : sql``}`;
}

/**
 * The count and totals of every line the query keeps: the stored kinds summed over their daily
 * totals, the expected lines read (decision 225). The same figures as summing the lines themselves
 * (`linesTotalsRead`, the tests' reference).
 */
export async function billingLineTotals(db: Db, query: BillingLineFilter, now: Date) {
  if (query.kind && !BRANCH_KINDS[EXPECTED_SOURCE]?.includes(query.kind)) return totalsOf(db, sql`(${storedTotalsSql(query)}) x`);
  return totalsOf(
    db,
    sql`(${storedTotalsSql(query)} UNION ALL SELECT 1, e.amount, e.status FROM ${linesSql(query, now, undefined, [EXPECTED_SOURCE], EXPECTED_OWNER)}) x`,
  );
}

/** The same count and totals read from every line (the former reading, kept for the tests to compare). */
export async function billingLineTotalsRead(db: Db, query: BillingLineFilter, now: Date) {
  return totalsOf(db, sql`(SELECT 1 AS lines, e.amount, e.status FROM ${linesSql(query, now)}) x`);
}

async function totalsOf(db: Db, lines: SQL) {
  const [row] = await rowsOf<{ n: number; received: number; refunded: number; expected: number; failed: number }>(
    db,
    sql`SELECT
      coalesce(sum(x.lines), 0)::bigint AS n,
      coalesce(sum(x.amount) FILTER (WHERE x.status = 'payee'), 0)::bigint AS received,
      coalesce(-sum(x.amount) FILTER (WHERE x.status = 'rembourse'), 0)::bigint AS refunded,
      coalesce(sum(x.amount) FILTER (WHERE x.status IN ('a-venir', 'echouee')), 0)::bigint AS expected,
      coalesce(sum(x.lines) FILTER (WHERE x.status = 'echouee'), 0)::bigint AS failed
    FROM ${lines}`,
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
