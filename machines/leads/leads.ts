import * as v from 'valibot';
import { NoteBody } from '#machines/follow-up/follow-up.ts';
import { leadKinds, leadStatuses, PRE_REGISTRATION_SUBJECT } from '#machines/leads/labels.ts';
import { BODY_MAX, knownPlaceholders, SUBJECT_MAX } from '#machines/messages/messages.ts';
import { CONTACT_SUBJECTS } from '#machines/public-site/public-forms.ts';

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

/** The inbox's « Objet » filter: the contact form's subjects, and the pre-registrations. */
export const leadSubjects = [...CONTACT_SUBJECTS, PRE_REGISTRATION_SUBJECT] as const;

/** `GET /api/v1/dashboard/leads`: filters, a period of reception (days in Paris, both included), a page. */
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
  subject: v.optional(v.picklist(leadSubjects, 'Objet inconnu')),
  from: v.optional(DaySchema),
  to: v.optional(DaySchema),
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

/**
 * `POST /api/v1/dashboard/leads/:id/answers` (and its preview): the mail staff write to a lead,
 * from a template or freely; `{prenom}` and `{agence}` are filled by the server.
 */
export const LeadAnswerBody = v.strictObject(
  {
    subject: v.pipe(
      v.string('Objet requis'),
      v.trim(),
      v.minLength(1, 'Indiquez l’objet de l’e-mail'),
      v.maxLength(SUBJECT_MAX, `Objet trop long (${SUBJECT_MAX} caractères au plus)`),
      knownPlaceholders,
    ),
    body: v.pipe(
      v.string('Message requis'),
      v.trim(),
      v.minLength(1, 'Écrivez le message'),
      v.maxLength(BODY_MAX, 'Message trop long (5 000 caractères au plus)'),
      knownPlaceholders,
    ),
    templateId: v.optional(v.nullable(v.pipe(v.number('Modèle inconnu'), v.integer('Modèle inconnu'), v.minValue(1, 'Modèle inconnu')))),
  },
  'Champ inconnu',
);
export type LeadAnswer = v.InferOutput<typeof LeadAnswerBody>;
