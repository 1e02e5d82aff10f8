import { sql } from 'drizzle-orm';
import { TODAY_GROUP_IDS } from '#machines/staff/today-groups.ts';
import { describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { fakeClock } from '#bff/clock.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { signInStaff, startWithStaffForSuite, type StaffSession } from '#tests/support/staff.ts';
import { todayClock, todaySeeder } from '#tests/support/today-seed.ts';
import type { TestProduct } from '#tests/support/test-product.ts';

/**
 * « Aujourd’hui » (issue 63, decision 203): `GET /api/v1/dashboard/today` answers each group from
 * the rows that need a person, and « mine » keeps the members whose counsellor is the caller (and
 * the leads assigned to them or to nobody). One item of each group is seeded for a member of the
 * caller (« Mienne ») and one for a member of a colleague (« Autre »), plus items that are not due.
 */

const clock = fakeClock(new Date());
const { at, TODAY, YESTERDAY, TOMORROW, TOMORROW_11 } = todayClock(clock.now().getTime());
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

/** The seeding, on the product once started. */
const person = (name: string, counsellor: string | null) => todaySeeder(product, clock.now().getTime()).person(name, counsellor);
const seedAll = (name: string, counsellor: string) => todaySeeder(product, clock.now().getTime()).seedAll(name, counsellor);

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
    // The dashboard draws these places before the answer comes (today-frame.tsx): the same order.
    expect(groups.map((g) => g.id)).toEqual([...TODAY_GROUP_IDS]);
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
    expect((feedback as unknown as { detail: string }).detail).toContain('retour attendu\u00a0: MienneDeux Test');
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

  it('a counsellor’s day is always their own members’, whatever scope they ask (decision 206)', async () => {
    const counsellor = await signInStaff(product, { staffRole: 'conseil' });
    await counsellor.passTotp();
    await seedAll('Suivie', counsellor.id);
    const response = await counsellor.agent.get('/api/v1/dashboard/today?scope=agency');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { scope: string; groups: Group[] };
    expect(body.scope).toBe('mine');
    expect(peopleOf(body.groups, 'presentations')).toEqual(['Suivie Test']);
    expect(peopleOf(body.groups, 'messages')).toEqual(['Suivie Test']);
  });

  it('refuses an unknown scope in French and changes nothing', async () => {
    const { status, body } = await today('tout');
    expect(status).toBe(400);
    expect(JSON.stringify(body.error)).toContain('Portée inconnue');
  });
});
