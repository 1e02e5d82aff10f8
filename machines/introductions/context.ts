import * as v from 'valibot';
import {
  type DeclineReason,
  type Disclosure,
  declineReasonLabels,
  type EndCause,
  endCauseLabels,
  type FeedbackOutcome,
  feedbackOutcomeLabels,
  type Side,
  sideLabels,
  stateLabels,
} from '#machines/introductions/labels.ts';
import { isoInstantSchema, toIsoInstant } from '#machines/onboarding/instant.ts';
import { memberIdSchema } from '#machines/onboarding/record.ts';

/**
 * The context of one introduction between two members, sides `a` and `b`, as the BFF stores it
 * (JSON, instants as zoned ISO strings) beside the state and a version. Everything the agency must
 * be able to prove (L224-93) is here with its time: each answer, each consent, each disclosure.
 */

export const sides = Object.keys(sideLabels) as Side[];

export function otherSide(side: Side): Side {
  return side === 'a' ? 'b' : 'a';
}

/** Who sends an event: staff (or the server's scheduler, acting for the agency), or one member. */
export type Actor = { kind: 'staff' } | { kind: 'member'; side: Side };

export interface Answer {
  status: 'pending' | 'accepted' | 'declined';
  at: string | null;
  reason: DeclineReason | null;
  comment: string | null;
}

/** When a member agreed to show each item of theirs to the other person, or null. */
export type DisclosureTimes = Record<Disclosure, string | null>;

export interface Meeting {
  /** When the chaperoned first meeting takes place. */
  at: string;
  place: string;
  plannedAt: string;
  /** Who accompanies it (decision 197); null when staff said nothing (meetings planned before). */
  accompaniedBy: string | null;
}

export interface Feedback {
  outcome: FeedbackOutcome;
  reason: DeclineReason | null;
  at: string;
  /** The staff account that recorded it as heard by phone (decision 205); null when the member gave it. */
  recordedBy: string | null;
}

/** Staff's message to the member(s) at a close (decision 205): the text, and who asked to stop (null: the agency). */
export interface CloseMessage {
  text: string;
  askedBy: Side | null;
}

/** What one proposal of the pair went through (the first one, or one after a staff re-opening). */
export interface Round {
  proposedAt: string;
  /** The staff note that re-opened the pair; null for the first proposal. */
  reopenNote: string | null;
  remindedAt: string | null;
  answers: Record<Side, Answer>;
  /** Each side's consent to show its own summary / photos / contact to the other side. */
  consents: Record<Side, DisclosureTimes>;
  /** When each side's summary / photos / contact were shown to the other side. */
  disclosures: Record<Side, DisclosureTimes>;
  meeting: Meeting | null;
  meetingHeldAt: string | null;
  /** Each side's latest feedback after the meeting. */
  feedback: Record<Side, Feedback | null>;
  expiredAt: string | null;
  closedAt: string | null;
  closeNote: string | null;
  /** Staff's message to the other member (or to both) when they closed it (decision 205); null when none. */
  closeMessage: CloseMessage | null;
  /**
   * The agency ended it because a member's contract or account ended (event END, decision 194):
   * when, why, and whose. Nothing is shared from then on, in an engagement too (which stays one).
   */
  ended: Ended | null;
}

export interface Ended {
  at: string;
  cause: EndCause;
  party: Side;
}

export interface IntroductionContext extends Round {
  id: string;
  members: Record<Side, string>;
  /** When each member agreed to be presented with an anonymised summary (their matchmaking consent). */
  summaryConsentAt: Record<Side, string>;
  /** Earlier rounds of the pair, kept whole as proof; the current round is the context itself. */
  history: Array<Round & { endedIn: string }>;
  /** The instant of the last accepted event: the chart's clock never goes back. */
  lastEventAt: string;
}

export interface IntroductionInput {
  id: string;
  members: Record<Side, string>;
  /** When staff proposed the introduction (ms). */
  proposedAt: number;
  summaryConsentAt: Record<Side, string>;
}

const pendingAnswer = (): Answer => ({ status: 'pending', at: null, reason: null, comment: null });
const noDisclosure = (): DisclosureTimes => ({ summary: null, photos: null, contact: null });

/** A fresh round proposed at `at`: summaries shown at once (with the consent each member gave), nothing else. */
export function newRound(summaryConsentAt: Record<Side, string>, at: string, reopenNote: string | null): Round {
  return {
    proposedAt: at,
    reopenNote,
    remindedAt: null,
    answers: { a: pendingAnswer(), b: pendingAnswer() },
    consents: { a: { ...noDisclosure(), summary: summaryConsentAt.a }, b: { ...noDisclosure(), summary: summaryConsentAt.b } },
    disclosures: { a: { ...noDisclosure(), summary: at }, b: { ...noDisclosure(), summary: at } },
    meeting: null,
    meetingHeldAt: null,
    feedback: { a: null, b: null },
    expiredAt: null,
    closedAt: null,
    closeNote: null,
    closeMessage: null,
    ended: null,
  };
}

export function initialContext(input: IntroductionInput): IntroductionContext {
  const at = toIsoInstant(input.proposedAt);
  return {
    id: input.id,
    members: { ...input.members },
    summaryConsentAt: { ...input.summaryConsentAt },
    ...newRound(input.summaryConsentAt, at, null),
    history: [],
    lastEventAt: at,
  };
}

/** The fields of the current round, e.g. to archive it in `history` on a re-opening. */
export function roundOf(context: IntroductionContext): Round {
  const { id: _id, members: _members, summaryConsentAt: _consent, history: _history, lastEventAt: _last, ...round } = context;
  return round;
}

// ---------------------------------------------------------------------------
// Stored form, validated when read back from the database

const instant = isoInstantSchema();
const nullableInstant = v.nullable(instant);
const reasonSchema = v.picklist(Object.keys(declineReasonLabels) as DeclineReason[]);
const bySide = <T extends v.GenericSchema>(schema: T) => v.strictObject({ a: schema, b: schema });
const disclosureTimesSchema = v.strictObject({ summary: nullableInstant, photos: nullableInstant, contact: nullableInstant });

const roundEntries = {
  proposedAt: instant,
  reopenNote: v.nullable(v.string()),
  remindedAt: nullableInstant,
  answers: bySide(
    v.strictObject({
      status: v.picklist(['pending', 'accepted', 'declined']),
      at: nullableInstant,
      reason: v.nullable(reasonSchema),
      comment: v.nullable(v.string()),
    }),
  ),
  consents: bySide(disclosureTimesSchema),
  disclosures: bySide(disclosureTimesSchema),
  meeting: v.nullable(
    v.strictObject({ at: instant, place: v.string(), plannedAt: instant, accompaniedBy: v.optional(v.nullable(v.string()), null) }),
  ),
  meetingHeldAt: nullableInstant,
  feedback: bySide(
    v.nullable(
      v.strictObject({
        outcome: v.picklist(Object.keys(feedbackOutcomeLabels) as FeedbackOutcome[]),
        reason: v.nullable(reasonSchema),
        at: instant,
        recordedBy: v.optional(v.nullable(v.string()), null),
      }),
    ),
  ),
  expiredAt: nullableInstant,
  closedAt: nullableInstant,
  closeNote: v.nullable(v.string()),
  closeMessage: v.optional(
    v.nullable(v.strictObject({ text: v.string(), askedBy: v.nullable(v.picklist(Object.keys(sideLabels) as Side[])) })),
    null,
  ),
  ended: v.nullable(
    v.strictObject({
      at: instant,
      cause: v.picklist(Object.keys(endCauseLabels) as EndCause[]),
      party: v.picklist(Object.keys(sideLabels) as Side[]),
    }),
  ),
};

export const introductionContextSchema = v.strictObject({
  id: memberIdSchema,
  members: bySide(memberIdSchema),
  summaryConsentAt: bySide(instant),
  ...roundEntries,
  history: v.array(v.strictObject({ ...roundEntries, endedIn: v.picklist(Object.keys(stateLabels)) })),
  lastEventAt: instant,
}) satisfies v.GenericSchema<unknown, IntroductionContext>;
