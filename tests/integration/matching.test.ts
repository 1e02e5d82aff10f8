import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { matchProfileOf, upsertMatchProfile, writeMatchProfiles } from '#bff/matching/candidates.ts';
import { rankCandidates } from '#bff/matching/ranking.ts';
import type { CandidateFilters } from '#bff/matching/store/ranking-sql.ts';
import { generatePopulation, insertMembers } from '#tests/support/seed-population.ts';
import { affinityPoints, brokenRequired, eligible, pairCriteria, pairScore, proposable } from '#machines/matching/criteria.ts';
import type { MatchProfile } from '#machines/matching/match-profile.ts';
import type { HomeRegion } from '#machines/matching/regions.ts';
import type { Beard, EducationLevel, Hijab } from '#machines/onboarding/forms.ts';
import { MATCHING_NOW, matchProfileArbitrary, smallDomain } from '#tests/support/match-profiles.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { MATCHING_P95_FLOOR_MS, matchingTable, measureMatching } from '../../scripts/bench/matching.ts';

/**
 * Candidates for a member (issue 22, decision 193): the SQL ranking of bff/matching/candidates.ts
 * held to the pure rules of machines/matching/criteria.ts over generated populations — never a
 * candidate that breaks an indispensable criterion of either side (each member marks their own),
 * every eligible one up to the limit in the order of the two-way score, exclusions and
 * unavailability respected; and staff's other list, exactly those outside an indispensable
 * criterion — on PGlite, or PostgreSQL when DATABASE_URL is set.
 * MATCHING_SCALE=1 adds the 10,000-member timing (p95 under 100 ms).
 */

const NOW = MATCHING_NOW;
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

async function resetWith(population: MatchProfile[]) {
  await database.db.execute(sql`DELETE FROM match_profiles`);
  await database.db.execute(sql`DELETE FROM members`);
  await insertMembers(
    database.db,
    population.map((p) => ({ id: p.memberId, gender: p.gender })),
  );
  await writeMatchProfiles(database.db, population);
}

/** What the ranking must answer, computed with the pure rules over the whole population. */
function expectedRanking(
  me: MatchProfile,
  population: MatchProfile[],
  limit: number,
  excluded: Set<string>,
  filters: CandidateFilters,
  outside = false,
) {
  const outsideRequired = (c: MatchProfile) => {
    const broken = brokenRequired(me, c, NOW);
    return broken.a.length + broken.b.length > 0;
  };
  return (
    population
      .filter((c) => c.memberId !== me.memberId && !excluded.has(c.memberId))
      .filter((c) => (outside ? proposable(me, c, NOW) && outsideRequired(c) : eligible(me, c, NOW)))
      .filter((c) => !filters.regions || filters.regions.includes(c.region))
      // Decision 212: level, height (an unknown height is left out), the hijab and the beard.
      .filter((c) => !filters.educationLevels || (c.educationLevel != null && filters.educationLevels.includes(c.educationLevel)))
      .filter(
        (c) =>
          (filters.heightMin === undefined && filters.heightMax === undefined) ||
          (c.heightCm != null && c.heightCm >= (filters.heightMin ?? 0) && c.heightCm <= (filters.heightMax ?? 999)),
      )
      .filter((c) => !filters.hijabs || (c.hijab != null && filters.hijabs.includes(c.hijab)))
      .filter((c) => !filters.beards || (c.beard != null && filters.beards.includes(c.beard)))
      .map((c) => ({ memberId: c.memberId, score: pairScore(me, c, NOW) }))
      .filter((c) => c.score >= (filters.minScore ?? 0))
      .sort((x, y) => y.score - x.score || (x.memberId < y.memberId ? -1 : x.memberId > y.memberId ? 1 : 0))
      .slice(0, limit)
  );
}

const populationArbitrary = fc
  .uniqueArray(matchProfileArbitrary(smallDomain, NOW), { minLength: 2, maxLength: 40, selector: (p) => p.memberId })
  .map((population) => population.map((p) => ({ ...p, memberId: p.memberId.toLowerCase() })));

const availableAtNow = (me: MatchProfile) => me.available && (me.contractEndsAt === null || me.contractEndsAt > NOW);

/**
 * One generated population (fixed seed) where one of the first four members has at least two
 * eligible candidates: given first with a limit of 1, it always exercises the truncation, whatever
 * the random runs after it draw.
 */
const densePopulation = fc
  .sample(populationArbitrary, { seed: 2026, numRuns: 500 })
  .find((population) =>
    population.slice(0, 4).some((me) => availableAtNow(me) && expectedRanking(me, population, 99, new Set(), {}).length >= 2),
  );

describe('rankCandidates over generated populations', () => {
  it('never a candidate breaking an indispensable criterion of either side: exactly the eligible ones, best score first, up to the limit', async () => {
    expect(densePopulation, 'a population with several eligible candidates').toBeDefined();
    let eligibleSeen = 0;
    let truncatedSeen = 0;
    let heightWishSeen = 0;
    const outsideSeen = { membre: 0, candidat: 0 };
    await fc.assert(
      fc.asyncProperty(
        populationArbitrary,
        fc.integer({ min: 1, max: 12 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(fc.uniqueArray(fc.constantFrom<HomeRegion>(...smallDomain.regions), { minLength: 1 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 24 }), { nil: undefined, freq: 4 }),
        fc.option(
          fc.oneof(
            fc.record({ educationLevels: fc.uniqueArray(fc.constantFrom<EducationLevel>('bac', 'bac-5', 'doctorat'), { minLength: 1 }) }),
            fc.record({ heightMin: fc.constantFrom(160, 170, 180) }),
            fc.record({ heightMax: fc.constantFrom(170, 185) }),
            fc.record({ heightMin: fc.constantFrom(160, 170), heightMax: fc.constantFrom(180, 230) }),
            fc.record({ hijabs: fc.uniqueArray(fc.constantFrom<Hijab>('oui', 'parfois', 'non'), { minLength: 1 }) }),
            fc.record({ beards: fc.uniqueArray(fc.constantFrom<Beard>('oui', 'non'), { minLength: 1 }) }),
          ),
          { nil: undefined, freq: 4 },
        ),
        async (population, limit, excludeShare, regions, minScore, narrower) => {
          await resetWith(population);
          for (const me of population.slice(0, 4)) {
            const excluded = new Set(population.filter((_, i) => (i * 0.618 + excludeShare) % 1 < excludeShare / 2).map((p) => p.memberId));
            excluded.delete(me.memberId);
            const filters: CandidateFilters = {
              ...(regions ? { regions } : {}),
              ...(minScore !== undefined ? { minScore } : {}),
              ...narrower,
            };
            const ranking = await rankCandidates(database.db, me.memberId, { limit, excludeMemberIds: [...excluded], filters, now: NOW });
            if (!availableAtNow(me)) {
              expect(ranking.candidates).toEqual([]);
              continue;
            }
            for (const candidate of ranking.candidates) {
              const other = population.find((p) => p.memberId === candidate.memberId) as MatchProfile;
              // Both sides: none of the member's indispensable criteria broken by the candidate, nor the candidate's by the member.
              expect(brokenRequired(me, other, NOW)).toEqual({ a: [], b: [] });
              expect(brokenRequired(other, me, NOW)).toEqual({ a: [], b: [] });
              expect(candidate.broken).toEqual({ membre: [], candidat: [] });
              expect(excluded.has(candidate.memberId)).toBe(false);
              expect(candidate.profile).toEqual(other);
              // Its reasons: every criterion both ways, their points and the pair's affinities (decision 208) adding up to the SQL's score.
              expect(candidate.reasons).toEqual(pairCriteria(me, other, NOW));
              expect(candidate.reasons.filter((r) => r.required).every((r) => r.met)).toBe(true);
              expect(candidate.reasons.reduce((sum, r) => sum + r.points, 0) + affinityPoints(me, other)).toBe(candidate.score);
              if (candidate.reasons.some((r) => r.criterion === 'taille' && r.verdict !== 'indifferent')) heightWishSeen += 1;
            }
            const expected = expectedRanking(me, population, limit, excluded, filters);
            // Which of decision 212's filters narrowed this answer (each must, somewhere in the runs).
            eligibleSeen += expected.length;
            if (expected.length === limit) truncatedSeen += 1;

            // Staff's other list: exactly those outside an indispensable criterion, each saying which.
            const outside = await rankCandidates(database.db, me.memberId, {
              limit,
              excludeMemberIds: [...excluded],
              filters,
              now: NOW,
              outsideRequired: true,
            });
            expect(outside.candidates.map((c) => ({ memberId: c.memberId, score: c.score }))).toEqual(
              expectedRanking(me, population, limit, excluded, filters, true),
            );
            for (const candidate of outside.candidates) {
              expect(candidate.broken.membre.length + candidate.broken.candidat.length).toBeGreaterThan(0);
              if (candidate.broken.membre.length > 0) outsideSeen.membre += 1;
              if (candidate.broken.candidat.length > 0) outsideSeen.candidat += 1;
            }
          }
        },
      ),
      {
        numRuns: Number(process.env.MATCHING_RUNS ?? 40),
        // A fixed seed (MATCHING_SEED explores others): the coverage checks below count what the
        // generated cases exercised, and one unlucky draw of 40 once fell short (14 eligible).
        seed: Number(process.env.MATCHING_SEED ?? 2026),
        examples: densePopulation ? [[densePopulation, 1, 0, undefined, undefined, undefined]] : [],
      },
    );
    // The generated populations did exercise the ranking (not only empty answers), and both sides' criteria excluded someone.
    expect(eligibleSeen).toBeGreaterThan(20);
    expect(truncatedSeen).toBeGreaterThan(0);
    // Decision 212: the wished height was judged (and scored by the SQL as by the rules) on ranked candidates.
    expect(heightWishSeen).toBeGreaterThan(0);
    expect(outsideSeen.membre).toBeGreaterThan(0);
    expect(outsideSeen.candidat).toBeGreaterThan(0);
  });

  it('staff’s filters on level, height, hijab and beard (decision 212) narrow exactly as the rules say', async () => {
    const filterCases: CandidateFilters[] = [
      { educationLevels: ['bac-5'] },
      { educationLevels: ['bac', 'doctorat'] },
      { heightMin: 170 },
      { heightMax: 170 },
      { heightMin: 160, heightMax: 175 },
      { hijabs: ['oui'] },
      { hijabs: ['parfois', 'non'] },
      { beards: ['oui'] },
      { beards: ['non'] },
    ];
    // Populations where one of the first members has many eligible candidates, so that every filter has something to narrow.
    const dense = fc
      .sample(populationArbitrary, { seed: 212, numRuns: 400 })
      .flatMap((population) =>
        population
          .slice(0, 4)
          .filter((me) => availableAtNow(me) && expectedRanking(me, population, 99, new Set(), {}).length >= 4)
          .map((me) => ({ population, me })),
      )
      .slice(0, 6);
    expect(dense.length).toBeGreaterThan(3);
    const narrowed = new Set<string>();
    for (const { population, me } of dense) {
      await resetWith(population);
      const all = expectedRanking(me, population, 99, new Set(), {});
      for (const filters of filterCases) {
        const ranking = await rankCandidates(database.db, me.memberId, { limit: 99, filters, now: NOW });
        const expected = expectedRanking(me, population, 99, new Set(), filters);
        expect(
          ranking.candidates.map((c) => ({ memberId: c.memberId, score: c.score })),
          JSON.stringify(filters),
        ).toEqual(expected);
        if (expected.length < all.length) narrowed.add(Object.keys(filters).join('+'));
      }
    }
    // Each filter did leave someone out somewhere (an unknown height, level or answer is left out too).
    expect([...narrowed].sort()).toEqual(['beards', 'educationLevels', 'heightMax', 'heightMin', 'heightMin+heightMax', 'hijabs']);
  });

  it('an unknown member, or one without a profile, has no candidates', async () => {
    await resetWith([]);
    const ranking = await rankCandidates(database.db, '00000000-0000-4000-8000-000000000000', { now: NOW });
    expect(ranking).toEqual({ member: null, candidates: [] });
  });
});

describe('upsertMatchProfile and the members trigger', () => {
  it('derives the profile from steps 1-2 and the state; pausing, disabling, erasing withdraw the member', async () => {
    await database.db.execute(sql`DELETE FROM match_profiles`);
    await database.db.execute(sql`DELETE FROM members`);
    const [seeded] = generatePopulation(1, 7, NOW);
    if (!seeded) throw new Error('membre attendu');
    await insertMembers(database.db, [
      { id: seeded.id, gender: seeded.gender, onboarding: seeded.record, profile: seeded.profile, questionnaire: seeded.questionnaire },
    ]);
    // Active since an event of the log: the term runs for the plan's months from it.
    await database.db.execute(sql`INSERT INTO onboarding_events (member_id, context, event, payload, from_state, to_state, actor_role, version, created_at)
      VALUES (${seeded.id}::uuid, 'meeting_mm', 'meeting_mm', '{}'::jsonb, 'attente', 'membre-actif', 'staff', 1, ${new Date(NOW - 10 * 86_400_000).toISOString()}::timestamptz)`);
    const profile = await upsertMatchProfile(database.db, seeded.id, NOW);
    expect(profile?.available).toBe(true);
    expect(profile?.birthDate).toBe(seeded.profile.birthDate);
    expect(profile?.contractEndsAt).toBeGreaterThan(NOW);
    expect(await matchProfileOf(database.db, seeded.id)).toEqual(profile);

    // Not yet active: the matchmaking meeting has not been held.
    await database.db.execute(
      sql`UPDATE members SET onboarding = ${JSON.stringify({ ...seeded.record, matchmakingMeetingDone: false })}::jsonb WHERE id = ${seeded.id}::uuid`,
    );
    expect((await upsertMatchProfile(database.db, seeded.id, NOW))?.unavailableReason).toBe('pas-encore-actif');
    await database.db.execute(sql`UPDATE members SET onboarding = ${JSON.stringify(seeded.record)}::jsonb WHERE id = ${seeded.id}::uuid`);
    expect((await upsertMatchProfile(database.db, seeded.id, NOW))?.available).toBe(true);

    // Consent withdrawn: the trigger withdraws the member at once, and the upsert agrees.
    await database.db.execute(sql`UPDATE members SET matchmaking_paused_at = now() WHERE id = ${seeded.id}::uuid`);
    expect((await matchProfileOf(database.db, seeded.id))?.unavailableReason).toBe('mise-en-relation-suspendue');
    expect((await upsertMatchProfile(database.db, seeded.id, NOW))?.unavailableReason).toBe('mise-en-relation-suspendue');
    await database.db.execute(sql`UPDATE members SET matchmaking_paused_at = NULL WHERE id = ${seeded.id}::uuid`);
    expect((await upsertMatchProfile(database.db, seeded.id, NOW))?.available).toBe(true);

    await database.db.execute(sql`UPDATE members SET disabled = true WHERE id = ${seeded.id}::uuid`);
    expect((await matchProfileOf(database.db, seeded.id))?.unavailableReason).toBe('desactive');
    await database.db.execute(sql`UPDATE members SET disabled = false WHERE id = ${seeded.id}::uuid`);
    expect((await upsertMatchProfile(database.db, seeded.id, NOW))?.available).toBe(true);

    // After the term: contract ended, seen at ranking time without any write.
    const later = (profile?.contractEndsAt ?? NOW) + 1;
    expect((await rankCandidates(database.db, seeded.id, { now: later })).candidates).toEqual([]);
    expect((await upsertMatchProfile(database.db, seeded.id, later))?.unavailableReason).toBe('contrat-termine');
    await upsertMatchProfile(database.db, seeded.id, NOW);

    // Step 2 gone (retention) or erasure: the row, which holds sensitive data, is deleted.
    await database.db.execute(sql`UPDATE members SET questionnaire = NULL WHERE id = ${seeded.id}::uuid`);
    expect(await matchProfileOf(database.db, seeded.id)).toBeNull();
    expect(await upsertMatchProfile(database.db, seeded.id, NOW)).toBeNull();
    await database.db.execute(
      sql`UPDATE members SET questionnaire = ${JSON.stringify(seeded.questionnaire)}::jsonb WHERE id = ${seeded.id}::uuid`,
    );
    expect((await upsertMatchProfile(database.db, seeded.id, NOW))?.available).toBe(true);
    await database.db.execute(sql`UPDATE members SET erased_at = now() WHERE id = ${seeded.id}::uuid`);
    expect(await matchProfileOf(database.db, seeded.id)).toBeNull();
    expect(await upsertMatchProfile(database.db, seeded.id, NOW)).toBeNull();
  });

  it('the pool index drives the hard filter (no scan of every profile)', async () => {
    await database.db.execute(sql`DELETE FROM match_profiles`);
    await database.db.execute(sql`DELETE FROM members`);
    const { seedPopulation } = await import('#tests/support/seed-population.ts');
    await seedPopulation(database.db, 2_000, 3, NOW);
    await database.exec('ANALYZE match_profiles');
    const plan = (await database.db.execute(
      sql`EXPLAIN SELECT member_id FROM match_profiles c WHERE c.available AND c.gender = 'femme'
        AND c.birth_date > '1994-01-01' AND c.birth_date <= '1996-01-01' AND c.age_min <= 30 AND c.age_max >= 30`,
    )) as unknown as { rows: Record<string, string>[] };
    const text = plan.rows.map((row) => Object.values(row)[0]).join('\n');
    expect(text).toMatch(/match_profiles_pool_idx/);
    expect(text).not.toMatch(/Seq Scan/);
  });
});

describe.runIf(process.env.MATCHING_SCALE === '1')('at scale (MATCHING_SCALE=1)', () => {
  it(`ranks among 10,000 active members within ${MATCHING_P95_FLOOR_MS} ms at the 95th percentile`, async () => {
    await database.db.execute(sql`DELETE FROM match_profiles`);
    await database.db.execute(sql`DELETE FROM members`);
    const figures = await measureMatching(database, 10_000, 200);
    console.log(matchingTable([figures]));
    expect(figures.meanCandidates).toBeGreaterThan(1);
    expect(figures.p95).toBeLessThan(MATCHING_P95_FLOOR_MS);
  }, 180_000);
});
