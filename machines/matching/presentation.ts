import { findPhoneNumbersInText } from 'libphonenumber-js/min';
import * as v from 'valibot';

/**
 * The member's short presentation (issue 22, decision 128): optional free text shown to the other
 * side inside a proposal's anonymised summary, to staff on the member's file. One schema for the
 * page and the BFF.
 */

/**
 * 600 characters: about four short paragraphs — enough to say who one is and what one hopes for,
 * short enough to read on a phone inside the summary card, and to keep the summary a summary
 * (the agency presents people; the conversation happens at the chaperoned meeting).
 */
export const PRESENTATION_MAX_LENGTH = 600;

/** An e-mail address anywhere in the text (something@domain.tld). */
const EMAIL = /[^\s@<>()[\]]+@[^\s@<>()[\]]+\.[a-z]{2,}/i;
/** Nine digits or more in a row, single spaces, dots, dashes or slashes between them. */
const DIGIT_RUN = /(?:\d[\s./-]?){8,}\d/;

export function hasEmailAddress(text: string): boolean {
  return EMAIL.test(text);
}

/** A phone number in any usual form (libphonenumber-js, French numbers by default), or a long run of digits. */
export function hasPhoneNumber(text: string): boolean {
  if (DIGIT_RUN.test(text)) return true;
  return findPhoneNumbersInText(text, 'FR').length > 0;
}

export const PRESENTATION_TOO_LONG = `Votre présentation dépasse ${PRESENTATION_MAX_LENGTH} caractères : raccourcissez-la.`;
export const PRESENTATION_NO_EMAIL =
  'Votre présentation ne doit pas contenir d’adresse e-mail : l’agence transmet les coordonnées seulement quand vous avez accepté tous les deux.';
export const PRESENTATION_NO_PHONE =
  'Votre présentation ne doit pas contenir de numéro de téléphone : l’agence transmet les coordonnées seulement quand vous avez accepté tous les deux.';

/** The text itself: trimmed; empty means « no presentation » (it is then removed). */
export const PresentationText = v.pipe(
  v.string('Votre présentation doit être un texte.'),
  v.trim(),
  v.maxLength(PRESENTATION_MAX_LENGTH, PRESENTATION_TOO_LONG),
  v.check((text) => !hasEmailAddress(text), PRESENTATION_NO_EMAIL),
  v.check((text) => !hasPhoneNumber(text), PRESENTATION_NO_PHONE),
);

/** `PUT /api/v1/user/presentation`. */
export const PresentationBody = v.strictObject({ presentation: PresentationText }, (issue) =>
  issue.kind === 'schema' && issue.type === 'strict_object' ? 'Champ inattendu.' : 'Indiquez votre présentation.',
);
export type PresentationInput = v.InferOutput<typeof PresentationBody>;
