import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffToday } from '#bff/dashboard/today.ts';
import type { Database } from '#bff/db/database.ts';
import { parisDayOf } from '#machines/paris-time.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { formerStaffToday } from '#tests/support/today-oracle.ts';

/**
 * « Aujourd’hui » in bounded statements (decision 217) answers exactly what the former reading
 * (every row of each group, cut to 50 in JavaScript; `tests/support/today-oracle.ts`) answered:
 * for generated agencies whose groups hold from none to well over 50 items, spread over two
 * counsellors and nobody, the same groups, items, order and totals, for the agency and for « mine ».
 */

const NOW = Date.parse('2026-06-15T09:30:00Z');
const HOUR = 3_600_000;
const STAFF = [randomUUID(), randomUUID()] as const;

const who = fc.constantFrom<0 | 1 | null>(0, 1, null);
/** An instant within ±6 days of now, on the minute (ties happen, as at an agency). */
const offset = fc.integer({ min: -6 * 24 * 60, max: 6 * 24 * 60 });
const memberArb = fc.record({
  counsellor: who,
  meeting: fc.option(fc.record({ minutes: offset, done: fc.boolean(), renounced: fc.boolean() }), { freq: 2 }),
  presentation: fc.boolean(),
  messages: fc.array(fc.record({ minutes: offset, read: fc.boolean() }), { maxLength: 3 }),
  termination: fc.option(fc.record({ minutes: offset, decided: fc.boolean() }), { freq: 2 }),
  instalment: fc.option(fc.record({ minutes: offset, failed: fc.boolean(), failures: fc.integer({ min: 1, max: 3 }) }), { freq: 2 }),
  refund: fc.option(fc.record({ minutes: offset, status: fc.constantFrom('pending', 'failed', 'succeeded') }), { freq: 2 }),
  introduction: fc.option(
    fc.record({
      state: fc.constantFrom('proposee.attente-des-reponses', 'proposee.acceptee-par-un', 'retours', 'rencontre-planifiee', 'acceptee'),
      minutes: offset,
      pendingA: fc.boolean(),
    }),
    { freq: 2 },
  ),
  lead: fc.option(
    fc.record({
      days: fc.integer({ min: -5, max: 3 }),
      status: fc.constantFrom('nouveau', 'contacte', 'converti', 'sans_suite'),
      assignee: who,
    }),
    { freq: 2 },
  ),
});

type Member = typeof memberArb extends fc.Arbitrary<infer T> ? T : never;

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  for (const [i, id] of STAFF.entries())
    await database.db.execute(
      sql`INSERT INTO members (id, email, gender, role, staff_role, profile, onboarding) VALUES (${id}::uuid, ${`equipe.${i}@example.fr`}, 'staff', 'staff', 'conseil', ${JSON.stringify({ firstName: `Équipe${i}` })}::jsonb, '{}'::jsonb)`,
    );
});
afterAll(() => database.close());

const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

/** Rows as JSON, read back by `jsonb_to_recordset`: one statement per table whatever the size. */
const json = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;

async function seed(agency: Member[]) {
  const db = database.db;
  await db.execute(sql`DELETE FROM members WHERE role = 'member'`);
  await db.execute(sql`DELETE FROM contact_messages`);
  await db.execute(sql`DELETE FROM lead_follow_ups`);
  const ids = agency.map(() => randomUUID());
  const each = <T>(pick: (m: Member, id: string, i: number) => T | T[] | null) =>
    agency.flatMap((m, i) => pick(m, ids[i] as string, i) ?? []);
  const people = each((m, id, i) => ({
    id,
    email: `m${i}@example.fr`,
    gender: i % 2 === 0 ? 'femme' : 'homme',
    profile: i % 7 === 0 ? {} : { firstName: `Prénom${i % 13}`, lastName: 'Test' },
    onboarding: m.meeting
      ? {
          onboardingMeetingReserved: true,
          onboardingMeetingDate: at(m.meeting.minutes),
          onboardingMeetingDone: m.meeting.done,
          ...(m.meeting.renounced ? { contractRenouncedAt: at(-10) } : {}),
        }
      : {},
  }));
  await db.execute(sql`INSERT INTO members (id, email, gender, role, profile, onboarding)
    SELECT id, email, gender, 'member', profile, onboarding FROM jsonb_to_recordset(${json(people)}) AS x(id uuid, email text, gender text, profile jsonb, onboarding jsonb)`);
  const counsellors = each((m, id) => (m.counsellor === null ? null : { member: id, counsellor: STAFF[m.counsellor] }));
  await db.execute(sql`INSERT INTO member_counsellors (member_id, counsellor_id)
    SELECT member, counsellor FROM jsonb_to_recordset(${json(counsellors)}) AS x(member uuid, counsellor uuid)`);
  const presentations = each((m, id, i) => (m.presentation ? { id, at: at(-(i % 5) * 60) } : null));
  await db.execute(sql`INSERT INTO member_presentations (member_id, body, status, updated_at)
    SELECT id, 'Présentation.', 'en-attente', at FROM jsonb_to_recordset(${json(presentations)}) AS x(id uuid, at timestamptz)`);
  const messages = each((m, id, i) =>
    m.messages.map((message) => ({
      id,
      subject: `Sujet ${i}`,
      at: at(message.minutes),
      read: message.read ? at(message.minutes + 5) : null,
    })),
  );
  await db.execute(sql`INSERT INTO direct_messages (member_id, author_id, direction, subject, body, created_at, staff_read_at)
    SELECT id, id, 'to_agency', subject, 'Bonjour', at, read FROM jsonb_to_recordset(${json(messages)}) AS x(id uuid, subject text, at timestamptz, read timestamptz)`);
  const terminations = each((m, id) =>
    m.termination
      ? {
          id,
          requested: at(m.termination.minutes - 60 * 24 * 30),
          due: at(m.termination.minutes),
          decided: m.termination.decided ? at(0) : null,
        }
      : null,
  );
  await db.execute(sql`INSERT INTO contract_terminations (member_id, requested_at, reason, explanation, due_by, decision, decided_at)
    SELECT id, requested, 'demenagement', 'Je déménage.', due, CASE WHEN decided IS NULL THEN NULL ELSE 'accepted' END, decided
    FROM jsonb_to_recordset(${json(terminations)}) AS x(id uuid, requested timestamptz, due timestamptz, decided timestamptz)`);
  const instalments = each((m, id, i) =>
    m.instalment
      ? {
          id,
          n: 2 + (i % 5),
          failed: m.instalment.failed,
          at: at(m.instalment.minutes),
          failures: m.instalment.failed ? m.instalment.failures : 0,
        }
      : null,
  );
  await db.execute(sql`INSERT INTO instalments (member_id, subscription_id, provider_invoice_id, offer_id, number, amount_cents, currency, status, failed_at, failures, paid_at, created_at, updated_at)
    SELECT id, 'sub_' || id, 'in_' || id, 'plan_serenity_month', n, 4500, 'eur', CASE WHEN failed THEN 'failed' ELSE 'paid' END,
      CASE WHEN failed THEN at END, failures, CASE WHEN failed THEN NULL ELSE at END, now(), now()
    FROM jsonb_to_recordset(${json(instalments)}) AS x(id uuid, n int, failed boolean, at timestamptz, failures int)`);
  const refunds = each((m, id, i) => (m.refund ? { id, cents: 1000 + i, due: at(m.refund.minutes), status: m.refund.status } : null));
  await db.execute(sql`INSERT INTO checkout_sessions (id, member_id, amount_total, currency, status, payment_status)
    SELECT 'cs_' || id, id, 10000, 'eur', 'complete', 'paid' FROM jsonb_to_recordset(${json(refunds)}) AS x(id uuid)`);
  await db.execute(sql`INSERT INTO refunds (member_id, checkout_session_id, reason, amount_cents, currency, paid_cents, kept_cents, requested_at, due_by, status, attempts, completed_at)
    SELECT id, 'cs_' || id, 'withdrawal', cents, 'eur', 10000, 4000, ${at(-24 * 60)}::timestamptz, due, status,
      CASE WHEN status = 'pending' THEN 0 ELSE 1 END, CASE WHEN status = 'succeeded' THEN ${at(0)}::timestamptz END
    FROM jsonb_to_recordset(${json(refunds)}) AS x(id uuid, cents int, due timestamptz, status text)`);
  const leads = each((m, _id, i) =>
    m.lead
      ? {
          id: randomUUID(),
          name: i % 4 === 0 ? ' ' : `Prospect ${i}`,
          email: `p${i}@example.fr`,
          subject: i % 3 === 0 ? '' : 'Renseignements',
          status: m.lead.status,
          assignee: m.lead.assignee === null ? null : STAFF[m.lead.assignee],
          day: parisDayOf(NOW + m.lead.days * 24 * HOUR),
        }
      : null,
  );
  await db.execute(sql`INSERT INTO contact_messages (id, name, email, subject, message)
    SELECT id, name, email, subject, 'Bonjour' FROM jsonb_to_recordset(${json(leads)}) AS x(id uuid, name text, email text, subject text)`);
  await db.execute(sql`INSERT INTO lead_follow_ups (lead_id, kind, status, assignee_id, follow_up_on)
    SELECT id, 'contact', status, assignee, day FROM jsonb_to_recordset(${json(leads)}) AS x(id uuid, status text, assignee uuid, day date)`);
  // Introductions between neighbours (a pair once): proposals, feedback, first meetings, others.
  const introductions = each((m, id, i) => {
    const partner = ids[i + 1];
    if (!m.introduction || !partner || i % 2 === 1) return null;
    const { state, minutes, pendingA } = m.introduction;
    const context =
      state === 'retours'
        ? { meetingHeldAt: at(minutes - 60), feedback: { a: pendingA ? null : { outcome: 'continuer' }, b: null } }
        : state === 'rencontre-planifiee'
          ? { meeting: { at: at(minutes), place: 'À l’agence' } }
          : { answers: { a: { status: pendingA ? 'pending' : 'accepted' }, b: { status: 'pending' } } };
    return { id: randomUUID(), a: id, b: partner, state, context, deadline: at(minutes) };
  });
  await db.execute(sql`INSERT INTO introductions (id, member_a, member_b, state, context, version, proposed_at, deadline_at)
    SELECT id, a, b, state, context, 1, ${at(-24 * 60 * 8)}::timestamptz, deadline
    FROM jsonb_to_recordset(${json(introductions)}) AS x(id uuid, a uuid, b uuid, state text, context jsonb, deadline timestamptz)`);
}

describe('« Aujourd’hui » in bounded statements (decision 217)', () => {
  it('gives the former reading’s groups, items, order and totals, for the agency and for each counsellor', async () => {
    let big = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(memberArb, { minLength: 0, maxLength: 140, size: 'max' }), async (agency) => {
        await seed(agency);
        const now = new Date(NOW);
        for (const input of [
          { scope: 'agency' as const, staffId: STAFF[0] },
          { scope: 'mine' as const, staffId: STAFF[0] },
          { scope: 'mine' as const, staffId: STAFF[1] },
        ]) {
          const [bounded, former] = await Promise.all([
            staffToday(database.db, { ...input, now }),
            formerStaffToday(database.db, { ...input, now }),
          ]);
          expect(bounded).toEqual(former);
          if (bounded.some((g) => g.total > 50)) big += 1;
        }
      }),
      { numRuns: 6, seed: 64217, endOnFailure: true },
    );
    // The generation reached groups longer than a page (where the count and the cut matter).
    expect(big).toBeGreaterThan(0);
  }, 300_000);
});
