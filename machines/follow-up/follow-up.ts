import * as v from 'valibot';

/**
 * Staff's follow-up (issue 21): a note's text, shared by the leads inbox (decision 112) and the
 * member file (decision 124); a member's tags and counsellor. Valibot schemas of the staff API,
 * shared by the SPA and the BFF.
 */

export const NOTE_MAX_LENGTH = 2000;

/** A staff note, on a lead or on a member: trimmed, 1 to 2,000 characters. */
export const NoteBody = v.object({
  body: v.pipe(
    v.string('Écrivez la note'),
    v.trim(),
    v.minLength(1, 'Écrivez la note'),
    v.maxLength(NOTE_MAX_LENGTH, `Note trop longue (${NOTE_MAX_LENGTH} caractères au plus)`),
  ),
});

export const TAG_MAX_LENGTH = 40;

/**
 * A free short label: trimmed, inner spaces collapsed, kept in the case it was typed in (« VIP »
 * stays « VIP », issue 63); letters (accents included), digits, spaces, hyphens and apostrophes
 * only. One tag whatever the case: tags are matched by their `tagKey`.
 */
export const TagSchema = v.pipe(
  v.string('Écrivez l’étiquette'),
  v.trim(),
  v.transform((tag) => tag.replace(/\s+/g, ' ').replace(/’/g, "'")),
  v.minLength(1, 'Écrivez l’étiquette'),
  v.maxLength(TAG_MAX_LENGTH, `Étiquette trop longue (${TAG_MAX_LENGTH} caractères au plus)`),
  v.regex(/^[\p{L}\p{N}][\p{L}\p{N} '-]*$/u, 'Lettres, chiffres, espaces, tirets et apostrophes seulement'),
);

/** What tags are matched by (a member has one of each, filters and removals find it): the tag in lower case. */
export function tagKey(tag: string): string {
  return tag.toLocaleLowerCase('fr-FR');
}

/** `POST /api/v1/dashboard/members/:id/tags`. */
export const TagBody = v.object({ tag: TagSchema });

/** `PUT /api/v1/dashboard/members/:id/counsellor`: a staff account, or null for nobody. */
export const CounsellorBody = v.object({
  counsellorId: v.nullable(v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')), null),
});

/** The member list's filter on the counsellor: a staff id, or nobody. */
export const NO_COUNSELLOR = 'aucun';
