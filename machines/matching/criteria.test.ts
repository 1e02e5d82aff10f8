import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  brokenRequired,
  type CriterionId,
  criteria,
  criteriaOf,
  criterionIds,
  eligible,
  judge,
  affinityPoints,
  MAX_SCORE,
  memberReasons,
  occupationOf,
  pairCriteria,
  pairScore,
  type Verdict,
  verdictMet,
} from '#machines/matching/criteria.ts';
import {
  availableAt,
  birthDateBounds,
  LEGACY_REQUIRED_CRITERIA,
  type MatchProfile,
  practicesAcceptedFor,
  profileFromOnboarding,
  regionsAcceptedFor,
  unavailableReasonOf,
} from '#machines/matching/match-profile.ts';
import { homeRegions, regionOfPostcode, samplePostcode } from '#machines/matching/regions.ts';
import { ageOn, requirableCriteria } from '#machines/onboarding/forms.ts';
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
  soughtFamilySituations: ['celibataire'],
  acceptsChildren: false,
  soughtProfessionalSituation: 'en-activite-ou-etudes',
  wantsChildren: 'oui',
  readyToRelocate: false,
  requiredCriteria: ['age', 'situation-familiale'],
  otherQualities: 'Sincère, patient et attaché à sa famille.',
};
const youssef = {
  ...amina,
  firstName: 'Youssef',
  birthDate: '1992-07-02',
  postcode: '92100',
  profession: 'Ingénieur',
  prayerPractice: 'cinq-prieres',
};
const youssefSeeks = {
  ...aminaSeeks,
  soughtAgeMin: 25,
  soughtAgeMax: 32,
  soughtRegions: ['indifferent'],
  soughtPractice: 'indifferent',
  soughtFamilySituations: ['celibataire', 'divorce', 'veuf'],
  requiredCriteria: ['age'],
};

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
  it('derives the profile from steps 1-2 as stored, with the criteria the member marked indispensable', () => {
    expect(profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: amina, questionnaire: aminaSeeks })).toEqual({
      memberId: 'a',
      gender: 'femme',
      birthDate: '1995-03-14',
      region: 'ile-de-france',
      practice: 'cinq-prieres',
      maritalStatus: 'celibataire',
      childrenCount: 0,
      profession: 'Pharmacienne',
      // Step 1 saved before decision 208: no language, level, height or school.
      languages: [],
      educationLevel: null,
      heightCm: null,
      madhhab: null,
      hijab: null,
      beard: null,
      // Questionnaire saved before decision 212: no wished height.
      soughtHeightMin: null,
      soughtHeightMax: null,
      wantsChildren: 'oui',
      readyToRelocate: false,
      ageMin: 28,
      ageMax: 35,
      regionsAccepted: ['ile-de-france', 'normandie'],
      soughtPractice: 'reguliere',
      practicesAccepted: ['cinq-prieres', 'reguliere'],
      familySituationsAccepted: ['celibataire'],
      acceptsChildren: false,
      soughtProfessionalSituation: 'en-activite-ou-etudes',
      requiredCriteria: ['age', 'situation-familiale'],
    });
  });
  it('a questionnaire saved before decision 193: no answer to the new questions, the criteria that excluded then stay indispensable', () => {
    const { wantsChildren: _w, readyToRelocate: _r, requiredCriteria: _c, ...before } = aminaSeeks;
    const p = profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: amina, questionnaire: before });
    expect(p).toMatchObject({
      wantsChildren: 'inconnu',
      readyToRelocate: null,
      requiredCriteria: ['age', 'region', 'pratique', 'enfants'],
    });
    expect(p?.requiredCriteria).toEqual([...LEGACY_REQUIRED_CRITERIA]);
    // Nothing marked (an empty list is an answer): every criterion only wished.
    expect(
      profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: amina, questionnaire: { ...aminaSeeks, requiredCriteria: [] } })
        ?.requiredCriteria,
    ).toEqual([]);
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

const a = derived('a', 'femme', amina, aminaSeeks);
const y = derived('y', 'homme', youssef, youssefSeeks);

/**
 * The verdict table (decision 193): one criterion of a seeker judged on the other, with what the
 * issue found contradictory — more practising than asked, a region inside the chosen set, « en
 * activité ou en études » for an engineer and a student — and every verdict of every criterion.
 */
const verdictTable: [string, CriterionId, Partial<MatchProfile>, Partial<MatchProfile>, Verdict, string][] = [
  ['age inside the range', 'age', {}, { birthDate: '1992-07-02' }, 'oui', '34 ans ; recherché : 28–35 ans'],
  ['age above the range', 'age', {}, { birthDate: '1985-01-01' }, 'non', '41 ans ; recherché : 28–35 ans'],
  ['a region inside the chosen set', 'region', {}, { region: 'normandie' }, 'oui', 'Normandie, parmi les régions choisies'],
  ['a region outside the chosen set', 'region', {}, { region: 'bretagne' }, 'non', 'Bretagne, hors des régions choisies'],
  [
    '« peu importe » for the region',
    'region',
    { regionsAccepted: [...homeRegions] },
    { region: 'bretagne' },
    'indifferent',
    'Bretagne ; toute région',
  ],
  ['the very practice sought', 'pratique', {}, { practice: 'reguliere' }, 'oui', 'Régulière, avec quelques manques, comme recherché'],
  [
    'more practising than asked',
    'pratique',
    {},
    { practice: 'cinq-prieres' },
    'oui',
    'Les cinq prières quotidiennes, plus régulière que recherché (Régulière, avec quelques manques)',
  ],
  [
    'less practising than asked',
    'pratique',
    {},
    { practice: 'occasionnelle' },
    'non',
    'Occasionnelle, moins régulière que recherché (Régulière, avec quelques manques)',
  ],
  [
    '« peu importe » for the practice',
    'pratique',
    { soughtPractice: 'indifferent' },
    { practice: 'occasionnelle' },
    'indifferent',
    'Occasionnelle ; toute pratique',
  ],
  [
    'a divorced man for « Célibataire » only',
    'situation-familiale',
    {},
    { maritalStatus: 'divorce' },
    'non',
    'Divorcé, hors des situations acceptées',
  ],
  [
    'a divorced woman, in her gender',
    'situation-familiale',
    { familySituationsAccepted: ['celibataire', 'divorce'] },
    { gender: 'femme', maritalStatus: 'divorce' },
    'oui',
    'Divorcée, parmi les situations acceptées',
  ],
  [
    'every situation ticked',
    'situation-familiale',
    { familySituationsAccepted: ['celibataire', 'divorce', 'veuf'] },
    { maritalStatus: 'veuf' },
    'indifferent',
    'Veuf ; toute situation',
  ],
  ['no child, none wanted', 'enfants', {}, { childrenCount: 0 }, 'oui', 'Sans enfant, comme souhaité'],
  [
    'two children, none accepted',
    'enfants',
    {},
    { childrenCount: 2 },
    'non',
    '2 enfants, alors qu’une personne sans enfant est recherchée',
  ],
  ['children accepted', 'enfants', { acceptsChildren: true }, { childrenCount: 1 }, 'indifferent', '1 enfant ; enfants acceptés'],
  ['both wish for children', 'desir-enfants', {}, { wantsChildren: 'oui' }, 'oui', 'Souhaite aussi des enfants'],
  ['opposite wishes', 'desir-enfants', {}, { wantsChildren: 'non' }, 'non', 'Ne souhaite pas d’enfants'],
  ['the other does not know yet', 'desir-enfants', {}, { wantsChildren: 'peut-etre' }, 'a-verifier', 'Ne sait pas encore'],
  ['the other never answered', 'desir-enfants', {}, { wantsChildren: 'inconnu' }, 'a-verifier', 'N’a pas encore répondu'],
  [
    'the seeker has no wish',
    'desir-enfants',
    { wantsChildren: 'peut-etre' },
    { wantsChildren: 'non' },
    'indifferent',
    'Pas de souhait exprimé',
  ],
  [
    'same region, nobody moves',
    'demenagement',
    {},
    { region: 'ile-de-france', readyToRelocate: false },
    'oui',
    'Même région (Île-de-France)',
  ],
  [
    'another region, the other would move',
    'demenagement',
    {},
    { region: 'bretagne', readyToRelocate: true },
    'oui',
    'Autre région, prêt à déménager',
  ],
  [
    'another region, she would move',
    'demenagement',
    {},
    { gender: 'femme', region: 'bretagne', readyToRelocate: true },
    'oui',
    'Autre région, prête à déménager',
  ],
  [
    'another region, nobody moves',
    'demenagement',
    {},
    { region: 'bretagne', readyToRelocate: false },
    'non',
    'Autre région, et aucun des deux ne souhaite déménager',
  ],
  [
    'another region, the other never said',
    'demenagement',
    {},
    { region: 'bretagne', readyToRelocate: null },
    'a-verifier',
    'Autre région ; n’a pas dit s’il déménagerait',
  ],
  [
    'the seeker would move',
    'demenagement',
    { readyToRelocate: true },
    { region: 'bretagne', readyToRelocate: false },
    'indifferent',
    'Accepte de déménager',
  ],
  [
    'an engineer for « en activité ou en études »',
    'situation-professionnelle',
    {},
    { profession: 'Ingénieur' },
    'oui',
    'Ingénieur, en activité',
  ],
  [
    'a student for « en activité ou en études »',
    'situation-professionnelle',
    {},
    { profession: 'Étudiante en pharmacie' },
    'oui',
    'Étudiante en pharmacie, en études',
  ],
  [
    'no job for « en activité ou en études »',
    'situation-professionnelle',
    {},
    { profession: 'Sans emploi' },
    'non',
    'Sans emploi ; en activité ou en études recherché',
  ],
  [
    'an engineer for « un emploi stable »',
    'situation-professionnelle',
    { soughtProfessionalSituation: 'emploi-stable' },
    { profession: 'Ingénieur' },
    'a-verifier',
    'Ingénieur ; emploi stable à confirmer',
  ],
  [
    'a student for « un emploi stable »',
    'situation-professionnelle',
    { soughtProfessionalSituation: 'emploi-stable' },
    { profession: 'étudiant' },
    'non',
    'étudiant ; un emploi stable est recherché',
  ],
  [
    '« peu importe » for the job',
    'situation-professionnelle',
    { soughtProfessionalSituation: 'indifferent' },
    { profession: 'Sans emploi' },
    'indifferent',
    'Sans emploi',
  ],
  // Decision 212: the wished height, only a wish; an unknown height is to check, never met.
  [
    'a height inside the wished range',
    'taille',
    { soughtHeightMin: 175, soughtHeightMax: 190 },
    { heightCm: 181 },
    'oui',
    '1,81\u00a0m, dans la taille souhaitée (de 1,75\u00a0m à 1,90\u00a0m)',
  ],
  [
    'a height below « au moins »',
    'taille',
    { soughtHeightMin: 175 },
    { heightCm: 170 },
    'non',
    '1,70\u00a0m, hors de la taille souhaitée (au moins 1,75\u00a0m)',
  ],
  [
    'the bound itself is inside',
    'taille',
    { soughtHeightMax: 170 },
    { heightCm: 170 },
    'oui',
    '1,70\u00a0m, dans la taille souhaitée (au plus 1,70\u00a0m)',
  ],
  [
    'a height not given',
    'taille',
    { soughtHeightMin: 175 },
    { heightCm: null },
    'a-verifier',
    'Taille non indiquée ; souhaitée : au moins 1,75\u00a0m',
  ],
  [
    'no height wished',
    'taille',
    { soughtHeightMin: null, soughtHeightMax: null },
    { heightCm: 160 },
    'indifferent',
    'Pas de taille souhaitée',
  ],
];

describe('the verdict of each criterion (table)', () => {
  it.each(verdictTable)('%s', (_name, criterion, seeker, other, verdict, reason) => {
    expect(judge(criterion, { ...a, ...seeker }, { ...y, ...other }, NOW)).toEqual({ verdict, reason });
  });

  it('covers every criterion and every verdict, and only oui and indifferent are met', () => {
    expect(new Set(verdictTable.map((row) => row[1]))).toEqual(new Set(criterionIds));
    expect(new Set(verdictTable.map((row) => row[4]))).toEqual(new Set(['oui', 'non', 'a-verifier', 'indifferent']));
    expect(['oui', 'non', 'a-verifier', 'indifferent'].filter((v) => verdictMet(v as Verdict))).toEqual(['oui', 'indifferent']);
  });

  it('never lists the sex or the availability as a criterion', () => {
    const listed = pairCriteria(a, y, NOW).map((r) => r.criterion as string);
    expect(listed).not.toContain('sexe');
    expect(listed).not.toContain('disponibilite');
    expect(listed.filter((c) => c === 'age')).toHaveLength(2);
  });

  it('reads studies and no activity in a free-text profession', () => {
    expect(['Étudiant', 'étudiante en master', 'Doctorante', 'En études de droit', 'Apprenti boulanger'].map(occupationOf)).toEqual(
      Array(5).fill('etudes'),
    );
    expect(['Sans emploi', 'Au foyer', 'Demandeuse d’emploi', 'Chômage', 'En recherche d’emploi'].map(occupationOf)).toEqual(
      Array(5).fill('sans-activite'),
    );
    expect(['Ingénieur', 'Infirmière', 'Commerçant', 'Chef de projet'].map(occupationOf)).toEqual(Array(4).fill('activite'));
  });
});

describe('Amina and Youssef', () => {
  it('indispensable criteria exclude both ways; wished ones do not', () => {
    expect(eligible(a, y, NOW)).toBe(true);
    expect(brokenRequired(a, y, NOW)).toEqual({ a: [], b: [] });
    // « Célibataire » only, and indispensable: a divorced father is never her candidate, and she is not his.
    const divorced = { ...y, maritalStatus: 'divorce' as const, childrenCount: 2 };
    expect(brokenRequired(a, divorced, NOW)).toEqual({ a: ['situation-familiale'], b: [] });
    expect(eligible(a, divorced, NOW)).toBe(false);
    expect(eligible(divorced, a, NOW)).toBe(false);
    // Children are only wished by Amina: a father who is single is a candidate, ranked lower.
    const father = { ...y, childrenCount: 2 };
    expect(eligible(a, father, NOW)).toBe(true);
    expect(pairScore(a, father, NOW)).toBeLessThan(pairScore(a, y, NOW));
    // His age range is indispensable to him: Amina at 31 is outside 25–30.
    expect(brokenRequired(a, { ...y, ageMax: 30 }, NOW)).toEqual({ a: [], b: ['age'] });
  });

  it('tells Amina only what matches: her indispensable criteria, then her wishes, in two sentences', () => {
    expect(memberReasons(a, y, NOW)).toEqual([
      'Il correspond à vos critères indispensables : âge et situation familiale.',
      'Il correspond aussi à vos souhaits : région, pratique religieuse, enfants, désir d’enfants, lieu de vie et situation professionnelle.',
    ]);
    // Youssef reads of Amina, in her gender, what matches his criteria (the indifferent ones say nothing).
    expect(memberReasons(y, a, NOW)).toEqual([
      'Elle correspond à vos critères indispensables : âge.',
      'Elle correspond aussi à vos souhaits : enfants, désir d’enfants, lieu de vie et situation professionnelle.',
    ]);
  });
});

/** Each indispensable rule written again directly, as the oracle of the properties. */
function oracleBroken(seeker: MatchProfile, other: MatchProfile, now: number): string[] {
  const age = ageOn(other.birthDate, now) ?? -1;
  const met: Record<string, boolean> = {
    age: age >= seeker.ageMin && age <= seeker.ageMax,
    region: seeker.regionsAccepted.includes(other.region),
    pratique: seeker.practicesAccepted.includes(other.practice),
    'situation-familiale': seeker.familySituationsAccepted.includes(other.maritalStatus),
    enfants: seeker.acceptsChildren || other.childrenCount === 0,
    'desir-enfants': !(seeker.wantsChildren === 'oui' || seeker.wantsChildren === 'non') || other.wantsChildren === seeker.wantsChildren,
    demenagement: seeker.readyToRelocate !== false || other.region === seeker.region || other.readyToRelocate === true,
  };
  return requirableCriteria.filter((c) => seeker.requiredCriteria.includes(c) && !met[c]);
}

describe('properties over generated pairs', () => {
  const pair = fc.tuple(matchProfileArbitrary(), matchProfileArbitrary());
  const widePair = fc.tuple(matchProfileArbitrary(wideDomain), matchProfileArbitrary(wideDomain));

  it('eligible is symmetric, and true exactly when both can be proposed and no indispensable criterion of either side is broken', () => {
    fc.assert(
      fc.property(fc.oneof(pair, widePair), ([p, q]) => {
        const running = (x: MatchProfile) => availableAt(x, NOW);
        const expected =
          running(p) && running(q) && p.gender !== q.gender && oracleBroken(p, q, NOW).length === 0 && oracleBroken(q, p, NOW).length === 0;
        expect(eligible(p, q, NOW)).toBe(expected);
        expect(eligible(q, p, NOW)).toBe(expected);
        expect(brokenRequired(p, q, NOW)).toEqual({ a: oracleBroken(p, q, NOW), b: oracleBroken(q, p, NOW) });
      }),
      { numRuns: 2000 },
    );
  });

  it('one result per criterion and side; the score is the sum of its points, symmetric, within 0 and MAX_SCORE', () => {
    fc.assert(
      fc.property(pair, ([p, q]) => {
        const results = pairCriteria(p, q, NOW);
        expect(results.map((r) => `${r.criterion}/${r.side}`)).toEqual([
          ...criterionIds.map((c) => `${c}/membre`),
          ...criterionIds.map((c) => `${c}/candidat`),
        ]);
        for (const r of results) {
          expect(r.met).toBe(verdictMet(r.verdict));
          expect(r.points).toBe(r.met ? criteria[r.criterion].points : 0);
          expect(r.reason.length).toBeGreaterThan(0);
        }
        // Whose criterion: the candidate's side is the member's side with the roles swapped.
        expect(criteriaOf(q, p, 'candidat', NOW)).toEqual(results.slice(criterionIds.length));
        const score = pairScore(p, q, NOW);
        expect(score).toBe(pairScore(q, p, NOW));
        expect(score).toBe(results.reduce((sum, r) => sum + r.points, 0) + affinityPoints(p, q));
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(MAX_SCORE);
      }),
      { numRuns: 1000 },
    );
  });

  it('a member reads at most two sentences, only of criteria that match', () => {
    fc.assert(
      fc.property(pair, ([p, q]) => {
        const lines = memberReasons(p, q, NOW);
        expect(lines.length).toBeLessThanOrEqual(2);
        const unmet = criteriaOf(p, q, 'membre', NOW).filter((r) => r.verdict !== 'oui');
        const said = lines.join(' ');
        for (const r of unmet) {
          // « enfants » is part of « désir d’enfants »: look for the words as a whole item of the list.
          expect(said).not.toMatch(new RegExp(`(: |, | et )${criteria[r.criterion].words}(,| et |\\.)`));
        }
        expect(said).not.toMatch(/✗|ne correspond pas/);
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
