import * as v from 'valibot';
import { MAX_OPEN_INTRODUCTIONS_PER_MEMBER } from '#machines/introductions/rules.ts';
import { count } from '#machines/french/plural.ts';

/**
 * Staff's candidate lists (issue 62 point 7, decision 201): the « never propose these two » pair
 * with its reason, and the candidates list's explanatory wording, written from the rules' own
 * constants so the words cannot drift from what the server does.
 */

export const NEVER_PROPOSE_REASON_MAX = 1000;

export const NeverProposeReason = v.pipe(
  v.string('Écrivez la raison.'),
  v.trim(),
  v.nonEmpty('Écrivez pourquoi ces deux personnes ne doivent jamais être proposées l’une à l’autre.'),
  v.maxLength(NEVER_PROPOSE_REASON_MAX, 'La raison ne doit pas dépasser 1 000 caractères.'),
);

/** `POST /api/v1/dashboard/members/:id/never-propose`. */
export const NeverProposeBody = v.strictObject(
  {
    otherId: v.pipe(v.string('Membre inconnu.'), v.uuid('Membre inconnu.')),
    reason: NeverProposeReason,
  },
  (issue) => (issue.kind === 'schema' && issue.type === 'strict_object' ? 'Champ inattendu.' : 'Indiquez le membre et la raison.'),
);

/** Who the ranked list leaves out, in the words of the rules (`exclusionsFor`, `candidatesSql`). */
export const CANDIDATES_RULE_TEXT = `Les membres actifs qui respectent les critères indispensables des deux côtés, classés par score. N’y figurent pas\u00a0: les personnes déjà proposées à ce membre (quelle que soit la réponse), celles en pause ou fiancées, celles qui ont déjà ${count(MAX_OPEN_INTRODUCTIONS_PER_MEMBER, 'mise en relation en cours', 'mises en relation en cours')} (le maximum), et les paires à ne jamais proposer.`;

/** The proposal's refusal when the pair is on the list (422 `NEVER_PROPOSE`). */
export const neverProposeRefusal = (reason: string) =>
  `L’équipe a noté de ne jamais proposer ces deux personnes l’une à l’autre\u00a0: «\u00a0${reason}\u00a0». Retirez d’abord cette paire de la liste si la situation a changé.`;
