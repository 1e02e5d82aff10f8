import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  ageOn,
  contractFormSchema,
  personalInfoSchema,
  questionnaireSchema,
  storedQuestionnaireSchema,
} from '#machines/onboarding/forms.ts';

const NOW = Date.parse('2025-03-10T12:00:00Z');

const personalInfo = {
  firstName: 'Youssef',
  lastName: "N'Diaye-Martin",
  birthDate: '1990-06-21',
  phone: '06 12 34 56 78',
  postcode: '13001',
  city: 'Marseille',
  maritalStatus: 'divorce',
  childrenCount: 2,
  profession: 'Technicien',
  prayerPractice: 'reguliere',
  sensitiveDataConsent: true,
};

const questionnaire = {
  soughtPractice: 'indifferent',
  soughtAgeMin: 25,
  soughtAgeMax: 35,
  soughtRegions: ['provence-alpes-cote-d-azur'],
  soughtFamilySituations: ['celibataire'],
  acceptsChildren: false,
  soughtProfessionalSituation: 'indifferent',
  wantsChildren: 'oui',
  readyToRelocate: true,
  requiredCriteria: ['age', 'situation-familiale'],
  otherQualities: 'Douce, sincère et qui aime voyager.',
};

const contract = {
  fullName: 'Youssef N’Diaye',
  address: '3 boulevard Longchamp',
  postcode: '13001',
  city: 'Marseille',
  signature: '  youssef   n’diaye ',
  termsAccepted: true,
};

/** The field errors of a refused input, e.g. { birthDate: ['…'] }. */
function fieldErrors(schema: v.GenericSchema, input: unknown) {
  const result = v.safeParse(schema, input);
  if (result.success) throw new Error('expected the input to be refused');
  return v.flatten(result.issues);
}

describe('personal information', () => {
  it('accepts a complete form, normalises the phone number and defaults the optional details', () => {
    const result = v.safeParse(personalInfoSchema(NOW), personalInfo);
    expect(result.success).toBe(true);
    expect(result.output).toMatchObject({ phone: '+33612345678', practiceDetails: '', lastName: "N'Diaye-Martin" });
  });

  it('accepts an international number', () => {
    const result = v.safeParse(personalInfoSchema(NOW), { ...personalInfo, phone: '+32 470 12 34 56' });
    expect(result.output).toMatchObject({ phone: '+32470123456' });
  });

  it.each([
    ['firstName', '', 'Prénom requis'],
    ['firstName', 'J0hn', 'Prénom invalide'],
    ['lastName', '   ', 'Nom requis'],
    ['phone', '12345', 'Numéro de téléphone invalide'],
    ['postcode', '1300', 'Code postal invalide (5 chiffres)'],
    ['postcode', '13OO1', 'Code postal invalide (5 chiffres)'],
    ['city', '', 'Ville requise'],
    ['maritalStatus', 'marie', 'Situation familiale invalide'],
    ['childrenCount', -1, 'Nombre d’enfants invalide'],
    ['childrenCount', 1.5, 'Nombre d’enfants invalide'],
    ['profession', 'a', 'Profession requise'],
    ['prayerPractice', 'jamais', 'Veuillez indiquer votre pratique de la prière'],
    ['birthDate', '1990-02-30', 'Date de naissance invalide'],
    ['birthDate', '21/06/1990', 'Date de naissance invalide'],
    ['birthDate', '1890-01-01', 'Date de naissance invalide'],
    ['sensitiveDataConsent', false, 'Votre consentement explicite est nécessaire pour que nous traitions ces informations'],
  ])('%s = %j is refused with “%s”', (field, value, message) => {
    expect(fieldErrors(personalInfoSchema(NOW), { ...personalInfo, [field]: value }).nested?.[field]).toContain(message);
  });

  it('requires explicit consent: a missing checkbox is refused', () => {
    const { sensitiveDataConsent: _omitted, ...withoutConsent } = personalInfo;
    expect(fieldErrors(personalInfoSchema(NOW), withoutConsent).nested?.sensitiveDataConsent).toBeDefined();
  });

  it('refuses unknown fields', () => {
    expect(v.safeParse(personalInfoSchema(NOW), { ...personalInfo, religion: 'x' }).success).toBe(false);
  });

  it.each([
    ['2007-03-10', true], // 18 today
    ['2007-03-11', false], // 18 tomorrow
    ['2000-01-01', true],
  ])('born %s, on 10 March 2025 → adult %s', (birthDate, adult) => {
    const result = v.safeParse(personalInfoSchema(NOW), { ...personalInfo, birthDate });
    expect(result.success).toBe(adult);
    if (!adult) {
      expect(fieldErrors(personalInfoSchema(NOW), { ...personalInfo, birthDate }).nested?.birthDate).toEqual([
        'Vous devez être majeur(e) pour vous inscrire',
      ]);
    }
  });

  it('counts the birthday on the French calendar day', () => {
    // 23:30 UTC on 9 March is already 10 March in Paris.
    expect(ageOn('2007-03-10', Date.parse('2025-03-09T23:30:00Z'))).toBe(18);
    expect(ageOn('2007-03-10', Date.parse('2025-03-09T22:30:00Z'))).toBe(17);
    expect(ageOn('2004-02-29', Date.parse('2022-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2004-02-29', Date.parse('2022-03-01T12:00:00Z'))).toBe(18);
  });
});

describe('questionnaire (annex R224-1)', () => {
  it('accepts a complete questionnaire', () => {
    expect(v.safeParse(questionnaireSchema, questionnaire).success).toBe(true);
  });

  it('a stored questionnaire from before decision 193 is still read (no new answers); a new one must give them', () => {
    const { wantsChildren: _w, readyToRelocate: _r, requiredCriteria: _c, ...before } = questionnaire;
    expect(v.safeParse(storedQuestionnaireSchema, before).success).toBe(true);
    expect(v.safeParse(questionnaireSchema, before).success).toBe(false);
    expect(v.safeParse(questionnaireSchema, { ...questionnaire, requiredCriteria: [] }).success).toBe(true);
    // Only the seven criteria of the questionnaire may be indispensable (never the sex, for instance).
    expect(JSON.stringify(fieldErrors(questionnaireSchema, { ...questionnaire, requiredCriteria: ['sexe'] }))).toContain(
      'Critère invalide',
    );
  });

  it('reports an inverted age range on the maximum age', () => {
    const errors = fieldErrors(questionnaireSchema, { ...questionnaire, soughtAgeMin: 40, soughtAgeMax: 30 });
    expect(errors.nested?.soughtAgeMax).toEqual(['L’âge maximum doit être supérieur ou égal à l’âge minimum']);
  });

  it.each([
    ['soughtAgeMin', 17, 'L’âge minimum est de 18 ans'],
    ['soughtRegions', [], 'Veuillez choisir au moins une région'],
    ['soughtRegions', ['bretagne', 'bretagne'], 'Région choisie deux fois'],
    ['soughtFamilySituations', [], 'Veuillez choisir au moins une situation familiale'],
    ['soughtProfessionalSituation', 'rentier', 'Veuillez indiquer la situation professionnelle recherchée'],
    ['otherQualities', 'Gentil', 'Décrivez en quelques mots les autres qualités essentielles (10 caractères au moins)'],
    ['acceptsChildren', 'oui', 'Veuillez indiquer si vous acceptez une personne ayant des enfants'],
    // Decision 193: the two questions are answered, the indispensable criteria are known ones, each once.
    ['wantsChildren', undefined, 'Veuillez indiquer si vous souhaitez des enfants'],
    ['wantsChildren', 'beaucoup', 'Veuillez indiquer si vous souhaitez des enfants'],
    ['readyToRelocate', 'oui', 'Veuillez indiquer si vous accepteriez de déménager'],
    ['requiredCriteria', ['age', 'age'], 'Critère choisi deux fois'],
  ])('%s = %j is refused with “%s”', (field, value, message) => {
    expect(fieldErrors(questionnaireSchema, { ...questionnaire, [field]: value }).nested?.[field]).toContain(message);
  });
});

describe('contract form', () => {
  it('accepts a signature that reproduces the full name (case and spaces aside)', () => {
    expect(v.safeParse(contractFormSchema, contract).success).toBe(true);
  });

  it('refuses a signature that differs from the name, on the signature field', () => {
    const errors = fieldErrors(contractFormSchema, { ...contract, signature: 'Y. N’Diaye' });
    expect(errors.nested?.signature).toEqual(['La signature doit reprendre exactement votre nom complet']);
  });

  it('requires acceptance of the contract and terms', () => {
    const errors = fieldErrors(contractFormSchema, { ...contract, termsAccepted: false });
    expect(errors.nested?.termsAccepted).toEqual(['Vous devez accepter le contrat et les conditions générales de vente']);
  });

  it('requires the address', () => {
    expect(fieldErrors(contractFormSchema, { ...contract, address: '' }).nested?.address).toEqual(['Adresse requise']);
  });
});
