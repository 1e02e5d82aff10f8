import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { recordConsent } from '#bff/privacy/consents.ts';
import { type ActiveMember, startWithActiveMembers } from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * A richer matching profile over HTTP (issue 62 point 8, decision 208): the new answers are saved
 * (here through a change request applied by staff, the members being under contract), read back in
 * the member's export and on the staff's file, rank a candidate who shares a language above an
 * otherwise equal one, filter the candidates by language and school of thought, are refused or
 * erased with the sensitive-data consent, and are gone with the erasure.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let karim: ActiveMember;

type Candidate = {
  memberId: string;
  firstName: string | null;
  score: number;
  languages: string[];
  educationLevel: string | null;
  height: string | null;
  madhhab: string | null;
  hijab?: string | null;
  beard?: string | null;
  affinities: string[];
};
type Answer = { candidates: Candidate[] };
type ApiError = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };

const candidates = async (member: ActiveMember, query = '') =>
  staff.json<Answer>(staff.get(`/api/v1/dashboard/members/${member.id}/candidates${query ? `?${query}` : ''}`));
const names = (answer: Answer) => answer.candidates.map((c) => c.firstName);

async function storedProfile(m: ActiveMember): Promise<Record<string, unknown>> {
  const answers = await m.agent.json<{ profile: Record<string, unknown> }>(m.agent.get('/api/v1/user/answers'));
  const { sensitiveDataConsent: _consent, ...profile } = answers.profile;
  return profile;
}

/** The member asks (contract signed), staff apply: the new answers of step 1 saved. */
async function saveProfile(m: ActiveMember, changes: Record<string, unknown>, drop: readonly string[] = []): Promise<void> {
  const profile = { ...(await storedProfile(m)), ...changes };
  for (const field of drop) delete profile[field];
  const asked = await m.agent.post('/api/v1/user/change-requests', { section: 'profil', ...profile });
  const body = (await asked.json()) as { request: { id: number } };
  expect(asked.status, JSON.stringify(body)).toBe(201);
  const applied = await staff.post(`/api/v1/dashboard/change-requests/${body.request.id}`, { decision: 'apply' });
  expect(applied.status, await applied.clone().text()).toBe(200);
}

async function matchRow(memberId: string) {
  const result = (await product.database.db.execute(
    sql`SELECT languages, education_level, height_cm, madhhab, hijab, beard FROM match_profiles WHERE member_id = ${memberId}::uuid`,
  )) as unknown as {
    rows: {
      languages: string[];
      education_level: string | null;
      height_cm: number | null;
      madhhab: string | null;
      hijab: string | null;
      beard: string | null;
    }[];
  };
  return result.rows[0] ?? null;
}

beforeAll(async () => {
  let all: ActiveMember[];
  ({
    product,
    staff,
    members: all,
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
    ['Karim', 'homme', 32],
  ] as const));
  [amina, youssef, karim] = all as [ActiveMember, ActiveMember, ActiveMember];
}, 180_000);
afterAll(() => product.stop());

describe('the richer profile, saved and read', () => {
  it('members saved before have none of the new answers: the candidates read them fine', async () => {
    const before = await candidates(amina);
    expect(names(before).sort()).toEqual(['Karim', 'Youssef']);
    for (const c of before.candidates)
      expect(c).toMatchObject({ languages: [], educationLevel: null, height: null, madhhab: null, affinities: [] });
    // Otherwise equal: the same answers, the same score.
    expect(new Set(before.candidates.map((c) => c.score)).size).toBe(1);
  });

  it('the hijab is asked of a woman, the beard of a man: the other is refused in French, nothing saved', async () => {
    const profile = await storedProfile(youssef);
    const answer = await youssef.agent.post('/api/v1/user/change-requests', { section: 'profil', ...profile, hijab: 'oui' });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as ApiError;
    expect(body.error.issues).toEqual([{ path: 'hijab', message: 'La question du voile n’est posée qu’aux femmes' }]);
    const tooTall = await youssef.agent.post('/api/v1/user/change-requests', { section: 'profil', ...profile, heightCm: 300 });
    expect(tooTall.status).toBe(400);
    expect(((await tooTall.json()) as ApiError).error.issues?.[0]).toEqual({
      path: 'heightCm',
      message: 'Taille invalide (entre 130 et 230\u00a0cm)',
    });
    expect(await matchRow(youssef.id)).toMatchObject({ languages: [], height_cm: null });
  });

  it('saved, then in the export, on the staff’s file, and in the match profile', async () => {
    await saveProfile(amina, {
      languages: ['francais', 'arabe'],
      educationLevel: 'bac-5',
      heightCm: 165,
      hijab: 'parfois',
      madhhab: 'malikite',
    });
    await saveProfile(youssef, { languages: ['arabe'], heightCm: 181, beard: 'oui', madhhab: 'malikite' });
    await saveProfile(karim, { languages: ['anglais'], heightCm: 181, beard: 'non', madhhab: 'hanafite' });

    const exported = await amina.agent.json<{ profile: Record<string, unknown> }>(amina.agent.get('/api/v1/user/export'));
    expect(exported.profile).toMatchObject({
      languages: ['francais', 'arabe'],
      educationLevel: 'bac-5',
      heightCm: 165,
      hijab: 'parfois',
      madhhab: 'malikite',
    });
    const file = await staff.json<{ profile: Record<string, unknown> }>(staff.get(`/api/v1/dashboard/members/${youssef.id}`));
    expect(file.profile).toMatchObject({ languages: ['arabe'], heightCm: 181, beard: 'oui', madhhab: 'malikite' });
    expect(await matchRow(amina.id)).toEqual({
      languages: ['francais', 'arabe'],
      education_level: 'bac-5',
      height_cm: 165,
      madhhab: 'malikite',
      // Decision 212: copied for the staff's filters.
      hijab: 'parfois',
      beard: null,
    });
  });

  it('a shared language (and school) ranks a candidate above an otherwise equal one, either way round', async () => {
    const ranked = await candidates(amina);
    expect(names(ranked)).toEqual(['Youssef', 'Karim']);
    const [first, second] = ranked.candidates as [Candidate, Candidate];
    expect(first.score - second.score).toBe(3);
    expect(first).toMatchObject({
      languages: ['Arabe'],
      height: '1,81\u00a0m',
      madhhab: 'Malikite',
      affinities: ['Langue commune', 'Même école juridique'],
    });
    expect(second.affinities).toEqual([]);

    // The other way round: now Karim shares the language; the school alone keeps Youssef one point up, so give it to Karim too.
    await saveProfile(karim, { languages: ['arabe', 'anglais'], madhhab: 'malikite' });
    await saveProfile(youssef, { languages: ['anglais'] }, []);
    const swapped = await candidates(amina);
    expect(names(swapped)).toEqual(['Karim', 'Youssef']);
    expect(swapped.candidates[0]?.affinities).toEqual(['Langue commune', 'Même école juridique']);
    expect(swapped.candidates[1]?.affinities).toEqual(['Même école juridique']);
  });

  it('staff filter the candidates by language and by school of thought; an unknown one is a French 400', async () => {
    expect(names(await candidates(amina, 'langue=arabe'))).toEqual(['Karim']);
    expect(names(await candidates(amina, 'langue=anglais')).sort()).toEqual(['Karim', 'Youssef']);
    expect(names(await candidates(amina, 'langue=turc'))).toEqual([]);
    expect(names(await candidates(amina, 'madhhab=malikite')).sort()).toEqual(['Karim', 'Youssef']);
    expect(names(await candidates(amina, 'madhhab=hanafite'))).toEqual([]);
    const bad = await staff.get(`/api/v1/dashboard/members/${amina.id}/candidates?langue=klingon`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('Langue inconnue');
    const badSchool = await staff.get(`/api/v1/dashboard/members/${amina.id}/candidates?madhhab=jafarite`);
    expect(badSchool.status).toBe(400);
    expect(JSON.stringify(await badSchool.json())).toContain('École juridique inconnue');
  });
});

describe('staff’s filters on the rest of the richer profile (decision 212)', () => {
  it('level of education, height, and the hijab of women or the beard of men sought; bad values are French 400s', async () => {
    // Amina: bac + 5, 1,65 m, hijab « parfois »; Youssef: beard « oui », 1,81 m; Karim: beard « non », 1,81 m.
    expect(await matchRow(amina.id)).toMatchObject({ hijab: 'parfois', beard: null, education_level: 'bac-5', height_cm: 165 });
    expect(await matchRow(youssef.id)).toMatchObject({ beard: 'oui', hijab: null });
    expect(names(await candidates(amina, 'barbe=oui'))).toEqual(['Youssef']);
    expect(names(await candidates(amina, 'barbe=non'))).toEqual(['Karim']);
    expect(names(await candidates(youssef, 'voile=parfois'))).toEqual(['Amina']);
    expect(names(await candidates(youssef, 'voile=oui'))).toEqual([]);
    expect((await candidates(youssef)).candidates[0]).toMatchObject({ hijab: 'Parfois', beard: null });
    expect((await candidates(amina, 'barbe=oui')).candidates[0]).toMatchObject({ beard: 'Oui', hijab: null });
    expect(names(await candidates(youssef, 'etudes=bac-5'))).toEqual(['Amina']);
    expect(names(await candidates(youssef, 'etudes=bac'))).toEqual([]);
    expect(names(await candidates(youssef, 'tailleMin=160&tailleMax=170'))).toEqual(['Amina']);
    expect(names(await candidates(youssef, 'tailleMin=170'))).toEqual([]);
    expect(names(await candidates(youssef, 'tailleMax=164'))).toEqual([]);
    expect(names(await candidates(amina, 'tailleMin=181&tailleMax=181')).sort()).toEqual(['Karim', 'Youssef']);
    for (const [query, message] of [
      ['tailleMin=100', 'Au moins 130'],
      ['tailleMax=250', 'Au plus 230'],
      ['tailleMin=180&tailleMax=170', 'La taille minimale dépasse la taille maximale.'],
      ['voile=niqab', 'Réponse inconnue sur le voile'],
      ['barbe=longue', 'Réponse inconnue sur la barbe'],
      ['etudes=bac-12', 'Niveau d’études inconnu'],
    ]) {
      const bad = await staff.get(`/api/v1/dashboard/members/${amina.id}/candidates?${query}`);
      expect(bad.status, query).toBe(400);
      expect(JSON.stringify(await bad.json()), query).toContain(message);
    }
  });
});

describe('under the sensitive-data consent, and gone with the erasure', () => {
  it('the consent withdrawn: the beard and the school are removed, and none can be saved again', async () => {
    // The seed writes no consent record: the one given at step 1, as the onboarding hook records it.
    await recordConsent(product.database.db, { memberId: youssef.id, kind: 'sensitive_data', given: true, at: clock.now() });
    clock.advance(60_000);
    const withdrawn = await youssef.agent.post('/api/v1/user/consents/withdraw', { kind: 'sensitive_data' });
    expect(withdrawn.status, await withdrawn.clone().text()).toBe(200);
    const [row] = (
      (await product.database.db.execute(sql`SELECT profile FROM members WHERE id = ${youssef.id}::uuid`)) as unknown as {
        rows: { profile: Record<string, unknown> }[];
      }
    ).rows;
    expect(row?.profile).not.toHaveProperty('beard');
    expect(row?.profile).not.toHaveProperty('madhhab');
    expect(row?.profile).not.toHaveProperty('prayerPractice');
    // The ordinary answers stay.
    expect(row?.profile).toMatchObject({ languages: ['anglais'], heightCm: 181 });
    // No school of thought, hijab or beard left in matchmaking either (decision 212: staff can no longer filter on them).
    expect(await matchRow(youssef.id)).toMatchObject({ madhhab: null, beard: null, hijab: null });
    const { sensitiveDataConsent: _consent, ...kept } = row?.profile ?? {};
    const again = await youssef.agent.post('/api/v1/user/change-requests', {
      section: 'profil',
      ...kept,
      prayerPractice: 'reguliere',
      madhhab: 'malikite',
    });
    expect(again.status, await again.clone().text()).toBe(409);
    expect(((await again.json()) as ApiError).error.code).toBe('SENSITIVE_CONSENT_WITHDRAWN');
  });

  it('erased: no answer left in the member row, the match profile or the change requests', async () => {
    const erased = await amina.agent.post('/api/v1/user/erase', { email: amina.email });
    expect(erased.status, await erased.clone().text()).toBe(200);
    const left = (await product.database.db.execute(sql`
      SELECT (SELECT profile FROM members WHERE id = ${amina.id}::uuid) AS profile,
        (SELECT count(*)::int FROM match_profiles WHERE member_id = ${amina.id}::uuid) AS match_profiles,
        (SELECT count(*)::int FROM member_change_requests WHERE member_id = ${amina.id}::uuid) AS change_requests`)) as unknown as {
      rows: { profile: unknown; match_profiles: number; change_requests: number }[];
    };
    expect(left.rows[0]).toEqual({ profile: null, match_profiles: 0, change_requests: 0 });
  });
});
