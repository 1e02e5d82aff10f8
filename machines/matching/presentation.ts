import { contactRefusal, findContactDetails } from '#machines/matching/contact-details.ts';
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

export const PRESENTATION_TOO_LONG = `Votre présentation dépasse ${PRESENTATION_MAX_LENGTH} caractères : raccourcissez-la.`;
/** The text itself: trimmed; empty means « no presentation » (it is then removed). */
export const PresentationText = v.pipe(
  v.string('Votre présentation doit être un texte.'),
  v.trim(),
  v.maxLength(PRESENTATION_MAX_LENGTH, PRESENTATION_TOO_LONG),
  // No contact details in any usual form (decision 200); the refusal says what was found.
  v.check(
    (text) => findContactDetails(text).length === 0,
    (issue) => contactRefusal(findContactDetails(String(issue.input))),
  ),
);

/** `PUT /api/v1/user/presentation`. */
export const PresentationBody = v.strictObject({ presentation: PresentationText }, (issue) =>
  issue.kind === 'schema' && issue.type === 'strict_object' ? 'Champ inattendu.' : 'Indiquez votre présentation.',
);
export type PresentationInput = v.InferOutput<typeof PresentationBody>;

/** Staff's refusal message, read by the member. */
export const PresentationRefusal = v.pipe(
  v.string('Écrivez le message au membre.'),
  v.trim(),
  v.nonEmpty('Écrivez au membre ce qui doit changer.'),
  v.maxLength(1000, 'Le message au membre ne doit pas dépasser 1 000 caractères.'),
);

/** `POST /api/v1/dashboard/members/:id/presentation/review` (decision 200): the text read is named by its `updatedAt`. */
export const PresentationReviewBody = v.variant(
  'decision',
  [
    v.strictObject({
      decision: v.literal('approuver'),
      updatedAt: v.pipe(v.string(), v.isoTimestamp('Version de la présentation invalide.')),
    }),
    v.strictObject({
      decision: v.literal('refuser'),
      updatedAt: v.pipe(v.string(), v.isoTimestamp('Version de la présentation invalide.')),
      message: PresentationRefusal,
    }),
  ],
  'Choisissez d’approuver ou de refuser la présentation.',
);
