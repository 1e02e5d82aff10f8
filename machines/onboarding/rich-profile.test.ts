import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { affinityPoints, pairAffinities, sharedLanguages } from '#machines/matching/criteria.ts';
import { type MatchProfile, profileFromOnboarding } from '#machines/matching/match-profile.ts';
import {
  genderedAnswerIssues,
  personalInfoEntries,
  personalInfoSchema,
  questionnaireEntries,
  SENSITIVE_PROFILE_DETAILS,
  SENSITIVE_PROFILE_FIELDS,
} from '#machines/onboarding/forms.ts';
import {
  beardLabels,
  educationLevelLabels,
  heightText,
  hijabLabels,
  languageLabels,
  madhhabLabels,
  profileFields,
  questionnaireFields,
} from '#machines/onboarding/labels.ts';

/** Decision 208: the richer matching profile, within the law. */

const NOW = Date.parse('2026-12-07T12:00:00Z');

const before = {
  firstName: 'Amina',
  lastName: 'Benali',
  birthDate: '1995-03-14',
  phone: '06 12 34 56 78',
  postcode: '75011',
  city: 'Paris',
  maritalStatus: 'celibataire',
  childrenCount: 0,
  profession: 'Pharmacienne',
  prayerPractice: 'cinq-prieres',
  sensitiveDataConsent: true,
};
const richer = {
  ...before,
  languages: ['francais', 'arabe', 'berbere'],
  educationLevel: 'bac-5',
  heightCm: 165,
  hijab: 'parfois',
  madhhab: 'malikite',
};

const parse = (input: unknown) => v.safeParse(personalInfoSchema(NOW), input);
const messages = (input: unknown) => {
  const result = parse(input);
  return result.success ? {} : v.flatten(result.issues).nested;
};

describe('step 1: the richer profile', () => {
  it('an answer saved before (none of the new fields) is still valid', () => {
    expect(parse(before).success).toBe(true);
  });
  it('accepts languages, education, height, hijab and school of thought', () => {
    const result = parse(richer);
    expect(result.success).toBe(true);
    if (result.success)
      expect(result.output).toMatchObject({ languages: ['francais', 'arabe', 'berbere'], heightCm: 165, madhhab: 'malikite' });
  });
  it('refuses unknown codes, a language twice, an out-of-range or decimal height, in French', () => {
    expect(messages({ ...richer, languages: ['klingon'] })).toHaveProperty(['languages.0'], ['Langue invalide']);
    expect(messages({ ...richer, languages: ['arabe', 'arabe'] })).toHaveProperty('languages', ['Langue choisie deux fois']);
    expect(messages({ ...richer, educationLevel: 'master' })).toHaveProperty('educationLevel', ['Niveau d’études invalide']);
    expect(messages({ ...richer, heightCm: 90 })).toHaveProperty('heightCm', ['Taille invalide (entre 130 et 230\u00a0cm)']);
    expect(messages({ ...richer, heightCm: 260 })).toHaveProperty('heightCm', ['Taille invalide (entre 130 et 230\u00a0cm)']);
    expect(messages({ ...richer, heightCm: 172.5 })).toHaveProperty('heightCm', ['Indiquez votre taille en centimètres, sans virgule']);
    expect(messages({ ...richer, hijab: 'toujours' })).toHaveProperty('hijab', ['Réponse invalide sur le port du voile']);
    expect(messages({ ...richer, beard: 'parfois' })).toHaveProperty('beard', ['Réponse invalide sur le port de la barbe']);
    expect(messages({ ...richer, madhhab: 'jafarite' })).toHaveProperty('madhhab', ['École juridique invalide']);
  });
  it('no sensitive detail without the explicit consent: the step is refused as a whole', () => {
    for (const consent of [false, undefined, 'true']) {
      const result = parse({ ...richer, sensitiveDataConsent: consent });
      expect(result.success).toBe(false);
      expect(messages({ ...richer, sensitiveDataConsent: consent })).toHaveProperty('sensitiveDataConsent');
    }
  });
  it('the hijab, the beard and the school are sensitive (stripped with the consent withdrawn); languages, education, height are not', () => {
    expect([...SENSITIVE_PROFILE_FIELDS]).toEqual(['prayerPractice', 'practiceDetails', 'hijab', 'beard', 'madhhab']);
    expect([...SENSITIVE_PROFILE_DETAILS]).toEqual(['hijab', 'beard', 'madhhab']);
  });
  it('the hijab is a woman’s question, the beard a man’s', () => {
    expect(genderedAnswerIssues('femme', { hijab: 'oui' })).toEqual([]);
    expect(genderedAnswerIssues('homme', { beard: 'non' })).toEqual([]);
    expect(genderedAnswerIssues('homme', { hijab: 'oui' })).toEqual([
      { path: 'hijab', message: 'La question du voile n’est posée qu’aux femmes' },
    ]);
    expect(genderedAnswerIssues('femme', { beard: 'oui' })).toEqual([
      { path: 'beard', message: 'La question de la barbe n’est posée qu’aux hommes' },
    ]);
    expect(genderedAnswerIssues('femme', {})).toEqual([]);
  });
  it('French words for every value, and every new field in the table of answers', () => {
    for (const table of [languageLabels, educationLevelLabels, hijabLabels, beardLabels, madhhabLabels])
      for (const words of Object.values(table)) expect(words).toMatch(/^\p{Lu}/u);
    expect(Object.keys(madhhabLabels)).toEqual(['hanafite', 'malikite', 'chafiite', 'hanbalite', 'sans-preference']);
    expect(Object.values(hijabLabels)).toEqual(['Oui', 'Parfois', 'Non']);
    expect(heightText(172)).toBe('1,72\u00a0m');
    expect(heightText(205)).toBe('2,05\u00a0m');
    const keys = profileFields.map((f) => f.key as string);
    for (const key of ['languages', 'educationLevel', 'heightCm', 'hijab', 'beard', 'madhhab']) expect(keys).toContain(key);
    for (const key of Object.keys(personalInfoEntries(NOW))) expect(keys).toContain(key);
  });
});

describe('no ethnic or national origin, anywhere (CNIL)', () => {
  const ORIGIN = /ethni|origin|race|racial|nationalit|pays|couleur|communaut|tribu|ancestr|skin|country|descent/i;
  it('no field of step 1 or of the questionnaire, and no label, speaks of it', () => {
    const names = [
      ...Object.keys(personalInfoEntries(NOW)),
      ...Object.keys(questionnaireEntries),
      ...profileFields.flatMap((f) => [f.key, f.label]),
      ...questionnaireFields.flatMap((f) => [f.key, f.label]),
    ];
    expect(names.filter((name) => ORIGIN.test(name))).toEqual([]);
  });
  it('the schemas refuse such a field outright', () => {
    for (const field of ['ethnicity', 'origin', 'origine', 'nationality', 'countryOfOrigin'])
      expect(parse({ ...richer, [field]: 'x' }).success).toBe(false);
  });
});

describe('affinities: they rank, never exclude', () => {
  const questionnaire = {
    soughtPractice: 'indifferent',
    soughtAgeMin: 25,
    soughtAgeMax: 40,
    soughtRegions: ['indifferent'],
    soughtFamilySituations: ['celibataire'],
    acceptsChildren: true,
    soughtProfessionalSituation: 'indifferent',
    otherQualities: 'Sincère et attentionné.',
  };
  const base = profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: richer, questionnaire }) as MatchProfile;
  it('derives the new answers (a form’s order), and reads none from answers saved before', () => {
    expect(base).toMatchObject({
      languages: ['francais', 'arabe', 'berbere'],
      educationLevel: 'bac-5',
      heightCm: 165,
      madhhab: 'malikite',
    });
    const old = profileFromOnboarding({ memberId: 'a', gender: 'femme', profile: before, questionnaire });
    expect(old).toMatchObject({ languages: [], educationLevel: null, heightCm: null, madhhab: null });
  });
  it('a shared language, the same level, the same school (never « sans préférence »)', () => {
    const other: MatchProfile = {
      ...base,
      memberId: 'b',
      gender: 'homme',
      languages: ['anglais', 'arabe'],
      educationLevel: 'bac',
      madhhab: 'malikite',
    };
    expect(sharedLanguages(base, other)).toEqual(['arabe']);
    expect(pairAffinities(base, other)).toEqual(['langue', 'madhhab']);
    expect(affinityPoints(base, other)).toBe(3);
    expect(affinityPoints(other, base)).toBe(3);
    const none: MatchProfile = { ...other, languages: [], educationLevel: null, madhhab: null };
    expect(pairAffinities(base, none)).toEqual([]);
    const indifferent: MatchProfile = { ...base, memberId: 'c', madhhab: 'sans-preference' };
    expect(pairAffinities(indifferent, { ...indifferent, memberId: 'd' })).not.toContain('madhhab');
  });
});
