import pg from 'pg';

/**
 * The write cost of the billing view's daily totals (migration 0058, decision 225) under concurrent
 * payments, for `npm run bench:backoffice` on PostgreSQL: `WRITERS` connections at once, each
 * writing `PER_WRITER` paid checkouts as the payment webhook confirms one (the line, then the
 * member's record, in one transaction), all on today's Paris day and the same offer, so that every
 * one of them adds to the same totals row, the row the trigger locks until the commit. Measured
 * with the triggers on, then off (the reference: the same writes without the totals), each line
 * removed again the way it was written. After the run with the triggers on, the totals must still
 * equal the lines summed whole (a lost update or a deadlock would show here).
 */
const WRITERS = 8;
const PER_WRITER = 40;
const TABLE_TRIGGER = 'billing_day_totals_follow';

export interface WriteFigure {
  name: string;
  times: number[];
}

/** Writes as the webhook does, `WRITERS` at once; the triggers `on` or off; the lines removed after. */
async function paidCheckouts(
  databaseUrl: string,
  memberIds: string[],
  on: boolean,
  tag: string,
  whileWritten: () => Promise<boolean> = async () => true,
): Promise<{ times: number[]; held: boolean }> {
  const clients = await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const [first] = clients;
  if (!first) throw new Error('no client');
  try {
    if (!on) await first.query(`ALTER TABLE checkout_sessions DISABLE TRIGGER ${TABLE_TRIGGER}`);
    const times: number[] = [];
    await Promise.all(
      clients.map(async (client, w) => {
        for (let i = 0; i < PER_WRITER; i += 1) {
          const memberId = memberIds[(w * PER_WRITER + i) % memberIds.length];
          const t0 = performance.now();
          await client.query('BEGIN');
          await client.query(
            `INSERT INTO checkout_sessions (id, member_id, offer_id, amount_total, currency, status, payment_status, consumed_at, consumed_by_context, created_at, updated_at)
             VALUES ($1, $2, 'plan_horizon_month', 4900, 'eur', 'complete', 'paid', now(), 'sub', now(), now())`,
            [`cs_bench_${tag}_${w}_${i}`, memberId],
          );
          await client.query('UPDATE members SET updated_at = now() WHERE id = $1', [memberId]);
          await client.query('COMMIT');
          times.push(performance.now() - t0);
        }
      }),
    );
    const held = await whileWritten();
    await first.query(`DELETE FROM checkout_sessions WHERE id LIKE $1`, [`cs_bench_${tag}_%`]);
    return { times, held };
  } finally {
    if (!on) await first.query(`ALTER TABLE checkout_sessions ENABLE TRIGGER ${TABLE_TRIGGER}`);
    await Promise.all(clients.map((client) => client.end()));
  }
}

/** The payments' totals kept against the lines summed whole (the migration's rebuild), today's day only. */
async function totalsHold(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `WITH today AS (SELECT (now() AT TIME ZONE 'Europe/Paris')::date AS day),
       rebuilt AS (
         SELECT p.offer_id, p.status, count(*)::bigint AS lines, sum(p.amount)::bigint AS amount
         FROM checkout_sessions s, billing_payment_line(s) p, today
         WHERE billing_owner_is_member(s.member_id) AND p.day = today.day GROUP BY 1, 2),
       kept AS (
         SELECT t.offer_id, t.status, t.lines, t.amount FROM billing_day_totals t, today WHERE t.source = 0 AND t.day = today.day)
       SELECT count(*)::int AS differ FROM ((TABLE rebuilt EXCEPT TABLE kept) UNION ALL (TABLE kept EXCEPT TABLE rebuilt)) d`,
    );
    return (rows[0] as { differ: number } | undefined)?.differ === 0;
  } finally {
    await client.end();
  }
}

/**
 * The two figures (triggers on, then the reference without them) and whether the totals held, in
 * and after the run with the triggers on (the lines added, then removed).
 */
export async function billingWriteFigures(databaseUrl: string): Promise<{ figures: WriteFigure[]; totalsHeld: boolean }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query(`SELECT id FROM members WHERE role = 'member' ORDER BY id LIMIT ${WRITERS * PER_WRITER}`);
  await client.end();
  const memberIds = rows.map((r: { id: string }) => r.id);
  const kept = await paidCheckouts(databaseUrl, memberIds, true, 'kept', () => totalsHold(databaseUrl));
  const reference = await paidCheckouts(databaseUrl, memberIds, false, 'reference');
  return {
    figures: [
      { name: `Payments written, ${WRITERS} at once, one day's totals kept`, times: kept.times },
      { name: `Payments written, ${WRITERS} at once, without the totals (reference)`, times: reference.times },
    ],
    totalsHeld: kept.held && (await totalsHold(databaseUrl)),
  };
}
