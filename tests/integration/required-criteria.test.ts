import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
import { members } from '#bff/db/schema.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { type ActiveMember, introductionsOf, startWithActiveMembers } from '#tests/support/active-member.ts';
import type { TestAgent, TestProduct } from '#tests/support/test-product.ts';

/**
 * Indispensable criteria over HTTP (issue 62, decision 193): a criterion a member marks as
 * indispensable keeps out of their candidates anyone who breaks it, and keeps them out of the
 * candidates of anyone they would break it for; staff propose outside it only with a written note
 * to that member (else a French 422, nothing written), and the member reads which criterion and
 * why, never a cross about the person proposed.
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let karim: ActiveMember;
let sarah: ActiveMember;

type Candidate = {
  memberId: string;
  firstName: string | null;
  familySituation: string;
  reasons: { criterion: string; side: string; verdict: string; met: boolean; required: boolean; reason: string }[];
  broken: { membre: string[]; candidat: string[] };
};
type View = {
  id: string;
  note: string | null;
  reasons: string[];
  outsideCriteria: string | null;
  other: { firstName: string | null; familySituation: string } | null;
};

/** Changes a member's stored answers (steps 1-2) and derives the match profile again, as an edit does. */
async function answers(m: ActiveMember, change: { profile?: Record<string, unknown>; questionnaire?: Record<string, unknown> }) {
  const db = product.database.db;
  const [row] = await db
    .select({ profile: members.profile, questionnaire: members.questionnaire })
    .from(members)
    .where(eq(members.id, m.id));
  await db
    .update(members)
    .set({
      profile: { ...(row?.profile as object), ...change.profile },
      questionnaire: { ...(row?.questionnaire as object), ...change.questionnaire },
    })
    .where(eq(members.id, m.id));
  expect((await upsertMatchProfile(db, m.id, clock.now().getTime()))?.available).toBe(true);
}

const candidatesOf = async (m: ActiveMember, outside = false) =>
  (
    await staff.json<{ candidates: Candidate[] }>(
      staff.get(`/api/v1/dashboard/members/${m.id}/candidates${outside ? '?horsCriteres=true' : ''}`),
    )
  ).candidates;

async function propose(body: Record<string, unknown>) {
  clock.advance(60_000);
  return staff.post('/api/v1/dashboard/introductions', body);
}

const introductionCount = async () =>
  Number(
    ((await product.database.db.execute(sql`SELECT count(*)::int AS n FROM introductions`)) as unknown as { rows: { n: number }[] }).rows[0]
      ?.n,
  );

beforeAll(async () => {
  const started = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 30],
    ['Youssef', 'homme', 32],
    ['Karim', 'homme', 34],
    ['Sarah', 'femme', 29],
  ] as const);
  product = started.product;
  staff = started.staff;
  [amina, youssef, karim, sarah] = started.members;
  // Amina: « Célibataire » only, and indispensable; every other criterion only wished.
  await answers(amina, {
    questionnaire: {
      soughtFamilySituations: ['celibataire'],
      wantsChildren: 'oui',
      readyToRelocate: true,
      requiredCriteria: ['situation-familiale'],
    },
  });
  // Karim: divorced, two children.
  await answers(karim, { profile: { maritalStatus: 'divorce', childrenCount: 2 }, questionnaire: { requiredCriteria: [] } });
  // Sarah: 29; Youssef wants 30–40 and marks it indispensable.
  await answers(youssef, { questionnaire: { soughtAgeMin: 30, soughtAgeMax: 40, requiredCriteria: ['age'] } });
  await answers(sarah, { questionnaire: { requiredCriteria: [] } });
}, 120_000);
afterAll(() => product?.stop());

describe('indispensable criteria exclude, both ways', () => {
  it('Amina (« Célibataire » only, indispensable) is offered Youssef, never Karim, divorced father; and Karim is never offered Amina', async () => {
    const forAmina = await candidatesOf(amina);
    expect(forAmina.map((c) => c.firstName)).toEqual(['Youssef']);
    expect(forAmina[0]?.broken).toEqual({ membre: [], candidat: [] });
    // Staff read each criterion's verdict, both ways; the sex is never one of them.
    const reasons = forAmina[0]?.reasons ?? [];
    expect(reasons.find((r) => r.criterion === 'situation-familiale' && r.side === 'membre')).toMatchObject({
      verdict: 'oui',
      required: true,
      reason: 'Célibataire, parmi les situations acceptées',
    });
    expect(reasons.map((r) => r.criterion)).not.toContain('sexe');

    // The other way round: Amina is not among Karim's candidates (her criterion, his list).
    expect((await candidatesOf(karim)).map((c) => c.firstName)).toEqual(['Sarah']);
  });

  it('staff’s other list: those outside an indispensable criterion, saying whose and which', async () => {
    const outside = await candidatesOf(amina, true);
    expect(outside.map((c) => c.firstName)).toEqual(['Karim']);
    expect(outside[0]?.broken).toEqual({ membre: ['Situation familiale'], candidat: [] });
    // Named in his gender, never « Divorcé(e) ».
    expect(outside[0]?.familySituation).toBe('Divorcé');
    // Sarah is outside Youssef's age range (his criterion): in neither of their lists, in both « outside » lists.
    expect((await candidatesOf(sarah)).map((c) => c.firstName)).toEqual(['Karim']);
    expect((await candidatesOf(sarah, true)).map((c) => [c.firstName, c.broken])).toEqual([['Youssef', { membre: [], candidat: ['Âge'] }]]);
  });
});

describe('proposing outside an indispensable criterion', () => {
  it('without a note to Amina saying why: a French 422 naming her criterion, nothing written', async () => {
    const before = await introductionCount();
    for (const body of [
      { a: amina.id, b: karim.id },
      { a: amina.id, b: karim.id, noteA: '   \n ' },
      // A note to Karim does not tell Amina anything.
      { a: amina.id, b: karim.id, noteB: 'Amina est infirmière à Paris.' },
    ]) {
      const response = await propose(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const { error } = (await response.json()) as { error: { code: string; message: string; criteria: unknown } };
      expect(error.code).toBe('REQUIRED_CRITERIA');
      expect(error.message).toContain('critères indispensables d’Amina (situation familiale)');
      expect(error.message).not.toMatch(/[a-z]-[a-z]/);
      expect(error.criteria).toEqual({ a: ['situation-familiale'], b: [] });
    }
    // The note's own bounds still hold (valibot: at most 2,000 characters): 400.
    expect((await propose({ a: amina.id, b: karim.id, noteA: 'x'.repeat(2001) })).status).toBe(400);
    expect(await introductionCount()).toBe(before);
  });

  it('the second side too: Youssef’s age range needs a note to him when Sarah is proposed', async () => {
    const response = await propose({ a: sarah.id, b: youssef.id, noteA: 'Youssef partage vos valeurs.' });
    expect(response.status).toBe(422);
    const { error } = (await response.json()) as { error: { message: string; criteria: unknown } };
    expect(error.message).toContain('critères indispensables de Youssef (âge)');
    expect(error.criteria).toEqual({ a: [], b: ['age'] });
  });

  it('with the note, proposed; Amina reads which criterion and her counsellor’s reason, no cross; Karim reads nothing of it', async () => {
    const reason = 'Karim est divorcé, sans lien avec ses valeurs : il partage tout le reste de ce que vous cherchez.';
    const response = await propose({ a: amina.id, b: karim.id, noteA: reason });
    expect(response.status, await response.clone().text()).toBe(201);
    const [forAmina] = await introductionsOf<View>(amina);
    expect(forAmina?.outsideCriteria).toBe('Cette proposition s’écarte de votre critère indispensable : situation familiale.');
    expect(forAmina?.note).toBe(reason);
    expect(forAmina?.other?.familySituation).toBe('Divorcé, 2 enfants');
    // Only what matches, in at most two sentences; never a cross about Karim.
    expect(forAmina?.reasons.length).toBeLessThanOrEqual(2);
    expect(forAmina?.reasons.join(' ')).toMatch(/^Il correspond à vos souhaits\s: /);
    expect(forAmina?.reasons.join(' ')).not.toMatch(/situation familiale|enfants,|ne correspond|✗/);
    const [forKarim] = await introductionsOf<View>(karim);
    expect(forKarim?.outsideCriteria).toBeNull();
    expect(forKarim?.note).toBeNull();
    expect(forKarim?.reasons[0]).toMatch(/^Elle correspond à vos souhaits\s: /);
    const [row] = await product.database.db.select().from(introductions).where(eq(introductions.memberA, amina.id));
    expect(row?.noteA).toBe(reason);
  });
});
