import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { accessLog } from '#bff/db/access-log-schema.ts';
import { memberCounsellors, memberTags } from '#bff/db/follow-up-schema.ts';
import { directMessages } from '#bff/db/messages-schema.ts';
import { mailOutbox, members, onboardingEvents } from '#bff/db/schema.ts';
import type { Caller } from '#bff/auth/caller.ts';
import { EXPORT_CHUNK, memberListCsv } from '#bff/dashboard/member-list-export.ts';
import { MemberListFilterQuery } from '#bff/dashboard/member-list.ts';
import * as v from 'valibot';
import { type HomeRegion, regionOfPostcode } from '#machines/matching/regions.ts';
import { ageOn } from '#machines/onboarding/age.ts';
import { emptyRecord } from '#machines/onboarding/record.ts';
import { generatePopulation, insertMembers, type SeedMember } from '#tests/support/seed-population.ts';
import { signInStaff, type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';

/**
 * The member list for hundreds of members (issue 63 point 3, decision 210): every filter, sort and
 * page size answered by the database, checked against the same members filtered here; bulk actions
 * all or nothing, a counsellor's refused on another's members; the CSV export streamed and recorded.
 */

/** The product's clock stands still at the suite's start (sessions are signed against it). */
const NOW = new Date();
const clock = fakeClock(NOW);
let product: TestProduct;
let admin: StaffSession;
let counsellor: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff: admin } = started));

/** Active members with steps 1-2 (the seed), one of whom withdrew the sensitive-data consent, and five at step 1. */
let population: SeedMember[];
const withdrawn = { id: '' };
const newcomers: string[] = [];

interface Item {
  id: string;
  email: string;
  name: string | null;
  gender: string;
  age: number | null;
  region: { id: string; label: string } | null;
  top: string;
  counsellor: { id: string; name: string } | null;
  tags: string[];
}
interface Page {
  items: Item[];
  total: number;
  page: number;
  perPage: number;
  pageCount: number;
}

beforeAll(async () => {
  counsellor = await signInStaff(product, { staffRole: 'conseil' });
  await counsellor.passTotp();
  population = generatePopulation(40, 2026, NOW.getTime());
  // The first member withdrew the consent: their practice left the profile (bff/privacy/consents.ts).
  const first = population[0] as SeedMember;
  withdrawn.id = first.id;
  const { prayerPractice: _gone, ...withoutPractice } = first.profile;
  await insertMembers(product.database.db, [
    ...population.map((m, i) =>
      i === 0
        ? { id: m.id, email: m.email, gender: m.gender, onboarding: m.record, profile: withoutPractice, questionnaire: m.questionnaire }
        : { id: m.id, email: m.email, gender: m.gender, onboarding: m.record, profile: m.profile, questionnaire: m.questionnaire },
    ),
    ...Array.from({ length: 5 }, (_, i) => {
      const id = randomUUID();
      newcomers.push(id);
      const email = `nouveau.${i}@exemple.invalid`;
      const gender = i % 2 === 0 ? ('femme' as const) : ('homme' as const);
      // The first newcomer typed a practice without the consent (step 1 not sent): never found by it.
      const profile =
        i === 0 ? { firstName: 'Sans', lastName: 'Consentement', prayerPractice: population[0]?.profile.prayerPractice } : undefined;
      return { id, email, gender, onboarding: emptyRecord(id, email, gender), ...(profile && { profile }) };
    }),
  ]);
});

const list = async (query: string, agent = admin.agent) => {
  const response = await agent.get(`/api/v1/dashboard/members?${query}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Page;
};
const idsOf = (page: Page) => page.items.map((i) => i.id).sort();
const seeded = () => population.map((m, i) => ({ ...m, practice: i === 0 ? null : m.profile.prayerPractice }));

describe('filters, answered by the database', () => {
  it('gender, age range, region and practice give the members they name, and only them', async () => {
    const all = await list('perPage=100');
    expect(all.total).toBe(45);

    const women = await list('gender=femme&perPage=100');
    expect(women.total).toBe(seeded().filter((m) => m.gender === 'femme').length + 3);
    expect(women.items.every((i) => i.gender === 'femme')).toBe(true);

    const ageOf = (m: SeedMember) => ageOn(m.profile.birthDate, NOW.getTime()) as number;
    const aged = await list('ageMin=30&ageMax=40&perPage=100');
    expect(idsOf(aged)).toEqual(
      seeded()
        .filter((m) => ageOf(m) >= 30 && ageOf(m) <= 40)
        .map((m) => m.id)
        .sort(),
    );
    expect(aged.items.every((i) => i.age !== null && i.age >= 30 && i.age <= 40)).toBe(true);
    expect(idsOf(await list('ageMin=45&perPage=100'))).toEqual(
      seeded()
        .filter((m) => ageOf(m) >= 45)
        .map((m) => m.id)
        .sort(),
    );

    const regionOf = (m: SeedMember) => regionOfPostcode(m.profile.postcode) as HomeRegion;
    for (const region of new Set(population.map(regionOf))) {
      const page = await list(`region=${region}&perPage=100`);
      expect(idsOf(page), region).toEqual(
        seeded()
          .filter((m) => regionOf(m) === region)
          .map((m) => m.id)
          .sort(),
      );
      expect(page.items.every((i) => i.region?.id === region)).toBe(true);
    }

    // Practice: only members who consented and still hold the answer (the withdrawn one never appears).
    const practice = population[0]?.profile.prayerPractice as string;
    const practising = await list(`practice=${practice}&perPage=100`);
    expect(idsOf(practising)).toEqual(
      seeded()
        .filter((m) => m.practice === practice)
        .map((m) => m.id)
        .sort(),
    );
    expect(idsOf(practising)).not.toContain(withdrawn.id);
    expect(idsOf(practising)).not.toContain(newcomers[0]);
    // Never a column of the list.
    expect(JSON.stringify(practising.items)).not.toContain(practice);
    // The filter reads a column the record's every write keeps (migration 0057's trigger): the
    // consent taken back by an update, the member leaves it in the same statement; given again, back.
    const db = product.database.db;
    const one = practising.items[0]?.id as string;
    const [stored] = await db.select({ onboarding: members.onboarding }).from(members).where(eq(members.id, one));
    const record = stored?.onboarding as unknown as Record<string, unknown>;
    expect(record.sensitiveDataConsentAt).toBeTruthy();
    const { sensitiveDataConsentAt: _taken, ...withoutConsent } = record;
    await db
      .update(members)
      .set({ onboarding: withoutConsent as never })
      .where(eq(members.id, one));
    expect(idsOf(await list(`practice=${practice}&perPage=100`))).toEqual(idsOf(practising).filter((id) => id !== one));
    await db
      .update(members)
      .set({ onboarding: record as never })
      .where(eq(members.id, one));
    expect(idsOf(await list(`practice=${practice}&perPage=100`))).toEqual(idsOf(practising));

    // Combined, with the stage: step 1's newcomers have no birth date, so no age.
    const step1 = await list('step=profil&perPage=100');
    expect(idsOf(step1)).toEqual([...newcomers].sort());
    expect((await list('step=profil&ageMin=18')).total).toBe(0);
    const men = await list('gender=homme&perPage=100');
    const activeMen = await list('step=membre-actif&gender=homme&perPage=100');
    expect(activeMen.total).toBeGreaterThan(0);
    expect(idsOf(activeMen)).toEqual(idsOf({ ...men, items: men.items.filter((i) => i.top === 'membre-actif') }));
  });

  it('refuses a bad filter in French, never a 500', async () => {
    for (const query of [
      'gender=autre',
      'ageMin=12',
      'ageMin=40&ageMax=30',
      'region=atlantide',
      'practice=parfois',
      'sort=taille',
      'perPage=500',
    ]) {
      const response = await admin.agent.get(`/api/v1/dashboard/members?${query}`);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message, query).toMatch(/[a-zé]/i);
    }
    expect((await admin.agent.get('/api/v1/dashboard/members?ageMin=40&ageMax=30')).status).toBe(400);
  });

  it('sorts by name, age, stage and counsellor, and pages by 20, 50 or 100', async () => {
    const byAge = await list('sort=age&dir=asc&perPage=100');
    const ages = byAge.items.map((i) => i.age).filter((a): a is number => a !== null);
    expect(ages).toEqual([...ages].sort((a, b) => a - b));
    // Members without a birth date come last, whatever the order.
    expect(byAge.items.slice(-5).every((i) => i.age === null)).toBe(true);
    const byAgeDesc = await list('sort=age&dir=desc&perPage=100');
    const agesDesc = byAgeDesc.items.map((i) => i.age).filter((a): a is number => a !== null);
    expect(agesDesc).toEqual([...agesDesc].sort((a, b) => b - a));

    const byName = await list('sort=name&dir=asc&perPage=100');
    const names = byName.items.map((i) => (i.name ?? '').toLowerCase());
    expect(names[0] ?? '').toBe('');
    const named = names.filter(Boolean);
    const codePoint = [...named].sort();
    const collated = [...named].sort((a, b) => a.localeCompare(b, 'fr'));
    expect([codePoint, collated]).toContainEqual(named);

    const byStage = await list('sort=stage&dir=asc&perPage=100');
    // Step 1 (« profil ») comes before the active members.
    expect(byStage.items.slice(0, 5).every((i) => i.top === 'profil')).toBe(true);
    const byStageDesc = await list('sort=stage&dir=desc&perPage=100');
    expect(byStageDesc.items.slice(-5).every((i) => i.top === 'profil')).toBe(true);

    for (const perPage of [20, 50, 100]) {
      const page = await list(`perPage=${perPage}&page=2`);
      expect(page.perPage).toBe(perPage);
      expect(page.items.length).toBe(Math.max(0, Math.min(perPage, 45 - perPage)));
      expect(page.pageCount).toBe(Math.ceil(45 / perPage));
    }
    // Pages do not overlap and cover the list.
    const pages = await Promise.all([1, 2, 3].map((p) => list(`perPage=20&page=${p}&sort=name`)));
    expect(new Set(pages.flatMap((p) => p.items.map((i) => i.id))).size).toBe(45);
  });
});

describe('bulk actions', () => {
  const bulk = (agent: StaffSession['agent'], body: unknown) => agent.post('/api/v1/dashboard/member-list/bulk', body);

  it('the administration entrusts ten members to a counsellor, once: the list filters and sorts on it, the counsellor sees them', async () => {
    const first = await bulk(admin.agent, { action: 'conseiller', ids: ten(), counsellorId: counsellor.id });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ action: 'conseiller', changed: 10, unchanged: 0 });
    // Again: nothing changes, nothing is logged twice.
    const again = await bulk(admin.agent, { action: 'conseiller', ids: ten(), counsellorId: counsellor.id });
    expect(await again.json()).toEqual({ action: 'conseiller', changed: 0, unchanged: 10 });
    const events = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(and(inArray(onboardingEvents.memberId, ten()), eq(onboardingEvents.event, 'ASSIGN_COUNSELLOR')));
    expect(events.length).toBe(10);

    const theirs = await list(`counsellor=${counsellor.id}&perPage=100`);
    expect(idsOf(theirs)).toEqual([...ten()].sort());
    expect(theirs.items.map((i) => i.counsellor)).toEqual(ten().map(() => ({ id: counsellor.id, name: 'Équipe 2' })));
    expect((await list('counsellor=aucun&perPage=100')).total).toBe(35);
    const byCounsellor = await list('sort=counsellor&dir=asc&perPage=100');
    expect(byCounsellor.items.slice(0, 10).every((i) => i.counsellor !== null)).toBe(true);

    // The counsellor's list is their members, whatever the filters ask.
    expect(idsOf(await list('perPage=100', counsellor.agent))).toEqual([...ten()].sort());
    expect((await list('counsellor=aucun', counsellor.agent)).total).toBe(0);
  });

  it('sorts by counsellor in two parts read apart (decision 216): the entrusted first, then the others by name, whichever page', async () => {
    for (const dir of ['asc', 'desc']) {
      const whole = await list(`sort=counsellor&dir=${dir}&perPage=100`);
      expect(whole.total).toBe(45);
      expect(whole.items.slice(0, 10).every((i) => i.counsellor?.id === counsellor.id)).toBe(true);
      const rest = whole.items.slice(10);
      expect(rest.every((i) => i.counsellor === null)).toBe(true);
      // Those without a counsellor by their name (lower case, first name first), either way round.
      const names = rest.map((i) => (i.name ?? '').toLowerCase());
      expect([[...names].sort(), [...names].sort((a, b) => a.localeCompare(b, 'fr'))]).toContainEqual(names);
      // Pages of 7: the second straddles the two parts; together they are the whole list, in its order.
      const pages = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((p) => list(`sort=counsellor&dir=${dir}&perPage=7&page=${p}`)));
      expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(whole.items.map((i) => i.id));
      expect(pages.every((p) => p.total === 45)).toBe(true);
    }
    // Narrowed by a filter, the parts are the filter's.
    const women = await list('sort=counsellor&gender=femme&perPage=100');
    expect(women.items.every((i) => i.gender === 'femme')).toBe(true);
    expect(women.items.length).toBe(women.total);
  });

  it('a counsellor tags their members, is refused on another’s (nothing changed), and may not entrust members', async () => {
    const db = product.database.db;
    const other = population[20]?.id as string;
    const refused = await bulk(counsellor.agent, { action: 'etiquette', ids: [...ten(), other], tag: 'VIP' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error.message).toMatch(/n’est pas suivi par vous/);
    expect(await db.select().from(memberTags).where(eq(memberTags.tagKey, 'vip'))).toEqual([]);

    const entrust = await bulk(counsellor.agent, { action: 'conseiller', ids: ten(), counsellorId: null });
    expect(entrust.status).toBe(403);
    expect(((await entrust.json()) as { error: { code: string } }).error.code).toBe('ROLE_FORBIDDEN');
    expect((await db.select().from(memberCounsellors).where(inArray(memberCounsellors.memberId, ten()))).length).toBe(10);

    const tagged = await bulk(counsellor.agent, { action: 'etiquette', ids: ten(), tag: 'VIP' });
    expect(await tagged.json()).toEqual({ action: 'etiquette', changed: 10, unchanged: 0 });
    // The same tag in another case is the one they have: nothing added.
    expect(await (await bulk(admin.agent, { action: 'etiquette', ids: ten(), tag: 'vip' })).json()).toEqual({
      action: 'etiquette',
      changed: 0,
      unchanged: 10,
    });
    const page = await list('tag=vip&perPage=100');
    expect(idsOf(page)).toEqual([...ten()].sort());
    expect(page.items.every((i) => i.tags.includes('VIP'))).toBe(true);
  });

  it('sends each member a message from a template, filled with their first name, each with its notice; all or nothing', async () => {
    const db = product.database.db;
    const template = await admin.agent.json<{ id: number }>(
      admin.agent.post('/api/v1/dashboard/message-templates', {
        title: 'Relance groupée',
        subject: 'Des nouvelles, {prenom}',
        body: 'Bonjour {prenom}, avez-vous pu réfléchir à la proposition ?',
      }),
    );
    const three = population.slice(1, 4);
    const before = (await db.select().from(mailOutbox)).length;

    // One member unknown: nothing sent.
    const unknown = await bulk(admin.agent, { action: 'message', ids: [...three.map((m) => m.id), randomUUID()], templateId: template.id });
    expect(unknown.status).toBe(404);
    expect(
      await db
        .select()
        .from(directMessages)
        .where(
          inArray(
            directMessages.memberId,
            three.map((m) => m.id),
          ),
        ),
    ).toEqual([]);

    const sent = await bulk(counsellor.agent, { action: 'message', ids: three.map((m) => m.id), templateId: template.id });
    expect(await sent.json()).toEqual({ action: 'message', changed: 3, unchanged: 0 });
    const messages = await db
      .select()
      .from(directMessages)
      .where(
        inArray(
          directMessages.memberId,
          three.map((m) => m.id),
        ),
      );
    expect(messages.map((m) => m.body).sort()).toEqual(
      three.map((m) => `Bonjour ${m.profile.firstName}, avez-vous pu réfléchir à la proposition ?`).sort(),
    );
    expect(messages.every((m) => m.authorId === counsellor.id && m.mailId !== null)).toBe(true);
    const outbox = await db.select().from(mailOutbox);
    expect(outbox.length - before).toBe(3);
    // The notice never carries the message.
    expect(outbox.some((m) => m.textBody.includes('avez-vous pu réfléchir'))).toBe(false);
  });

  it('refuses a bad request in French, changing nothing', async () => {
    const cases: [unknown, number][] = [
      [{ action: 'supprimer', ids: ten() }, 400],
      [{ action: 'etiquette', ids: [], tag: 'A' }, 400],
      [{ action: 'etiquette', ids: Array.from({ length: 201 }, () => randomUUID()), tag: 'A' }, 400],
      [{ action: 'etiquette', ids: ['pas-un-id'], tag: 'A' }, 400],
      [{ action: 'etiquette', ids: ten(), tag: '<script>' }, 400],
      [{ action: 'message', ids: ten(), templateId: 999_999 }, 404],
      [{ action: 'conseiller', ids: ten(), counsellorId: population[30]?.id }, 422],
      [{ action: 'etiquette', ids: [admin.id], tag: 'A' }, 404],
    ];
    for (const [body, status] of cases) {
      const response = await bulk(admin.agent, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
    }
    expect(await product.database.db.select().from(memberTags).where(eq(memberTags.tagKey, 'a'))).toEqual([]);
  });
});

describe('the CSV export of the filtered list', () => {
  it('is the filtered list in French columns, streamed, without the practice; each export is recorded with its filters, the search as a length', async () => {
    const db = product.database.db;
    // More than one chunk (500 rows): bare members at step 1.
    await insertMembers(
      db,
      Array.from({ length: 1_100 }, (_, i) => ({ id: randomUUID(), gender: i % 2 === 0 ? ('femme' as const) : ('homme' as const) })),
    );
    const response = await admin.agent.get('/api/v1/dashboard/member-list/export?step=profil');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="membres-${NOW.toISOString().slice(0, 10)}.csv"`);
    // Chunked: the server never sent a length, it wrote as the database answered.
    expect(response.headers.get('content-length')).toBeNull();
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A byte-order mark first, for spreadsheet software.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Nom;E-mail;Sexe;Âge;Région;Étape;Conseiller·ère;Étiquettes;Inscription;Dernière activité;Compte');
    expect(lines.length).toBe(1 + 1_105);
    expect(new Set(lines).size).toBe(lines.length);

    const since = (await db.select({ id: accessLog.id }).from(accessLog)).reduce((max, r) => Math.max(max, r.id), 0);
    const filtered = await (
      await admin.agent.get(`/api/v1/dashboard/member-list/export?tag=VIP&gender=${population[1]?.gender}&q=exemple`)
    ).text();
    const rows = filtered.split('\r\n').filter(Boolean).slice(1);
    expect(rows.length).toBe(ten().filter((id) => population.find((m) => m.id === id)?.gender === population[1]?.gender).length);
    expect(rows.every((r) => r.includes(';Équipe 2;VIP;'))).toBe(true);
    for (const practice of ['cinq-prieres', 'Les cinq prières', 'Régulière', 'Occasionnelle']) expect(filtered).not.toContain(practice);
    // The same export again: recorded again (a copy leaving the tool, decision 210).
    await (await admin.agent.get(`/api/v1/dashboard/member-list/export?tag=VIP&gender=${population[1]?.gender}&q=exemple`)).text();
    const entries = (await db.select().from(accessLog).where(eq(accessLog.resource, 'member_export'))).filter((e) => e.id > since);
    expect(entries.length).toBe(2);
    expect(entries[0]?.memberId).toBeNull();
    expect(entries[0]?.detail).toBe(`tag=VIP&gender=${population[1]?.gender}&q=(7 caractères)`);

    // A counsellor exports their members only.
    const theirs = (await (await counsellor.agent.get('/api/v1/dashboard/member-list/export')).text()).split('\r\n').filter(Boolean);
    expect(theirs.length).toBe(11);
    // The journal names the colleague a filter names by id (staff read names, never ids).
    await (await admin.agent.get(`/api/v1/dashboard/member-list/export?counsellor=${counsellor.id}`)).text();
    const journal = await admin.agent.json<{ entries: { label: string; detail: string | null }[] }>(
      admin.agent.get('/api/v1/dashboard/access-journal?quoi=member_export'),
    );
    expect(journal.entries[0]?.label).toBe('Export de la liste des membres');
    expect(new URLSearchParams(journal.entries[0]?.detail ?? '').get('counsellor')).toBe('Équipe 2');
    // A bad filter: 400 in French, nothing recorded.
    const bad = await admin.agent.get('/api/v1/dashboard/member-list/export?region=atlantide');
    expect(bad.status).toBe(400);
    const after = (await db.select().from(accessLog).where(eq(accessLog.resource, 'member_export'))).filter((e) => e.id > since);
    expect(after.map((e) => e.staffId).sort()).toEqual([admin.id, admin.id, admin.id, counsellor.id].sort());
  });

  it('is one ordered pass in chunks: its lines are the list’s pages concatenated, by counsellor and by stage, whatever the chunk', async () => {
    const db = product.database.db;
    const [row] = await db.select().from(members).where(eq(members.id, admin.id));
    const staff = {
      id: admin.id,
      email: admin.email,
      role: 'staff',
      aal: 'aal2',
      sessionId: '',
      member: row,
      matchmakingPausedAt: null,
    } as Caller;
    const csv = async (query: Record<string, string>, chunk?: number) => {
      let text = '';
      for await (const part of memberListCsv(db, v.parse(MemberListFilterQuery, query), staff, NOW, chunk)) text += part;
      return text;
    };
    for (const query of <Record<string, string>[]>[
      { sort: 'counsellor', dir: 'asc' },
      { sort: 'counsellor', dir: 'desc' },
      { sort: 'stage', dir: 'asc' },
      { sort: 'stage', dir: 'desc', gender: 'femme' },
    ]) {
      const search = new URLSearchParams(query).toString();
      const first = await list(`${search}&perPage=100`);
      const pages = [
        first,
        ...(await Promise.all(Array.from({ length: first.pageCount - 1 }, (_, i) => list(`${search}&perPage=100&page=${i + 2}`)))),
      ];
      const listed = pages.flatMap((p) => p.items.map((i) => i.email));
      expect(listed.length).toBeGreaterThan(EXPORT_CHUNK);
      // Chunks of 7 (every chunk boundary, one inside the counsellor order's two parts) and of 500: the same bytes.
      const small = await csv(query, 7);
      expect(await csv(query)).toBe(small);
      const emails = small
        .split('\r\n')
        .filter(Boolean)
        .slice(1)
        .map((line) => line.split(';')[1]);
      expect(emails).toEqual(listed);
    }
  });
});

const ten = () => population.slice(1, 11).map((m) => m.id);
