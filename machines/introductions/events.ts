import * as v from 'valibot';
import type { Actor } from '#machines/introductions/context.ts';
import {
  type DeclineReason,
  declineReasonLabels,
  type EndCause,
  endCauseLabels,
  type FeedbackOutcome,
  feedbackOutcomeLabels,
  type IntroductionEventType,
  type Side,
  sideLabels,
} from '#machines/introductions/labels.ts';
import { isoInstantSchema } from '#machines/onboarding/instant.ts';
import { objectMessage } from '#machines/onboarding/messages.ts';

/**
 * The events of the introduction chart: the request bodies the BFF receives (valibot, strict
 * objects, bounded strings, French messages), and the chart events it builds from them by adding
 * who sends it (`actor`, from the session, never from the body) and when (`at`, the server clock).
 */

export const declineReasons = Object.keys(declineReasonLabels) as DeclineReason[];
export const feedbackOutcomes = Object.keys(feedbackOutcomeLabels) as FeedbackOutcome[];

export const COMMENT_MAX_LENGTH = 1000;
export const NOTE_MAX_LENGTH = 2000;
export const PLACE_MAX_LENGTH = 200;
export const CLOSE_MESSAGE_MAX_LENGTH = 4000;

function strict<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.strictObject(entries, objectMessage);
}

const sideSchema = v.picklist(Object.keys(sideLabels) as Side[], 'Côté invalide');
const reasonSchema = v.picklist(declineReasons, 'Veuillez choisir un motif dans la liste');

function boundedText(max: number, required: string) {
  return v.pipe(v.string(required), v.trim(), v.minLength(1, required), v.maxLength(max, `${max} caractères au plus`));
}

export const acceptBodySchema = strict({ type: v.literal('ACCEPT'), side: sideSchema });

export const declineBodySchema = strict({
  type: v.literal('DECLINE'),
  side: sideSchema,
  reason: reasonSchema,
  comment: v.optional(
    v.pipe(v.string('Commentaire invalide'), v.trim(), v.maxLength(COMMENT_MAX_LENGTH, `${COMMENT_MAX_LENGTH} caractères au plus`)),
  ),
});

export const feedbackBodySchema = v.pipe(
  strict({
    type: v.literal('FEEDBACK'),
    side: sideSchema,
    outcome: v.picklist(feedbackOutcomes, 'Veuillez choisir une suite'),
    reason: v.optional(reasonSchema),
  }),
  // A member who stops says why (from the list); the other outcomes carry no reason.
  v.forward(
    v.check(
      (body) => (body.outcome === 'arreter') === (body.reason !== undefined),
      'Un motif est demandé pour arrêter, et seulement pour arrêter',
    ),
    ['reason'],
  ),
);

export const planMeetingBodySchema = strict({
  type: v.literal('PLAN_MEETING'),
  meetingAt: isoInstantSchema('Date de rencontre invalide'),
  place: boundedText(PLACE_MAX_LENGTH, 'Veuillez indiquer le lieu de la rencontre'),
  /** Who accompanies the meeting (decision 197): the counsellor, a walī, … Said in the mails. */
  accompaniedBy: v.optional(
    v.pipe(v.string('Accompagnement invalide'), v.trim(), v.maxLength(PLACE_MAX_LENGTH, `${PLACE_MAX_LENGTH} caractères au plus`)),
  ),
});

/** Staff cancel the planned meeting (decision 197): back to « acceptée », both members (and walīs) told. */
export const cancelMeetingBodySchema = strict({ type: v.literal('CANCEL_MEETING') });

export const recordMeetingHeldBodySchema = strict({ type: v.literal('RECORD_MEETING_HELD') });

export const closeBodySchema = strict({
  type: v.literal('CLOSE'),
  note: boundedText(NOTE_MAX_LENGTH, 'Une note est demandée'),
  /** Decision 205: the message the other member (both, when the agency decided) receives by mail and on screen. */
  message: v.optional(boundedText(CLOSE_MESSAGE_MAX_LENGTH, 'Veuillez écrire le message au membre')),
  /** Who asked to stop; absent: the agency decided. The message goes to the other side (to both when absent). */
  askedBy: v.optional(sideSchema),
});

/**
 * The word a member receives when staff close without writing one (issue 62 point 5, decision 212):
 * whatever the client (the screen requires a message, the API does not), the member who did not ask
 * for the end always reads a word, by mail and on screen. `askedBy` null: the agency decided (both read it).
 */
export function defaultCloseMessage(askedBy: Side | null): string {
  const first =
    askedBy === null
      ? 'Nous avons mis fin à cette mise en relation.'
      : 'L’autre personne a souhaité ne pas poursuivre cette mise en relation.';
  return `${first} Votre conseillère reste à votre disposition pour en parler et pour préparer la suite de votre accompagnement.`;
}

export const reopenBodySchema = strict({ type: v.literal('REOPEN'), note: boundedText(NOTE_MAX_LENGTH, 'Une note est demandée') });

export const expireBodySchema = strict({ type: v.literal('EXPIRE') });

export const remindBodySchema = strict({ type: v.literal('REMIND') });

/**
 * The agency's own end of an introduction (decision 194): sent by the server, never over HTTP (the
 * BFF refuses it from staff and members alike), when a member's contract or account ends.
 */
export const endBodySchema = strict({
  type: v.literal('END'),
  cause: v.picklist(Object.keys(endCauseLabels) as EndCause[], 'Cause inconnue'),
  party: sideSchema,
});

/** Each event type: its body schema, and whether only staff (or the agency's scheduler) may send it. */
export const introductionEvents = {
  ACCEPT: { schema: acceptBodySchema, staffOnly: false },
  DECLINE: { schema: declineBodySchema, staffOnly: false },
  FEEDBACK: { schema: feedbackBodySchema, staffOnly: false },
  PLAN_MEETING: { schema: planMeetingBodySchema, staffOnly: true },
  RECORD_MEETING_HELD: { schema: recordMeetingHeldBodySchema, staffOnly: true },
  CANCEL_MEETING: { schema: cancelMeetingBodySchema, staffOnly: true },
  CLOSE: { schema: closeBodySchema, staffOnly: true },
  REOPEN: { schema: reopenBodySchema, staffOnly: true },
  EXPIRE: { schema: expireBodySchema, staffOnly: true },
  REMIND: { schema: remindBodySchema, staffOnly: true },
  END: { schema: endBodySchema, staffOnly: true },
} as const satisfies Record<IntroductionEventType, { schema: v.GenericSchema; staffOnly: boolean }>;

export const eventTypes = Object.keys(introductionEvents) as IntroductionEventType[];
export const staffOnlyEventTypes = eventTypes.filter((type) => introductionEvents[type].staffOnly);
/** Member events: sent by the member of the named side only (their consent cannot be given for them). */
export const memberEventTypes = eventTypes.filter((type) => !introductionEvents[type].staffOnly);

export type IntroductionBody = {
  [K in IntroductionEventType]: v.InferOutput<(typeof introductionEvents)[K]['schema']>;
}[IntroductionEventType];

const typeSchema = v.object({ type: v.picklist(eventTypes, 'Action inconnue') }, 'Requête invalide');

export type ParseBodyResult = { success: true; body: IntroductionBody } | { success: false; issues: v.BaseIssue<unknown>[] };

/** Validates a request body: its `type` first, then the whole body against that event's schema. */
export function parseIntroductionBody(input: unknown): ParseBodyResult {
  const head = v.safeParse(typeSchema, input);
  if (!head.success) return { success: false, issues: head.issues };
  const result = v.safeParse(introductionEvents[head.output.type].schema as v.GenericSchema<unknown, IntroductionBody>, input);
  return result.success ? { success: true, body: result.output } : { success: false, issues: result.issues };
}

// ---------------------------------------------------------------------------
// Chart events

interface Sent {
  actor: Actor;
  /** The server's clock when the event arrived (ms). */
  at: number;
}

export type AcceptEvent = Sent & { type: 'ACCEPT'; side: Side };
export type DeclineEvent = Sent & { type: 'DECLINE'; side: Side; reason: DeclineReason; comment: string | null };
export type FeedbackEvent = Sent & {
  type: 'FEEDBACK';
  side: Side;
  outcome: FeedbackOutcome;
  reason: DeclineReason | null;
  /** Decision 205: the staff account recording it as heard by phone (set by the BFF from the session, never from a body). */
  recordedBy?: string | undefined;
};
export type PlanMeetingEvent = Sent & { type: 'PLAN_MEETING'; meetingAt: string; place: string; accompaniedBy?: string | undefined };
export type CancelMeetingEvent = Sent & { type: 'CANCEL_MEETING' };
export type RecordMeetingHeldEvent = Sent & { type: 'RECORD_MEETING_HELD' };
export type CloseEvent = Sent & { type: 'CLOSE'; note: string; message?: string | undefined; askedBy?: Side | undefined };
export type ReopenEvent = Sent & { type: 'REOPEN'; note: string };
export type ExpireEvent = Sent & { type: 'EXPIRE' };
export type RemindEvent = Sent & { type: 'REMIND' };
/** `party`: whose contract or account ended (not `side`: the event is the agency's, not that member's). */
export type EndEvent = Sent & { type: 'END'; cause: EndCause; party: Side };

export type IntroductionEvent =
  | AcceptEvent
  | DeclineEvent
  | FeedbackEvent
  | PlanMeetingEvent
  | RecordMeetingHeldEvent
  | CancelMeetingEvent
  | CloseEvent
  | ReopenEvent
  | ExpireEvent
  | RemindEvent
  | EndEvent;

/** The chart event for a validated body, sent by `actor` at `at` (ms). */
export function toMachineEvent(body: IntroductionBody, actor: Actor, at: number): IntroductionEvent {
  switch (body.type) {
    case 'DECLINE':
      return { ...body, comment: body.comment === undefined || body.comment === '' ? null : body.comment, actor, at };
    case 'FEEDBACK':
      return { ...body, reason: body.reason ?? null, actor, at };
    default:
      return { ...body, actor, at };
  }
}

/** Whether the event may come from this kind of actor at all (before the chart is asked). */
export function actorMaySend(type: IntroductionEventType, actor: Actor): boolean {
  return introductionEvents[type].staffOnly ? actor.kind === 'staff' : actor.kind === 'member';
}
