import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { agencyBillingPage, linesTotalsRead } from '#bff/payments/agency-billing.ts';
import type { BillingQuery } from '#bff/payments/billing.ts';
import { parisDayOf } from '#machines/paris-time.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * The billing view's daily totals (migration 0058, decision 225) are kept by the writes: after any
 * sequence of payments, instalments and refunds written, changed and deleted, owners that become
 * staff or members again, members deleted and lines whose owner arrives later, at instants around
 * Paris's midnights and a change of time, the table holds what a rebuild from the lines gives, and
 * the view's count and totals (read from it) equal the lines summed whole, for every kind, status
 * and period.
 */

/** Saturday 28 March 2026, 22:30 UTC: Paris's midnight, and the change of time the next night. */
const NOW = Date.parse('2026-03-28T22:30:00Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
const MONTHLY = 'plan_horizon_month';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

/** The migration's backfill: the table as the lines give it. */
const REBUILT = sql`SELECT l.day::text AS day, l.source, l.offer_id, l.status, count(*)::int AS lines, sum(l.amount)::bigint AS amount
  FROM (
    SELECT p.*, 0::smallint AS source FROM checkout_sessions s, billing_payment_line(s) p WHERE billing_owner_is_member(s.member_id)
    UNION ALL SELECT i.*, 1::smallint FROM instalments r, billing_instalment_line(r) i WHERE billing_owner_is_member(r.member_id)
    UNION ALL SELECT f2.*, 3::smallint FROM refunds f, billing_refund_line(f) f2 WHERE billing_owner_is_member(f.member_id)
  ) l GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;
const KEPT = sql`SELECT day::text AS day, source, offer_id, status, lines::int AS lines, amount::bigint AS amount
  FROM billing_day_totals ORDER BY 1, 2, 3, 4`;

const rowsOf = async (query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;

const minutes = fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 });
const owner = fc.integer({ min: 0, max: 5 });
const op = fc.oneof(
  fc.record({
    op: fc.constant('payment' as const),
    owner,
    minutes,
    offer: fc.constantFrom(MONTHLY, 'frais_dossier', null),
    consumed: fc.boolean(),
    paid: fc.boolean(),
    amount: fc.integer({ min: 0, max: 20_000 }),
  }),
  fc.record({ op: fc.constant('payment-change' as const), pick: fc.nat(), minutes, consumed: fc.boolean(), paid: fc.boolean() }),
  fc.record({ op: fc.constant('payment-delete' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('instalment' as const), owner, minutes, paid: fc.boolean(), amount: fc.integer({ min: 0, max: 9_000 }) }),
  fc.record({ op: fc.constant('instalment-change' as const), pick: fc.nat(), minutes, paid: fc.boolean() }),
  fc.record({ op: fc.constant('refund' as const), pick: fc.nat(), minutes, status: fc.constantFrom('pending', 'failed', 'succeeded') }),
  fc.record({
    op: fc.constant('refund-change' as const),
    pick: fc.nat(),
    minutes,
    status: fc.constantFrom('pending', 'failed', 'succeeded'),
  }),
  fc.record({ op: fc.constant('role' as const), owner, staff: fc.boolean() }),
  fc.record({ op: fc.constant('member-delete' as const), owner }),
  fc.record({ op: fc.constant('member-insert' as const), owner }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const day = (offsetDays: number) => parisDayOf(NOW + offsetDays * 86_400_000);
const QUERIES: BillingQuery[] = [
  {},
  { kind: 'payment' },
  { kind: 'instalment' },
  { kind: 'refund' },
  { status: 'payee' },
  { status: 'echouee' },
  { status: 'rembourse' },
  { status: 'remboursement-en-cours' },
  { from: day(0), to: day(0) },
  { from: day(1) },
  { to: day(-1), kind: 'payment' },
  { from: day(-1), to: day(1), status: 'payee' },
];

async function apply(ops: Op[], owners: string[]) {
  const db = database.db;
  const one = async (query: ReturnType<typeof sql>) => (await rowsOf(query))[0] as Record<string, unknown> | undefined;
  for (const o of ops) {
    switch (o.op) {
      case 'payment':
        await db.execute(sql`INSERT INTO checkout_sessions (id, member_id, offer_id, status, payment_status, amount_total, consumed_at, created_at)
          VALUES (${`cs_${randomUUID()}`}, ${owners[o.owner]}, ${o.offer}, ${o.paid ? 'complete' : 'open'}, ${o.paid ? 'paid' : 'unpaid'},
            ${o.amount}, ${o.consumed ? at(o.minutes + 1) : null}, ${at(o.minutes)})`);
        break;
      case 'payment-change': {
        const row = await one(
          sql`SELECT id FROM checkout_sessions ORDER BY id OFFSET ${o.pick} % greatest((SELECT count(*) FROM checkout_sessions), 1) LIMIT 1`,
        );
        // A paid payment stays paid (a refund may hold it); its instant and consumption move.
        if (row)
          await db.execute(sql`UPDATE checkout_sessions SET created_at = ${at(o.minutes)}, consumed_at = ${o.consumed ? at(o.minutes) : null},
            status = CASE WHEN payment_status = 'paid' OR ${o.paid} THEN 'complete' ELSE status END,
            payment_status = CASE WHEN ${o.paid} THEN 'paid' ELSE payment_status END WHERE id = ${row.id as string}`);
        break;
      }
      case 'payment-delete':
        await db.execute(sql`DELETE FROM checkout_sessions WHERE id = (SELECT s.id FROM checkout_sessions s
          WHERE NOT EXISTS (SELECT 1 FROM refunds f WHERE f.checkout_session_id = s.id)
          ORDER BY s.id OFFSET ${o.pick} % greatest((SELECT count(*) FROM checkout_sessions), 1) LIMIT 1)`);
        break;
      case 'instalment':
        await db.execute(sql`INSERT INTO instalments (member_id, subscription_id, provider_invoice_id, offer_id, number, amount_cents, status,
            paid_at, failed_at, created_at, updated_at)
          VALUES (${owners[o.owner]}, ${`sub_${randomUUID()}`}, ${`in_${randomUUID()}`}, ${MONTHLY}, 2, ${o.amount}, ${o.paid ? 'paid' : 'failed'},
            ${o.paid ? at(o.minutes) : null}, ${o.paid || o.minutes % 2 === 0 ? null : at(o.minutes)}, ${at(o.minutes - 5)}, ${at(o.minutes + 7)})`);
        break;
      case 'instalment-change': {
        const row = await one(
          sql`SELECT id FROM instalments ORDER BY id OFFSET ${o.pick} % greatest((SELECT count(*) FROM instalments), 1) LIMIT 1`,
        );
        if (row)
          await db.execute(sql`UPDATE instalments SET status = ${o.paid ? 'paid' : 'failed'}, paid_at = ${o.paid ? at(o.minutes) : null},
            failed_at = ${o.paid ? null : at(o.minutes)}, updated_at = ${at(o.minutes + 3)} WHERE id = ${row.id as number}`);
        break;
      }
      case 'refund': {
        // Of a paid payment not refunded yet (one refund a payment and reason).
        const row = await one(sql`SELECT s.id, s.member_id FROM checkout_sessions s
          WHERE s.payment_status = 'paid' AND s.amount_total > 100
            AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.checkout_session_id = s.id)
          ORDER BY s.id OFFSET ${o.pick} % greatest((SELECT count(*) FROM checkout_sessions), 1) LIMIT 1`);
        if (row)
          await db.execute(sql`INSERT INTO refunds (member_id, checkout_session_id, reason, amount_cents, paid_cents, requested_at, due_by, status, completed_at)
            VALUES (${row.member_id as string}, ${row.id as string}, 'withdrawal', 100, 100, ${at(o.minutes)}, ${at(o.minutes + 20_000)}, ${o.status},
              ${o.status === 'succeeded' ? at(o.minutes + 30) : null})`);
        break;
      }
      case 'refund-change': {
        const row = await one(
          sql`SELECT id FROM refunds ORDER BY id OFFSET ${o.pick} % greatest((SELECT count(*) FROM refunds), 1) LIMIT 1`,
        );
        if (row)
          await db.execute(sql`UPDATE refunds SET status = ${o.status}, completed_at = ${o.status === 'succeeded' ? at(o.minutes) : null}
            WHERE id = ${row.id as number}`);
        break;
      }
      case 'role':
        await db.execute(
          sql`UPDATE members SET role = ${o.staff ? 'staff' : 'member'}, staff_role = ${o.staff ? 'administration' : null} WHERE id = ${owners[o.owner]}`,
        );
        break;
      case 'member-delete':
        await db.execute(sql`DELETE FROM members WHERE id = ${owners[o.owner]}`);
        break;
      case 'member-insert':
        await db.execute(sql`INSERT INTO members (id, email, gender, onboarding) VALUES (${owners[o.owner]}, ${`${owners[o.owner]}@example.fr`}, 'femme', '{}')
          ON CONFLICT (id) DO NOTHING`);
        break;
    }
  }
}

describe('the billing view’s daily totals', () => {
  it('are what the lines give after any sequence of writes, and the view’s totals are the lines summed whole', async () => {
    const now = new Date(NOW);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
        await database.db.execute(sql`DELETE FROM refunds`);
        await database.db.execute(sql`DELETE FROM instalments`);
        await database.db.execute(sql`DELETE FROM checkout_sessions`);
        await database.db.execute(sql`DELETE FROM members`);
        expect(await rowsOf(KEPT)).toEqual([]);
        // Four members, one staff account, and an owner whose row comes (or not) later.
        const owners = Array.from({ length: 6 }, () => randomUUID());
        for (const [i, id] of owners.slice(0, 5).entries())
          await database.db.execute(sql`INSERT INTO members (id, email, gender, role, staff_role, onboarding)
            VALUES (${id}, ${`${id}@example.fr`}, 'homme', ${i === 4 ? 'staff' : 'member'}, ${i === 4 ? 'administration' : null}, '{}')`);
        await apply(ops, owners);
        expect(await rowsOf(KEPT)).toEqual(await rowsOf(REBUILT));
        for (const query of QUERIES) {
          const page = await agencyBillingPage(database.db, query, { page: 1, perPage: 5 }, now);
          expect({ count: page.total, totals: page.totals }, JSON.stringify(query)).toEqual(await linesTotalsRead(database.db, query, now));
        }
      }),
      { numRuns: 25, seed: 225 },
    );
  });

  it('are emptied with the lines they sum (TRUNCATE)', async () => {
    const id = randomUUID();
    await database.db.execute(
      sql`INSERT INTO members (id, email, gender, onboarding) VALUES (${id}, ${`${id}@example.fr`}, 'femme', '{}')`,
    );
    await apply([{ op: 'payment', owner: 0, minutes: 0, offer: MONTHLY, consumed: true, paid: true, amount: 9500 }], [id]);
    expect((await rowsOf(KEPT)).length).toBeGreaterThan(0);
    await database.db.execute(sql`TRUNCATE checkout_sessions CASCADE`);
    expect(await rowsOf(KEPT)).toEqual(await rowsOf(REBUILT));
  });
});
