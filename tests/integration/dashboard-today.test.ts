import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { fakeClock } from '#bff/clock.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import { startWithStaffForSuite, type StaffSession } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';

/**
 * « Aujourd’hui » (issue 63, decision 203): `GET /api/v1/dashboard/today` answers each group from
 * the rows that need a person, and « mine » keeps the members whose counsellor is the caller (and
 * the leads assigned to them or to nobody). One item of each group is seeded for a member of the
 * caller (« Mienne ») and one for a member of a colleague (« Autre »), plus items that are not due.
 */

const clock = fakeClock(new Date());
const HOUR = 3_600_000;
const at = (hours: number) => new Date(clock.now().getTime() + hours * HOUR);
const TODAY = parisDayOf(clock.now().getTime());
const dayAfter = (day: string, n: number) => parisDayOf(parisDayStartMs(day) + n * 24 * HOUR + 3 * HOUR);
const YESTERDAY = dayAfter(TODAY, -1);
const TOMORROW = dayAfter(TODAY, 1);
/** Tomorrow, 11:00 in Paris: a meeting of the two days whatever the hour now. */
const TOMORROW_11 = new Date(parisDayStartMs(TOMORROW) + 11 * HOUR);
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

type Item = {
  key: string;
  label: string;
  people: string[];
  at: string | null;
  day: string | null;
  overdue: boolean;
  link: Record<string, string>;
};
type Group = { id: string; total: number; items: Item[] };

async function today(scope?: string) {
  const response = await staff.agent.get(`/api/v1/dashboard/today${scope === undefined ? '' : `?scope=${scope}`}`);
  const body = (await response.json()) as { scope: string; groups: Group[]; error?: { message: string } };
  return { status: response.status, body };
}
/** The people of a group's items, sorted (items at the same instant come in no promised order). */
const peopleOf = (groups: Group[], id: string) => (groups.find((g) => g.id === id)?.items.flatMap((i) => i.people) ?? []).sort();

let n = 0;
async function person(firstName: string, counsellor: string | null) {
  n += 1;
  const { id } = await ensureAccount(adminClient(product.auth), product.database.db, {
    email: `${firstName.toLowerCase()}.today.${n}.${Date.now()}@example.fr`,
    password: 'bismillah-2026',
    kind: 'femme',
  });
  await product.database.db
    .update(members)
    .set({ profile: { firstName, lastName: 'Test' } })
    .where(eq(members.id, id));
  if (counsellor)
    await product.database.db.execute(
      sql`INSERT INTO member_counsellors (member_id, counsellor_id) VALUES (${id}::uuid, ${counsellor}::uuid)`,
    );
  return id;
}

async function introduction(a: string, b: string, state: string, context: Record<string, unknown>, deadline: Date) {
  const id = crypto.randomUUID();
  await product.database.db.execute(sql`INSERT INTO introductions (id, member_a, member_b, state, context, version, proposed_at, deadline_at)
    VALUES (${id}::uuid, ${a}::uuid, ${b}::uuid, ${state}, ${JSON.stringify(context)}::jsonb, 1, ${at(-24 * 6).toISOString()}::timestamptz, ${deadline.toISOString()}::timestamptz)`);
  return id;
}

/** One item of every group for `owner` (named `name`), assigned to `counsellor`. */
async function seedAll(name: string, counsellor: string) {
  const db = product.database.db;
  const owner = await person(name, counsellor);
  const partners = [await person(`${name}Un`, null), await person(`${name}Deux`, null), await person(`${name}Trois`, null)];
  // Tomorrow, 11:00 Paris: a meeting of the two days.
  await db.insert(bookings).values({
    inviteeUri: `https://calendly.test/invitees/${owner}`,
    memberId: owner,
    eventUri: `https://calendly.test/events/${owner}`,
    startTime: TOMORROW_11,
    endTime: new Date(TOMORROW_11.getTime() + HOUR / 4),
    status: 'active',
    kind: 'entretien-matchmaking',
    bookedAt: at(-48),
  });
  // The onboarding meeting was two hours ago, not noted yet.
  await db.execute(
    sql`UPDATE members SET onboarding = onboarding || ${JSON.stringify({
      onboardingMeetingDateSelected: true,
      onboardingMeetingReserved: true,
      onboardingMeetingDate: at(-2).toISOString(),
      onboardingMeetingDone: false,
    })}::jsonb WHERE id = ${owner}::uuid`,
  );
  const proposal = await introduction(
    owner,
    partners[0] as string,
    'proposee.acceptee-par-un',
    { answers: { a: { status: 'pending' }, b: { status: 'accepted' } } },
    at(-1),
  );
  const feedback = await introduction(
    owner,
    partners[1] as string,
    'retours',
    { meetingHeldAt: at(-30).toISOString(), feedback: { a: { outcome: 'continuer' }, b: null } },
    at(-24 * 20),
  );
  const firstMeeting = await introduction(
    owner,
    partners[2] as string,
    'rencontre-planifiee',
    { meeting: { at: at(-20).toISOString(), place: 'À l’agence' } },
    at(-24 * 20),
  );
  await db.execute(
    sql`INSERT INTO member_presentations (member_id, body, status) VALUES (${owner}::uuid, 'Ma présentation.', 'en-attente')`,
  );
  const lead = crypto.randomUUID();
  await db.execute(
    sql`INSERT INTO contact_messages (id, name, email, subject, message) VALUES (${lead}::uuid, ${`Prospect ${name}`}, 'p@example.fr', 'Renseignements', 'Bonjour')`,
  );
  await db.execute(
    sql`INSERT INTO lead_follow_ups (lead_id, kind, status, assignee_id, follow_up_on) VALUES (${lead}::uuid, 'contact', 'contacte', ${counsellor}::uuid, ${YESTERDAY}::date)`,
  );
  await db.execute(
    sql`INSERT INTO direct_messages (member_id, author_id, direction, subject, body) VALUES (${owner}::uuid, ${owner}::uuid, 'to_agency', 'Une question', 'Bonjour')`,
  );
  await db.execute(sql`INSERT INTO contract_terminations (member_id, requested_at, reason, explanation, due_by)
    VALUES (${owner}::uuid, ${at(-24 * 10).toISOString()}::timestamptz, 'demenagement', 'Je déménage.', ${at(24 * 50).toISOString()}::timestamptz)`);
  await db.execute(sql`INSERT INTO instalments (member_id, subscription_id, provider_invoice_id, offer_id, number, amount_cents, currency, status, failed_at, failures, created_at, updated_at)
    VALUES (${owner}::uuid, ${`sub_${owner}`}, ${`in_${owner}`}, 'plan_serenity_month', 3, 4500, 'eur', 'failed', ${at(-5).toISOString()}::timestamptz, 2, now(), now())`);
  await db.execute(
    sql`INSERT INTO checkout_sessions (id, member_id, amount_total, currency, status, payment_status) VALUES (${`cs_${owner}`}, ${owner}::uuid, 10000, 'eur', 'complete', 'paid')`,
  );
  await db.execute(sql`INSERT INTO refunds (member_id, checkout_session_id, reason, amount_cents, currency, paid_cents, kept_cents, requested_at, due_by, status, attempts)
    VALUES (${owner}::uuid, ${`cs_${owner}`}, 'withdrawal', 6000, 'eur', 10000, 4000, ${at(-24).toISOString()}::timestamptz, ${at(24 * 13).toISOString()}::timestamptz, 'pending', 0)`);
  return { owner, proposal, feedback, firstMeeting };
}

describe('GET /api/v1/dashboard/today', () => {
  it('answers every group, links each item to its screen, and keeps « mine » to the caller’s members and leads', async () => {
    const colleague = await ensureAccount(adminClient(product.auth), product.database.db, {
      email: `collegue.${Date.now()}@example.fr`,
      password: 'equipe-solide-2026',
      kind: 'staff',
      name: 'Collègue',
    });
    const mine = await seedAll('Mienne', staff.id);
    await seedAll('Autre', colleague.id);
    // Not due: a lead to call back tomorrow, a read message, an onboarding meeting still to come.
    const later = await person('Plustard', staff.id);
    const lead = crypto.randomUUID();
    const db = product.database.db;
    await db.execute(
      sql`INSERT INTO contact_messages (id, name, email, subject, message) VALUES (${lead}::uuid, 'Prospect Demain', 'd@example.fr', 'Plus tard', 'Bonjour')`,
    );
    await db.execute(
      sql`INSERT INTO lead_follow_ups (lead_id, kind, status, follow_up_on) VALUES (${lead}::uuid, 'contact', 'nouveau', ${TOMORROW}::date)`,
    );
    await db.execute(
      sql`INSERT INTO direct_messages (member_id, author_id, direction, subject, body, staff_read_at) VALUES (${later}::uuid, ${later}::uuid, 'to_agency', 'Lu', 'Déjà lu', now())`,
    );
    await db.execute(
      sql`UPDATE members SET onboarding = onboarding || ${JSON.stringify({ onboardingMeetingReserved: true, onboardingMeetingDate: at(3).toISOString() })}::jsonb WHERE id = ${later}::uuid`,
    );
    // An unassigned lead due today: in « mine » too.
    const free = crypto.randomUUID();
    await db.execute(
      sql`INSERT INTO contact_messages (id, name, email, subject, message) VALUES (${free}::uuid, 'Prospect Libre', 'l@example.fr', 'Adhésion', 'Bonjour')`,
    );
    await db.execute(
      sql`INSERT INTO lead_follow_ups (lead_id, kind, status, follow_up_on) VALUES (${free}::uuid, 'contact', 'nouveau', ${TODAY}::date)`,
    );

    const agency = await today('agency');
    expect(agency.status, JSON.stringify(agency.body)).toBe(200);
    const groups = agency.body.groups;
    expect(groups.map((g) => g.id)).toEqual([
      'meetings',
      'toValidate',
      'answers',
      'presentations',
      'leads',
      'messages',
      'terminations',
      'payments',
    ]);
    expect(peopleOf(groups, 'meetings')).toEqual(['Autre Test', 'Mienne Test']);
    expect(peopleOf(groups, 'toValidate')).toEqual([
      'Autre Test',
      'Autre Test',
      'AutreTrois Test',
      'Mienne Test',
      'Mienne Test',
      'MienneTrois Test',
    ]);
    expect(peopleOf(groups, 'answers')).toEqual([
      'Autre Test',
      'Autre Test',
      'AutreDeux Test',
      'AutreUn Test',
      'Mienne Test',
      'Mienne Test',
      'MienneDeux Test',
      'MienneUn Test',
    ]);
    expect(peopleOf(groups, 'presentations')).toEqual(['Autre Test', 'Mienne Test']);
    expect(peopleOf(groups, 'leads')).toEqual(['Prospect Autre', 'Prospect Libre', 'Prospect Mienne']);
    expect(peopleOf(groups, 'messages')).toEqual(['Autre Test', 'Mienne Test']);
    expect(peopleOf(groups, 'terminations')).toEqual(['Autre Test', 'Mienne Test']);
    expect(peopleOf(groups, 'payments')).toEqual(['Autre Test', 'Autre Test', 'Mienne Test', 'Mienne Test']);

    const items = (id: string) => groups.find((g) => g.id === id)?.items.filter((i) => i.people.includes('Mienne Test')) ?? [];
    expect(items('meetings')[0]).toMatchObject({
      label: 'Entretien de rapprochement',
      at: TOMORROW_11.toISOString(),
      link: { kind: 'member', memberId: mine.owner },
    });
    expect(items('toValidate').map((i) => i.link)).toEqual([
      { kind: 'introduction', introductionId: mine.firstMeeting },
      { kind: 'member', memberId: mine.owner, section: 'actions' },
    ]);
    const [proposal, feedback] = items('answers');
    expect(proposal).toMatchObject({ overdue: true, link: { kind: 'introduction', introductionId: mine.proposal } });
    expect(proposal?.label).toBe('Réponse à une proposition attendue');
    expect(feedback).toMatchObject({ label: 'Retour après la première rencontre attendu', link: { introductionId: mine.feedback } });
    expect((feedback as unknown as { detail: string }).detail).toContain('attendu de MienneDeux Test');
    expect(items('presentations')[0]?.link).toEqual({ kind: 'member', memberId: mine.owner, section: 'profil' });
    expect(groups.find((g) => g.id === 'leads')?.items.find((i) => i.people[0] === 'Prospect Mienne')).toMatchObject({
      day: YESTERDAY,
      overdue: true,
      link: { kind: 'leads' },
    });
    expect(groups.find((g) => g.id === 'leads')?.items.find((i) => i.people[0] === 'Prospect Libre')).toMatchObject({ overdue: false });
    expect(items('messages')[0]).toMatchObject({ label: '1 message non lu', link: { kind: 'messages', memberId: mine.owner } });
    expect(items('terminations')[0]).toMatchObject({ overdue: false, link: { kind: 'member', memberId: mine.owner, section: 'contrat' } });
    expect(items('payments').map((i) => [i.label, i.link.section])).toEqual([
      ['Mensualité n°\u00a03 échouée', 'paiements'],
      ['Remboursement à effectuer', 'paiements'],
    ]);

    // « mine »: the caller's members only, and the leads assigned to them or to nobody. It is the default.
    for (const scope of ['mine', undefined]) {
      const own = await today(scope);
      expect(own.status).toBe(200);
      expect(own.body.scope).toBe('mine');
      for (const g of own.body.groups)
        if (g.id !== 'leads')
          expect(
            g.items.flatMap((i) => i.people).filter((p) => p.startsWith('Autre')),
            g.id,
          ).toEqual([]);
      expect(peopleOf(own.body.groups, 'meetings')).toEqual(['Mienne Test']);
      expect(peopleOf(own.body.groups, 'leads')).toEqual(['Prospect Libre', 'Prospect Mienne']);
      expect(own.body.groups.every((g) => g.total === g.items.length && g.total > 0)).toBe(true);
    }
  });

  it('refuses an unknown scope in French and changes nothing', async () => {
    const { status, body } = await today('tout');
    expect(status).toBe(400);
    expect(JSON.stringify(body.error)).toContain('Portée inconnue');
  });
});
