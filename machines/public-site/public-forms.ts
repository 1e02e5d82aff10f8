import * as v from 'valibot';
import { EmailSchema, GenderSchema } from '#machines/auth/credentials.ts';

/**
 * Validation of the public site's forms (pre-registration, contact), shared by the SPA forms
 * (field-level errors before sending) and the BFF (the authority). Messages are French.
 */

/** Version of the privacy policy a visitor accepts; stored with each pre-registration. */
export const PRIVACY_POLICY_VERSION = '2026-11-21';

export const MIN_AGE = 18;
export const MAX_AGE = 99;

export const AGE_MESSAGE = `Indiquez un âge entre ${MIN_AGE} et ${MAX_AGE} ans`;
export const ZIP_MESSAGE = 'Code postal invalide (5 chiffres)';
export const CITY_REQUIRED = 'Indiquez votre ville';
export const PRIVACY_CONSENT_MESSAGE = 'Vous devez accepter la politique de confidentialité pour continuer';
export const CONTACT_CONSENT_MESSAGE = 'Vous devez accepter que vos informations servent à vous répondre';

/** No control characters (and so no line break that could reach a mail header). */
const SINGLE_LINE = /^[^\p{Cc}]*$/u;

function lineSchema(min: number, max: number, required: string, tooLong: string) {
  return v.pipe(
    v.string(required),
    v.trim(),
    v.minLength(min, required),
    v.maxLength(max, tooLong),
    v.regex(SINGLE_LINE, 'Caractères non autorisés'),
  );
}

/** An integer age from a number or a form's digit string. */
const AgeSchema = v.pipe(
  v.union(
    [v.number(AGE_MESSAGE), v.pipe(v.string(AGE_MESSAGE), v.trim(), v.regex(/^\d{1,3}$/, AGE_MESSAGE), v.transform(Number))],
    AGE_MESSAGE,
  ),
  v.integer(AGE_MESSAGE),
  v.minValue(MIN_AGE, AGE_MESSAGE),
  v.maxValue(MAX_AGE, AGE_MESSAGE),
);

export const ZipCodeSchema = v.pipe(v.string(ZIP_MESSAGE), v.trim(), v.regex(/^\d{5}$/, ZIP_MESSAGE));

/** `POST /api/v1/subscription/pre-subscription` (spec §3 "Pre-subscription payload", plus consent). */
export const PreSubscriptionSchema = v.object({
  gender: GenderSchema,
  email: EmailSchema,
  age: AgeSchema,
  zip_code: ZipCodeSchema,
  city: lineSchema(1, 80, CITY_REQUIRED, 'Nom de ville trop long (80 caractères au plus)'),
  consent: v.literal(true, PRIVACY_CONSENT_MESSAGE),
});
export type PreSubscription = v.InferOutput<typeof PreSubscriptionSchema>;

export const CONTACT_SUBJECTS = [
  'Une question sur l’accompagnement',
  'Mon inscription',
  'Les formules et les prix',
  'Exercer mes droits (rétractation, données personnelles)',
  'Autre',
] as const;

export const MESSAGE_MIN_LENGTH = 10;
export const MESSAGE_MAX_LENGTH = 5000;

/** `POST /api/v1/contact`. */
export const ContactSchema = v.object({
  name: lineSchema(1, 100, 'Indiquez votre nom ou votre prénom', 'Nom trop long (100 caractères au plus)'),
  email: EmailSchema,
  subject: lineSchema(1, 150, 'Choisissez un objet', 'Objet trop long (150 caractères au plus)'),
  message: v.pipe(
    v.string('Écrivez votre message'),
    v.trim(),
    v.minLength(1, 'Écrivez votre message'),
    v.minLength(MESSAGE_MIN_LENGTH, `Votre message est trop court (${MESSAGE_MIN_LENGTH} caractères au moins)`),
    v.maxLength(MESSAGE_MAX_LENGTH, `Votre message est trop long (${MESSAGE_MAX_LENGTH} caractères au plus)`),
  ),
  consent: v.literal(true, CONTACT_CONSENT_MESSAGE),
});
export type ContactMessage = v.InferOutput<typeof ContactSchema>;
