import type * as v from 'valibot';

/**
 * French message for the object-level issues of a (strict) object schema: a field
 * that is missing, a field that is not expected, or an input that is no object.
 */
export function objectMessage(issue: v.StrictObjectIssue | v.ObjectIssue): string {
  if (issue.expected === 'never') return 'Champ inconnu';
  if (issue.received === 'undefined' && issue.path !== undefined) return 'Champ requis';
  return 'Requête invalide';
}
