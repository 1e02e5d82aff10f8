import * as v from 'valibot';
import { NoteBody } from '#machines/follow-up/follow-up.ts';
import { leadKinds, leadStatuses } from '#machines/leads/labels.ts';

/**
 * The leads inbox (decision 112): pre-registrations and contact messages that staff follow up.
 * The valibot schemas of the staff API, shared by the SPA and the BFF; the codes and their French
 * labels are in labels.ts.
 */

/** Filter value of the assignee: a staff member's id, or nobody. */
export const UNASSIGNED = 'aucun';

const uuid = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));

/** A calendar day `YYYY-MM-DD` that exists (no 31 February). */
export const DaySchema = v.pipe(
  v.string('Date invalide'),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Date invalide (jj/mm/aaaa)'),
  v.check((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
  }, 'Cette date n’existe pas'),
  v.check((day) => day >= '2020-01-01' && day <= '2100-12-31', 'Date hors des limites'),
);

const pageParam = (max: number, fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d{1,6}$/, 'Nombre entier attendu'),
    v.transform(Number),
    v.minValue(1, 'Au moins 1'),
    v.maxValue(max, `Au plus ${max}`),
  );

/** `GET /api/v1/dashboard/leads`. */
export const LeadsQuery = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Recherche trop longue'))),
  status: v.optional(v.picklist(leadStatuses, 'Statut inconnu')),
  kind: v.optional(v.picklist(leadKinds, 'Type inconnu')),
  assignee: v.optional(
    v.pipe(
      v.string('Personne en charge inconnue'),
      v.check((value) => value === UNASSIGNED || v.is(uuid, value), 'Personne en charge inconnue'),
    ),
  ),
  page: pageParam(100_000, '1'),
  perPage: pageParam(100, '50'),
});

/** `PATCH /api/v1/dashboard/leads/:id`: one or more of the three; null clears assignee or date. */
export const LeadChangeBody = v.pipe(
  v.object({
    status: v.optional(v.picklist(leadStatuses, 'Statut inconnu')),
    assigneeId: v.optional(v.nullable(uuid)),
    followUpOn: v.optional(v.nullable(DaySchema)),
  }),
  v.check(
    (body) => body.status !== undefined || body.assigneeId !== undefined || body.followUpOn !== undefined,
    'Rien à modifier : indiquez un statut, une personne en charge ou une date de relance',
  ),
);

export { NOTE_MAX_LENGTH } from '#machines/follow-up/follow-up.ts';

/** `POST /api/v1/dashboard/leads/:id/notes`: the same note as on a member's file. */
export const LeadNoteBody = NoteBody;
