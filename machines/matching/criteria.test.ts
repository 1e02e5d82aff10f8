import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  availableAt,
  birthDateBounds,
  type CriterionResult,
  criteria,
  hardCriteria,
  hardCriteriaIds,
  hardCriteriaMet,
  MAX_SCORE,
  type MatchProfile,
  practicesAcceptedFor,
  profileFromOnboarding,
  regionsAcceptedFor,
  softScore,
  unavailableReasonOf,
} from '#machines/matching/criteria.ts';
import { homeRegions, regionOfPostcode, samplePostcode } from '#machines/matching/regions.ts';
import { ageOn } from '#machines/onboarding/forms.ts';
import { MATCHING_NOW, matchProfileArbitrary, wideDomain } from '#tests/support/match-profiles.ts';

const NOW = MATCHING_NOW;

const amina = {
  firstName: 'Amina',
  lastName: 'Benali',
  birthDate: '1995-03-14',
  phone: '+33612345678',
  postcode: '75011',
  city: 'Paris',
  maritalStatus: 'celibataire',
  childrenCount: 0,
  profession: 'Pharmacienne',
  prayerPractice: 'cinq-prieres',
  practiceDetails: '',
  sensitiveDataConsent: true,
};
const aminaSeeks = {
  soughtPractice: 'reguliere',
  soughtAgeMin: 28,
  soughtAgeMax: 35,
  soughtRegions: ['ile-de-france', 'normandie'],
  soughtFamilySituations: ['celibataire', 'divorce'],
  acceptsChildren: false,
  soughtProfessionalSituation: 'emploi-stable',
  otherQualities: 'Sincère, patient et attaché à sa famille.',
};
const youssef = {
  ...amina,
  firstName: 'Youssef',
  birthDate: '1992-07-02',
  postcode: '92100',
  profession: 'Ingénieur',
  prayerPractice: 'reguliere',
};
const youssefSeeks = { ...aminaSeeks, soughtAgeMin: 25, soughtAgeMax: 32, soughtRegions: ['indifferent'], soughtPractice: 'indifferent' };

function derived(memberId: string, gender: string, profile: unknown, questionnaire: unknown): MatchProfile {
  const p = profileFromOnboarding({ memberId, gender, profile, questionnaire });
  if (!p) throw new Error('profil attendu');
  return { ...p, available: true, unavailableReason: null, contractEndsAt: NOW + 90 * 24 * 3600 * 1000 };
}

describe('regions from postcodes', () => {
  it('names the region of a département, Corsica, overseas and Monaco', () => {
    expect(regionOfPostcode('75011')).toBe('ile-de-france');
    expect(regionOfPostcode('69003')).toBe('auvergne-rhone-alpes');
    expect(regionOfPostcode('13001')).toBe('provence-alpes-cote-d-azur');
    expect(regionOfPostcode('20000')).toBe('corse');
    expect(regionOfPostcode('97400')).toBe('outre-mer');
    expect(regionOfPostcode('98000')).toBe('etranger');
    expect(regionOfPostcode('96000')).toBeNull();
    expect(regionOfPostcode('7501')).toBeNull();
  });
  it('covers départements 01 to 95, and every sample postcode lies in its region', () => {
    for (let d = 1; d <= 95; d += 1) expect(regionOfPostcode(`${String(d).padStart(2, '0')}100`)).not.toBeNull();
    for (const region of homeRegions) expect(regionOfPostcode(samplePostcode(region, 123))).toBe(region);
  });
});

describe('the annex as typed lists', () => {
  it('a sought practice accepts that level and the more regular ones', () => {
    expect(practicesAcceptedFor('cinq-prieres')).toEqual(['cinq-prieres']);
    expect(practicesAcceptedFor('occasionnelle')).toEqual(['cinq-prieres', 'reguliere', 'occasionnelle']);
    expect(practicesAcceptedFor('indifferent')).toHaveLength(4);
  });
  it('"peu importe" accepts every region', () => {
    expect(regionsAcceptedFor(['indifferent'])).toEqual(homeRegions);
    expect(regionsAcceptedFor(['normandie', 'ile-de-france'])).toEqual(['ile-de-france', 'normandie']);
  });
});

describe('profileFromOnboarding', () => {
  it('derives the profile from steps 1-2 as stored', () => {
    expect(profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: amina, questionnaire: aminaSeeks })).toEqual({
      memberId: 'a',
      gender: 'femme',
      birthDate: '1995-03-14',
      region: 'ile-de-france',
      practice: 'cinq-prieres',
      maritalStatus: 'celibataire',
      childrenCount: 0,
      profession: 'Pharmacienne',
      ageMin: 28,
      ageMax: 35,
      regionsAccepted: ['ile-de-france', 'normandie'],
      soughtPractice: 'reguliere',
      practicesAccepted: ['cinq-prieres', 'reguliere'],
      familySituationsAccepted: ['celibataire', 'divorce'],
      acceptsChildren: false,
      soughtProfessionalSituation: 'emploi-stable',
    });
  });
  it('gives null without step 2, with a stripped step 1 (after the term), or for staff', () => {
    expect(profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: amina, questionnaire: null })).toBeNull();
    const { prayerPractice: _p, ...stripped } = amina;
    expect(profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: stripped, questionnaire: aminaSeeks })).toBeNull();
    expect(profileFromOnboarding({ memberId: 'a', gender: 'staff', profile: amina, questionnaire: aminaSeeks })).toBeNull();
    expect(
      profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: { ...amina, postcode: '96000' }, questionnaire: aminaSeeks }),
    ).toBeNull();
  });
});

describe('availability', () => {
  const active = {
    state: 'membre-actif',
    hasProfile: true,
    sensitiveDataConsentAt: '2026-01-01T00:00:00.000Z',
    matchmakingPausedAt: null,
    disabled: false,
    erasedAt: null,
    contractEndsAt: NOW + 1000,
    now: NOW,
  };
  it('an active member with consent and a running term is available', () => {
    expect(unavailableReasonOf(active)).toBeNull();
  });
  it('names the first reason that applies', () => {
    expect(unavailableReasonOf({ ...active, erasedAt: NOW, disabled: true })).toBe('efface');
    expect(unavailableReasonOf({ ...active, disabled: true, matchmakingPausedAt: NOW })).toBe('desactive');
    expect(unavailableReasonOf({ ...active, matchmakingPausedAt: NOW })).toBe('mise-en-relation-suspendue');
    expect(unavailableReasonOf({ ...active, sensitiveDataConsentAt: null })).toBe('consentement-absent');
    expect(unavailableReasonOf({ ...active, state: 'attente' })).toBe('pas-encore-actif');
    expect(unavailableReasonOf({ ...active, contractEndsAt: NOW })).toBe('contrat-termine');
    // Termination for a legitimate reason (decision 119): asked, then accepted.
    expect(unavailableReasonOf({ ...active, state: 'resiliation-demandee' })).toBe('resiliation-demandee');
    expect(unavailableReasonOf({ ...active, state: 'resilie' })).toBe('contrat-termine');
  });
  it('the term is checked at the time of the ranking', () => {
    expect(availableAt({ available: true, contractEndsAt: NOW + 1 }, NOW)).toBe(true);
    expect(availableAt({ available: true, contractEndsAt: NOW }, NOW)).toBe(false);
    expect(availableAt({ available: true, contractEndsAt: null }, NOW)).toBe(true);
    expect(availableAt({ available: false, contractEndsAt: null }, NOW)).toBe(false);
  });
});

describe('Amina and Youssef', () => {
  const a = derived('a', 'femme', amina, aminaSeeks);
  const y = derived('y', 'homme', youssef, youssefSeeks);
  it('meet every hard criterion both ways, with the reasons in French', () => {
    expect(hardCriteriaMet(a, y, NOW)).toBe(true);
    const reasons = hardCriteria(a, y, NOW).map((r) => `${r.side}: ${r.reason}`);
    expect(reasons).toEqual([
      'mutuel: Les deux membres peuvent être proposés',
      'mutuel: Sexe opposé',
      'membre: Âge dans la tranche recherchée (28–35 ans) : 34 ans',
      'membre: Région parmi celles recherchées (Île-de-France)',
      'membre: Pratique au moins égale à celle recherchée (Régulière, avec quelques manques) : Régulière, avec quelques manques',
      'membre: Sans enfant',
      'candidat: Âge dans la tranche recherchée (25–32 ans) : 31 ans',
      'candidat: Région : peu importe (Île-de-France)',
      'candidat: Pratique : peu importe (Les cinq prières quotidiennes)',
      'candidat: Sans enfant',
    ]);
  });
  it('scores the soft criteria both ways', () => {
    const { score, reasons } = softScore(a, y, NOW);
    const byKey = Object.fromEntries(reasons.map((r) => [`${r.criterion}/${r.side}`, r]));
    expect(byKey['meme-region/mutuel']?.reason).toBe('Même région (Île-de-France)');
    expect(byKey['pratique-identique/membre']?.reason).toBe('Pratique exactement celle recherchée (Régulière, avec quelques manques)');
    expect(byKey['situation-professionnelle/membre']?.reason).toBe(
      'Situation professionnelle recherchée (Un emploi stable) : à vérifier, profession déclarée « Ingénieur »',
    );
    expect(score).toBe(reasons.reduce((sum, r) => sum + r.points, 0));
  });
  it('fails when he is older than her range, and says so', () => {
    const older = { ...y, birthDate: '1985-01-01' };
    expect(hardCriteriaMet(a, older, NOW)).toBe(false);
    expect(hardCriteria(a, older, NOW).find((r) => !r.met)?.reason).toBe('Âge hors de la tranche recherchée (28–35 ans) : 41 ans');
  });
  it('fails when she does not accept children and he has some', () => {
    const father = { ...y, childrenCount: 2 };
    expect(hardCriteriaMet(a, father, NOW)).toBe(false);
    expect(hardCriteria(a, father, NOW).find((r) => !r.met)?.reason).toBe('N’accepte pas une personne ayant des enfants (2 enfants)');
  });
});

/** Each hard rule written again directly, as the oracle of the properties. */
function oracle(a: MatchProfile, b: MatchProfile, now: number): Record<string, boolean> {
  const ageA = ageOn(a.birthDate, now) ?? -1;
  const ageB = ageOn(b.birthDate, now) ?? -1;
  const running = (p: MatchProfile) => p.available && (p.contractEndsAt === null || p.contractEndsAt > now);
  return {
    'disponibilite/mutuel': running(a) && running(b),
    'sexe/mutuel': a.gender !== b.gender,
    'age/membre': ageB >= a.ageMin && ageB <= a.ageMax,
    'age/candidat': ageA >= b.ageMin && ageA <= b.ageMax,
    'region/membre': a.regionsAccepted.includes(b.region),
    'region/candidat': b.regionsAccepted.includes(a.region),
    'pratique/membre': a.practicesAccepted.includes(b.practice),
    'pratique/candidat': b.practicesAccepted.includes(a.practice),
    'enfants/membre': a.acceptsChildren || b.childrenCount === 0,
    'enfants/candidat': b.acceptsChildren || a.childrenCount === 0,
  };
}

const keyed = (results: CriterionResult[]) => Object.fromEntries(results.map((r) => [`${r.criterion}/${r.side}`, r]));

describe('properties over generated pairs', () => {
  const pair = fc.tuple(matchProfileArbitrary(), matchProfileArbitrary());
  const widePair = fc.tuple(matchProfileArbitrary(wideDomain), matchProfileArbitrary(wideDomain));

  it('hardCriteriaMet is symmetric, and true exactly when every rule holds both ways', () => {
    fc.assert(
      fc.property(fc.oneof(pair, widePair), ([a, b]) => {
        const met = hardCriteriaMet(a, b, NOW);
        expect(hardCriteriaMet(b, a, NOW)).toBe(met);
        expect(met).toBe(Object.values(oracle(a, b, NOW)).every(Boolean));
      }),
      { numRuns: 2000 },
    );
  });

  it('one result per hard criterion and side, each met as its rule says, the reason telling which', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const results = keyed(hardCriteria(a, b, NOW));
        const expected = oracle(a, b, NOW);
        expect(Object.keys(results).sort()).toEqual(Object.keys(expected).sort());
        for (const id of hardCriteriaIds) expect(criteria[id].kind).toBe('strict');
        for (const [key, met] of Object.entries(expected)) {
          const result = results[key];
          expect(result?.met).toBe(met);
          // The reason says which way it went.
          if (key.startsWith('age/')) expect(result?.reason.startsWith(met ? 'Âge dans la tranche' : 'Âge hors de la tranche')).toBe(true);
          if (key.startsWith('region/')) expect(result?.reason.startsWith('Région hors')).toBe(!met);
          if (key.startsWith('pratique/')) expect(result?.reason.startsWith('Pratique en deçà')).toBe(!met);
          if (key.startsWith('enfants/')) expect(result?.reason.startsWith('N’accepte pas')).toBe(!met);
        }
        // The reasons of the member's side are those of the candidate's side when the roles swap.
        const swapped = keyed(hardCriteria(b, a, NOW));
        for (const id of ['age', 'region', 'pratique', 'enfants']) {
          expect(swapped[`${id}/candidat`]?.reason).toBe(results[`${id}/membre`]?.reason);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('the soft score is the sum of its reasons, symmetric, within 0 and MAX_SCORE', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const ab = softScore(a, b, NOW);
        const ba = softScore(b, a, NOW);
        expect(ab.score).toBe(ab.reasons.reduce((sum, r) => sum + r.points, 0));
        expect(ab.score).toBe(ba.score);
        expect(ab.score).toBeGreaterThanOrEqual(0);
        expect(ab.score).toBeLessThanOrEqual(MAX_SCORE);
        for (const r of ab.reasons) {
          expect(criteria[r.criterion].kind).toBe('souple');
          expect(r.points).toBeLessThanOrEqual(criteria[r.criterion].points);
          if (r.met) expect(r.points).toBe(criteria[r.criterion].points);
        }
        const family = keyed(ab.reasons)['situation-familiale/membre'];
        expect(family?.met).toBe(a.familySituationsAccepted.includes(b.maritalStatus));
      }),
      { numRuns: 1000 },
    );
  });

  it('birthDateBounds select exactly the birth dates whose age lies in the range', () => {
    const day = fc.date({ min: new Date('1930-01-01T00:00:00Z'), max: new Date('2010-12-31T00:00:00Z'), noInvalidDate: true });
    const instant = fc.date({ min: new Date('2024-01-01T00:00:00Z'), max: new Date('2032-12-31T00:00:00Z'), noInvalidDate: true });
    const leapDays = fc.constantFrom('1996-02-29', '2000-02-29', '1999-02-28', '1999-03-01');
    fc.assert(
      fc.property(
        fc.oneof(
          day.map((d) => d.toISOString().slice(0, 10)),
          leapDays,
        ),
        fc.oneof(
          instant,
          fc.constantFrom(new Date('2028-02-29T10:00:00Z'), new Date('2027-02-28T23:30:00Z'), new Date('2027-03-01T00:00:00Z')),
        ),
        fc.integer({ min: 18, max: 99 }),
        fc.integer({ min: 0, max: 30 }),
        (birth, at, min, span) => {
          const max = Math.min(99, min + span);
          const { after, onOrBefore } = birthDateBounds(min, max, at.getTime());
          const age = ageOn(birth, at.getTime()) ?? -1;
          expect(birth > after && birth <= onOrBefore).toBe(age >= min && age <= max);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
