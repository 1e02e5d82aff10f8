import { isValidPhoneNumber, parsePhoneNumber } from 'libphonenumber-js/min';
import * as v from 'valibot';
import {
  beardLabels,
  educationLevelLabels,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  hijabLabels,
  languageLabels,
  madhhabLabels,
  maritalStatusLabels,
  prayerPracticeLabels,
  professionalSituationLabels,
  regionLabels,
  requirableCriterionLabels,
  soughtPracticeLabels,
  wantsChildrenLabels,
} from '#machines/onboarding/labels.ts';
import { ageOn, calendarDate } from '#machines/onboarding/age.ts';
import { objectMessage } from '#machines/onboarding/messages.ts';

export { ageOn };

/**
 * Validation schemas of the onboarding forms, shared by the SPA forms (field-level
 * errors) and the BFF (`profil`, `questionnaire` and `contractForm` update
 * contexts). Messages are French, written for the member.
 *
 * Time is an input: the birth-date rule (adult, 18+) needs `now`, so the personal
 * information schema is built by a function.
 */

export const ADULT_AGE = 18;
const MAX_AGE = 120;

// ---------------------------------------------------------------------------
// Choices (their French labels live in the one label table, labels.ts)

export type MaritalStatus = keyof typeof maritalStatusLabels;
const maritalStatuses = Object.keys(maritalStatusLabels) as MaritalStatus[];

export type PrayerPractice = keyof typeof prayerPracticeLabels;
const prayerPractices = Object.keys(prayerPracticeLabels) as PrayerPractice[];

export type SoughtPractice = keyof typeof soughtPracticeLabels;
const soughtPractices = Object.keys(soughtPracticeLabels) as SoughtPractice[];

export type Region = keyof typeof regionLabels;
const regions = Object.keys(regionLabels) as Region[];

export type ProfessionalSituation = keyof typeof professionalSituationLabels;
const professionalSituations = Object.keys(professionalSituationLabels) as ProfessionalSituation[];

export type WantsChildren = keyof typeof wantsChildrenLabels;
const wantsChildrenChoices = Object.keys(wantsChildrenLabels) as WantsChildren[];

export type Language = keyof typeof languageLabels;
export const languages = Object.keys(languageLabels) as Language[];
export type EducationLevel = keyof typeof educationLevelLabels;
export const educationLevels = Object.keys(educationLevelLabels) as EducationLevel[];
export type Hijab = keyof typeof hijabLabels;
const hijabChoices = Object.keys(hijabLabels) as Hijab[];
export type Beard = keyof typeof beardLabels;
const beardChoices = Object.keys(beardLabels) as Beard[];
export type Madhhab = keyof typeof madhhabLabels;
export const madhhabs = Object.keys(madhhabLabels) as Madhhab[];

/** A criterion the member marks as indispensable (else it is only wished), decision 193. */
export type RequirableCriterion = keyof typeof requirableCriterionLabels;
export const requirableCriteria = Object.keys(requirableCriterionLabels) as RequirableCriterion[];

// ---------------------------------------------------------------------------
// Field schemas

const NAME = /^\p{L}[\p{L}\p{M}' .-]*$/u;

function nameSchema(required: string, invalid: string) {
  return v.pipe(v.string(required), v.trim(), v.minLength(1, required), v.maxLength(60, invalid), v.regex(NAME, invalid));
}

function textSchema(min: number, max: number, required: string, tooLong: string) {
  return v.pipe(v.string(required), v.trim(), v.minLength(min, required), v.maxLength(max, tooLong));
}

export const postcodeSchema = v.pipe(
  v.string('Code postal invalide (5 chiffres)'),
  v.trim(),
  v.regex(/^\d{5}$/, 'Code postal invalide (5 chiffres)'),
);

export const citySchema = textSchema(1, 80, 'Ville requise', 'Nom de ville trop long');

/** A French or international phone number, normalised to E.164 (e.g. +33612345678). */
export const phoneSchema = v.pipe(
  v.string('Numéro de téléphone invalide'),
  v.trim(),
  v.check((value) => isValidPhoneNumber(value, 'FR'), 'Numéro de téléphone invalide'),
  v.transform((value) => parsePhoneNumber(value, 'FR').number),
);

export function birthDateSchema(now: number) {
  return v.pipe(
    v.string('Date de naissance invalide'),
    v.check((value) => calendarDate(value) !== null, 'Date de naissance invalide'),
    v.check((value) => {
      const age = ageOn(value, now);
      return age !== null && age >= 0 && age <= MAX_AGE;
    }, 'Date de naissance invalide'),
    v.check((value) => (ageOn(value, now) ?? 0) >= ADULT_AGE, 'Vous devez être majeur(e) pour vous inscrire'),
  );
}

// ---------------------------------------------------------------------------
// Step 1: personal information (profil)

export function personalInfoEntries(now: number) {
  return {
    firstName: nameSchema('Prénom requis', 'Prénom invalide'),
    lastName: nameSchema('Nom requis', 'Nom invalide'),
    birthDate: birthDateSchema(now),
    phone: phoneSchema,
    postcode: postcodeSchema,
    city: citySchema,
    maritalStatus: v.picklist(maritalStatuses, 'Situation familiale invalide'),
    childrenCount: v.pipe(
      v.number('Nombre d’enfants invalide'),
      v.integer('Nombre d’enfants invalide'),
      v.minValue(0, 'Nombre d’enfants invalide'),
      v.maxValue(20, 'Nombre d’enfants invalide'),
    ),
    profession: textSchema(2, 100, 'Profession requise', 'Profession trop longue (100 caractères au plus)'),
    /** Sensitive data (religious practice): processed only with the consent below. */
    prayerPractice: v.picklist(prayerPractices, 'Veuillez indiquer votre pratique de la prière'),
    practiceDetails: v.optional(
      v.pipe(v.string('Texte invalide'), v.trim(), v.maxLength(1000, 'Texte trop long (1000 caractères au plus)')),
      '',
    ),
    /**
     * The richer profile (decision 208): every one optional, so that answers saved before read as
     * they were. Languages, education and height are ordinary data.
     */
    languages: v.optional(
      v.pipe(
        v.array(v.picklist(languages, 'Langue invalide'), 'Langues invalides'),
        v.maxLength(languages.length, 'Trop de langues'),
        v.check((list) => new Set(list).size === list.length, 'Langue choisie deux fois'),
      ),
    ),
    educationLevel: v.optional(v.picklist(educationLevels, 'Niveau d’études invalide')),
    heightCm: v.optional(
      v.pipe(
        v.number('Taille invalide'),
        v.integer('Indiquez votre taille en centimètres, sans virgule'),
        v.minValue(HEIGHT_MIN_CM, `Taille invalide (entre ${HEIGHT_MIN_CM} et ${HEIGHT_MAX_CM}\u00a0cm)`),
        v.maxValue(HEIGHT_MAX_CM, `Taille invalide (entre ${HEIGHT_MIN_CM} et ${HEIGHT_MAX_CM}\u00a0cm)`),
      ),
    ),
    /** Sensitive data (religious practice), like the prayer practice: only with the consent below. */
    hijab: v.optional(v.picklist(hijabChoices, 'Réponse invalide sur le port du voile')),
    beard: v.optional(v.picklist(beardChoices, 'Réponse invalide sur le port de la barbe')),
    madhhab: v.optional(v.picklist(madhhabs, 'École juridique invalide')),
    /** Explicit consent (GDPR art. 9(2)(a)): a clear, unticked checkbox that must be ticked. */
    sensitiveDataConsent: v.literal(true, 'Votre consentement explicite est nécessaire pour que nous traitions ces informations'),
  };
}

/** The answers of step 1 that reveal religious practice (GDPR art. 9): kept only under the consent. */
export const SENSITIVE_PROFILE_FIELDS = ['prayerPractice', 'practiceDetails', 'hijab', 'beard', 'madhhab'] as const;
/** The richer profile's sensitive answers (decision 208): refused while the consent is withdrawn. */
export const SENSITIVE_PROFILE_DETAILS = ['hijab', 'beard', 'madhhab'] as const;

/**
 * The questions asked of one sex only: the hijab of a woman, the beard of a man. The form does not
 * know who fills it in; the server, which does, refuses the other one (French messages, by field).
 */
export function genderedAnswerIssues(
  gender: string | null | undefined,
  answers: Record<string, unknown>,
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (answers.hijab !== undefined && gender !== 'femme')
    issues.push({ path: 'hijab', message: 'La question du voile n’est posée qu’aux femmes' });
  if (answers.beard !== undefined && gender !== 'homme')
    issues.push({ path: 'beard', message: 'La question de la barbe n’est posée qu’aux hommes' });
  return issues;
}

export function personalInfoSchema(now: number) {
  return v.strictObject(personalInfoEntries(now), objectMessage);
}
export type PersonalInfo = v.InferOutput<ReturnType<typeof personalInfoSchema>>;

// ---------------------------------------------------------------------------
// Step 2: matchmaking questionnaire (the contract's annex, R224-1)

function soughtHeightSchema(message: string) {
  return v.pipe(
    v.number(message),
    v.integer('Indiquez la taille en centimètres, sans virgule'),
    v.minValue(HEIGHT_MIN_CM, `Taille invalide (entre ${HEIGHT_MIN_CM} et ${HEIGHT_MAX_CM}\u00a0cm)`),
    v.maxValue(HEIGHT_MAX_CM, `Taille invalide (entre ${HEIGHT_MIN_CM} et ${HEIGHT_MAX_CM}\u00a0cm)`),
  );
}

export const questionnaireEntries = {
  soughtPractice: v.picklist(soughtPractices, 'Veuillez indiquer la pratique recherchée'),
  soughtAgeMin: v.pipe(
    v.number('Âge minimum invalide'),
    v.integer('Âge minimum invalide'),
    v.minValue(ADULT_AGE, `L’âge minimum est de ${ADULT_AGE} ans`),
    v.maxValue(99, 'Âge minimum invalide'),
  ),
  soughtAgeMax: v.pipe(
    v.number('Âge maximum invalide'),
    v.integer('Âge maximum invalide'),
    v.minValue(ADULT_AGE, `L’âge minimum est de ${ADULT_AGE} ans`),
    v.maxValue(99, 'Âge maximum invalide'),
  ),
  soughtRegions: v.pipe(
    v.array(v.picklist(regions, 'Région invalide'), 'Veuillez choisir au moins une région'),
    v.minLength(1, 'Veuillez choisir au moins une région'),
    v.maxLength(regions.length, 'Trop de régions'),
    v.check((list) => new Set(list).size === list.length, 'Région choisie deux fois'),
  ),
  soughtFamilySituations: v.pipe(
    v.array(v.picklist(maritalStatuses, 'Situation familiale invalide'), 'Veuillez choisir au moins une situation familiale'),
    v.minLength(1, 'Veuillez choisir au moins une situation familiale'),
    v.maxLength(maritalStatuses.length, 'Trop de situations familiales'),
    v.check((list) => new Set(list).size === list.length, 'Situation choisie deux fois'),
  ),
  acceptsChildren: v.boolean('Veuillez indiquer si vous acceptez une personne ayant des enfants'),
  soughtProfessionalSituation: v.picklist(professionalSituations, 'Veuillez indiquer la situation professionnelle recherchée'),
  wantsChildren: v.picklist(wantsChildrenChoices, 'Veuillez indiquer si vous souhaitez des enfants'),
  readyToRelocate: v.boolean('Veuillez indiquer si vous accepteriez de déménager'),
  /**
   * The height wished for the person sought, in centimetres (decision 212): optional, either bound
   * alone (« au moins 1,75 m »); a wish that ranks the proposals, never an indispensable criterion.
   */
  soughtHeightMin: v.optional(soughtHeightSchema('Taille minimale souhaitée invalide')),
  soughtHeightMax: v.optional(soughtHeightSchema('Taille maximale souhaitée invalide')),
  /** The criteria the member marks as indispensable; the others are only wished (none is a valid answer). */
  requiredCriteria: v.pipe(
    v.array(v.picklist(requirableCriteria, 'Critère invalide'), 'Critères indispensables invalides'),
    v.maxLength(requirableCriteria.length, 'Trop de critères'),
    v.check((list) => new Set(list).size === list.length, 'Critère choisi deux fois'),
  ),
  otherQualities: textSchema(
    10,
    1000,
    'Décrivez en quelques mots les autres qualités essentielles (10 caractères au moins)',
    'Texte trop long (1000 caractères au plus)',
  ),
};

/** Cross-field rule of the wished height (decision 212), reported on `soughtHeightMax`. */
export const HEIGHT_RANGE_MESSAGE = 'La taille maximale souhaitée doit être supérieure ou égale à la taille minimale';
function heightRangeInOrder(input: { soughtHeightMin?: number | undefined; soughtHeightMax?: number | undefined }): boolean {
  return input.soughtHeightMin === undefined || input.soughtHeightMax === undefined || input.soughtHeightMin <= input.soughtHeightMax;
}

/** Cross-field rule of the questionnaire, reported on `soughtAgeMax`. */
export const AGE_RANGE_MESSAGE = 'L’âge maximum doit être supérieur ou égal à l’âge minimum';
export function ageRangeInOrder(input: { soughtAgeMin: number; soughtAgeMax: number }): boolean {
  return input.soughtAgeMin <= input.soughtAgeMax;
}

/** What the member sends (the wizard's step 2, « Mes informations »): every question answered. */
export const questionnaireSchema = v.pipe(
  v.strictObject(questionnaireEntries, objectMessage),
  v.forward(v.partialCheck([['soughtAgeMin'], ['soughtAgeMax']], ageRangeInOrder, AGE_RANGE_MESSAGE), ['soughtAgeMax']),
  v.forward(v.partialCheck([['soughtHeightMin'], ['soughtHeightMax']], heightRangeInOrder, HEIGHT_RANGE_MESSAGE), ['soughtHeightMax']),
);

/**
 * A stored questionnaire, as matchmaking and the contract read it: those saved before decision 193
 * have no wish for children, no answer on moving and no indispensable criteria (absent, never
 * guessed: machines/matching/criteria.ts says what an absent answer means).
 */
export const storedQuestionnaireSchema = v.pipe(
  v.strictObject(
    {
      ...questionnaireEntries,
      wantsChildren: v.optional(questionnaireEntries.wantsChildren),
      readyToRelocate: v.optional(questionnaireEntries.readyToRelocate),
      requiredCriteria: v.optional(questionnaireEntries.requiredCriteria),
    },
    objectMessage,
  ),
  v.forward(v.partialCheck([['soughtAgeMin'], ['soughtAgeMax']], ageRangeInOrder, AGE_RANGE_MESSAGE), ['soughtAgeMax']),
  v.forward(v.partialCheck([['soughtHeightMin'], ['soughtHeightMax']], heightRangeInOrder, HEIGHT_RANGE_MESSAGE), ['soughtHeightMax']),
);
export type Questionnaire = v.InferOutput<typeof storedQuestionnaireSchema>;

// ---------------------------------------------------------------------------
// Step 8: contract form (L224-90: name, address; the signature reproduces the name)

/** Case and extra spaces do not matter when comparing the signature with the name. */
export function normaliseSignature(value: string): string {
  return value.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('fr-FR');
}

export const contractFormEntries = {
  fullName: textSchema(3, 120, 'Nom complet requis', 'Nom trop long (120 caractères au plus)'),
  address: textSchema(5, 200, 'Adresse requise', 'Adresse trop longue (200 caractères au plus)'),
  postcode: postcodeSchema,
  city: citySchema,
  /** The member types their full name to sign. */
  signature: textSchema(3, 120, 'Signature requise', 'Signature trop longue'),
  termsAccepted: v.literal(true, 'Vous devez accepter le contrat et les conditions générales de vente'),
};

/** Cross-field rule of the contract form, reported on `signature`. */
export const SIGNATURE_MESSAGE = 'La signature doit reprendre exactement votre nom complet';
export function signatureMatchesName(input: { fullName: string; signature: string }): boolean {
  return normaliseSignature(input.fullName) === normaliseSignature(input.signature);
}

export const contractFormSchema = v.pipe(
  v.strictObject(contractFormEntries, objectMessage),
  v.forward(v.partialCheck([['fullName'], ['signature']], signatureMatchesName, SIGNATURE_MESSAGE), ['signature']),
);
export type ContractForm = v.InferOutput<typeof contractFormSchema>;
