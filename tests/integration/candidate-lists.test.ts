import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { CANDIDATES_RULE_TEXT, neverProposeRefusal } from '#machines/introductions/candidate-lists.ts';
import { MAX_OPEN_INTRODUCTIONS_PER_MEMBER } from '#machines/introductions/rules.ts';
import { type ActiveMember, startWithActiveMembers } from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * Candidates a matchmaker can work with over HTTP (issue 62 point 7, decision 201): staff's
 * filters (age, region, practice, family situation, children, counsellor), paging past the first
 * page, a shortlist per member, and « never propose these two » enforced by the server on the
 * candidates (both ways) and on the proposal.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let men: ActiveMember[];

type Candidate = { memberId: string; firstName: string | null; age: number | null; shortlisted: boolean };
type Answer = { page: number; perPage: number; hasMore: boolean; candidates: Candidate[] };
const candidates = async (member: ActiveMember, query = '') =>
  staff.json<Answer>(staff.get(`/api/v1/dashboard/members/${member.id}/candidates${query ? `?${query}` : ''}`));
const names = (answer: Answer) => answer.candidates.map((c) => c.firstName);

beforeAll(async () => {
  let all: ActiveMember[];
  ({
    product,
    staff,
    members: all,
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
    ['Karim', 'homme', 35],
    ['Omar', 'homme', 40],
    ['Bilal', 'homme', 45],
    ['Hamza', 'homme', 30],
  ] as const));
  [amina, ...men] = all as [ActiveMember, ...ActiveMember[]];
  const [youssef, karim, omar] = men as [ActiveMember, ActiveMember, ActiveMember];
  // Differences the filters can see (the seed gives everyone the same answers).
  const db = product.database.db;
  await db.execute(sql`UPDATE match_profiles SET region = 'auvergne-rhone-alpes' WHERE member_id = ${karim.id}::uuid`);
  await db.execute(sql`UPDATE match_profiles SET children_count = 2, marital_status = 'divorce' WHERE member_id = ${omar.id}::uuid`);
  await db.execute(sql`UPDATE match_profiles SET practice = 'cinq-prieres' WHERE member_id = ${youssef.id}::uuid`);
}, 180_000);
afterAll(() => product.stop());

describe('the candidates’ filters and paging', () => {
  it('filter by age, region, practice, family situation, children and counsellor; bad values are a French 400', async () => {
    const all = await candidates(amina);
    expect(names(all).sort()).toEqual(['Bilal', 'Hamza', 'Karim', 'Omar', 'Youssef']);
    expect(names(await candidates(amina, 'ageMin=34&ageMax=41')).sort()).toEqual(['Karim', 'Omar']);
    expect(names(await candidates(amina, 'region=auvergne-rhone-alpes'))).toEqual(['Karim']);
    expect(names(await candidates(amina, 'practice=cinq-prieres'))).toEqual(['Youssef']);
    expect(names(await candidates(amina, 'maritalStatus=divorce'))).toEqual(['Omar']);
    expect(names(await candidates(amina, 'enfants=avec'))).toEqual(['Omar']);
    expect(names(await candidates(amina, 'enfants=sans')).sort()).toEqual(['Bilal', 'Hamza', 'Karim', 'Youssef']);

    // Counsellor: staff take Hamza in charge; « aucun » is everyone else.
    const session = await staff.json<{ user: { id: string } }>(staff.get('/api/v1/auth/session'));
    const hamza = men[4] as ActiveMember;
    const assigned = await staff.request('PUT', `/api/v1/dashboard/members/${hamza.id}/counsellor`, { counsellorId: session.user.id });
    expect(assigned.status, await assigned.clone().text()).toBe(200);
    expect(names(await candidates(amina, `counsellor=${session.user.id}`))).toEqual(['Hamza']);
    expect(names(await candidates(amina, 'counsellor=aucun')).sort()).toEqual(['Bilal', 'Karim', 'Omar', 'Youssef']);

    for (const [query, message] of [
      ['enfants=peut-etre', 'Valeur attendue\u00a0: sans ou avec'],
      ['counsellor=quelqu-un', 'Conseiller inconnu'],
      ['page=0', 'Au moins 1'],
      ['region=atlantide', 'Région inconnue'],
    ] as const) {
      const response = await staff.get(`/api/v1/dashboard/members/${amina.id}/candidates?${query}`);
      expect(response.status, query).toBe(400);
      expect(JSON.stringify(await response.json()), query).toContain(message);
    }
  });

  it('pages past the first page, in the ranking’s order, and says whether more follow', async () => {
    const everyone = (await candidates(amina, 'limit=200')).candidates.map((c) => c.memberId);
    const pages: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const answer = await candidates(amina, `limit=2&page=${page}`);
      expect(answer.page).toBe(page);
      expect(answer.perPage).toBe(2);
      expect(answer.hasMore, `page ${page}`).toBe(page < 3);
      pages.push(...answer.candidates.map((c) => c.memberId));
    }
    expect(pages).toEqual(everyone);
    expect((await candidates(amina, 'limit=2&page=4')).candidates).toEqual([]);
  });

  it('explains who is left out with the rule itself (two open introductions at most)', () => {
    expect(CANDIDATES_RULE_TEXT).toContain(`déjà ${MAX_OPEN_INTRODUCTIONS_PER_MEMBER} mises en relation en cours (le maximum)`);
    expect(CANDIDATES_RULE_TEXT).not.toContain('dans une mise en relation en cours');
  });
});

describe('the shortlist', () => {
  it('adds, lists, marks in the candidates and removes; unknown people are 404, oneself 400', async () => {
    const [youssef, karim] = men as [ActiveMember, ActiveMember];
    const url = (other: string) => `/api/v1/dashboard/members/${amina.id}/shortlist/${other}`;
    expect((await staff.request('PUT', url(youssef.id))).status).toBe(200);
    clock.advance(1000);
    const added = await staff.request('PUT', url(karim.id));
    expect(added.status).toBe(200);
    // Twice: still once.
    expect((await staff.request('PUT', url(karim.id))).status).toBe(200);
    const list = await staff.json<{ shortlist: { memberId: string; name: string | null }[] }>(
      staff.get(`/api/v1/dashboard/members/${amina.id}/shortlist`),
    );
    expect(list.shortlist.map((e) => e.name).sort()).toEqual(['Karim Exemple', 'Youssef Exemple']);
    const marked = await candidates(amina);
    expect(
      marked.candidates
        .filter((c) => c.shortlisted)
        .map((c) => c.firstName)
        .sort(),
    ).toEqual(['Karim', 'Youssef']);

    expect((await staff.request('DELETE', url(youssef.id))).status).toBe(200);
    expect((await staff.request('DELETE', url(youssef.id))).status).toBe(404);
    expect((await staff.request('PUT', url('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await staff.request('PUT', url(amina.id))).status).toBe(400);
    const after = await staff.json<{ shortlist: { memberId: string }[] }>(staff.get(`/api/v1/dashboard/members/${amina.id}/shortlist`));
    expect(after.shortlist.map((e) => e.memberId)).toEqual([karim.id]);
    // A member never reads it.
    expect((await amina.agent.get(`/api/v1/dashboard/members/${amina.id}/shortlist`)).status).toBe(403);
  });
});

describe('never propose these two', () => {
  it('needs a reason; the pair leaves the candidates both ways and the shortlist; a proposal of it is refused in French', async () => {
    const [, karim, , bilal] = men as [ActiveMember, ActiveMember, ActiveMember, ActiveMember];
    const url = `/api/v1/dashboard/members/${amina.id}/never-propose`;
    const noReason = await staff.post(url, { otherId: karim.id, reason: '   ' });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(await noReason.json())).toContain('Écrivez pourquoi');
    expect((await staff.post(url, { otherId: amina.id, reason: 'Elle-même.' })).status).toBe(400);
    expect((await staff.post(url, { otherId: karim.id, reason: 'x', extra: 1 })).status).toBe(400);

    const added = await staff.post(url, { otherId: karim.id, reason: '  Cousins germains.  ' });
    expect(added.status, await added.clone().text()).toBe(201);
    const pairs = await staff.json<{ pairs: { memberId: string; name: string | null; reason: string }[] }>(staff.get(url));
    expect(pairs.pairs).toMatchObject([{ memberId: karim.id, name: 'Karim Exemple', reason: 'Cousins germains.' }]);
    // Karim's side lists it too.
    const his = await staff.json<{ pairs: { memberId: string }[] }>(staff.get(`/api/v1/dashboard/members/${karim.id}/never-propose`));
    expect(his.pairs.map((p) => p.memberId)).toEqual([amina.id]);

    // Out of the candidates both ways, out of the shortlist.
    expect(names(await candidates(amina))).not.toContain('Karim');
    expect((await candidates(karim)).candidates.map((c) => c.memberId)).not.toContain(amina.id);
    const shortlist = await staff.json<{ shortlist: unknown[] }>(staff.get(`/api/v1/dashboard/members/${amina.id}/shortlist`));
    expect(shortlist.shortlist).toEqual([]);

    // The proposal is refused, either order, nothing written.
    for (const body of [
      { a: amina.id, b: karim.id },
      { a: karim.id, b: amina.id },
    ]) {
      const refused = await staff.post('/api/v1/dashboard/introductions', body);
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(neverProposeRefusal('Cousins germains.'));
    }
    const written = await product.database.db.execute(
      sql`SELECT count(*)::int AS n FROM introductions WHERE member_a = ${amina.id}::uuid OR member_b = ${amina.id}::uuid`,
    );
    expect(((written as { rows: { n: number }[] }).rows[0] as { n: number }).n).toBe(0);

    // Another man is still proposed; removing the pair brings Karim back.
    clock.advance(60_000);
    expect((await staff.post('/api/v1/dashboard/introductions', { a: amina.id, b: bilal.id })).status).toBe(201);
    expect((await staff.request('DELETE', `${url}/${karim.id}`)).status).toBe(200);
    expect((await staff.request('DELETE', `${url}/${karim.id}`)).status).toBe(404);
    expect(names(await candidates(amina))).toContain('Karim');
    // A member reads none of it.
    expect((await amina.agent.get(url)).status).toBe(403);
    expect((await amina.agent.post(url, { otherId: karim.id, reason: 'x' })).status).toBe(403);
  });
});
