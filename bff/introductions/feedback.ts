import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { introductionById, introductionsInState } from '#bff/introductions/store/introductions.ts';
import { staffNameRows } from '#bff/introductions/store/people.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { introductionFeedbackReminderMail } from '#bff/mail/introduction-mails.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import type { Actor, IntroductionContext } from '#machines/introductions/context.ts';
import { feedbackOutcomes } from '#machines/introductions/events.ts';
import {
  feedbackDeadlineOf,
  feedbackDeadlineText,
  feedbackInTime,
  feedbackReminderDue,
} from '#machines/introductions/feedback-deadline.ts';
import { declineReasonLabels, type FeedbackOutcome, feedbackOutcomeLabels, type Side, sideLabels } from '#machines/introductions/labels.ts';
import { civilDayText } from '#machines/onboarding/deadline-texts.ts';
import { instantMs } from '#machines/onboarding/instant.ts';

/**
 * The feedback after the first meeting (issue 62 point 5, decision 205): its deadline as the member
 * reads it, the refusal once it passed, the reminder before it (queued by the deadline job, re-checked
 * at sending), and staff's record of a feedback heard by phone (who and when, shown to staff; the
 * member's screen shows it as given).
 */

// ---------------------------------------------------------------------------
// What the member reads

export interface FeedbackFields {
  /** The caller's own feedback after the meeting in this round (the form is then not offered again), or null. */
  myFeedback: { outcome: FeedbackOutcome; outcomeLabel: string; at: string; byPhone: boolean } | null;
  /**
   * While the first feedback is awaited (`retours`): the last day to give it (`YYYY-MM-DD`, Paris),
   * the sentence that says it, and whether it passed (then only the counsellor records it, by phone).
   */
  feedbackDeadline: { lastDay: string; text: string; passed: boolean } | null;
}

export function feedbackFieldsOf(state: string, context: IntroductionContext, side: Side, now: Date): FeedbackFields {
  const feedback = context.feedback[side];
  const held = context.meetingHeldAt;
  let feedbackDeadline: FeedbackFields['feedbackDeadline'] = null;
  if (state === 'retours' && held !== null && feedback === null && context.ended === null) {
    const period = feedbackDeadlineOf(held);
    const passed = !feedbackInTime(held, now.getTime());
    feedbackDeadline = {
      lastDay: period.lastDay,
      passed,
      text: passed
        ? `Le délai pour donner votre retour est passé (${civilDayText(period.lastDay)}) : votre conseillère vous appellera pour le recueillir.`
        : `Votre retour est attendu ${feedbackDeadlineText(held)}.`,
    };
  }
  return {
    myFeedback: feedback
      ? {
          outcome: feedback.outcome,
          outcomeLabel: feedbackOutcomeLabels[feedback.outcome],
          at: feedback.at,
          byPhone: feedback.recordedBy != null,
        }
      : null,
    feedbackDeadline,
  };
}

/** A member's first feedback after its deadline: a refusal that says so (the chart refuses it too). */
export function lateFeedbackRefusal(
  state: string,
  context: IntroductionContext,
  actor: Actor,
  type: string,
  nowMs: number,
): ApiError | null {
  if (type !== 'FEEDBACK' || actor.kind !== 'member' || state !== 'retours' || context.meetingHeldAt === null) return null;
  if (feedbackInTime(context.meetingHeldAt, nowMs)) return null;
  return new ApiError(
    409,
    'FEEDBACK_LATE',
    `Le délai pour donner votre retour est passé (il courait ${feedbackDeadlineText(context.meetingHeldAt)}) : votre conseillère vous appellera pour le recueillir.`,
    { state },
  );
}

// ---------------------------------------------------------------------------
// Staff record a feedback heard by phone

export const PhoneFeedbackBody = v.strictObject(
  {
    side: v.picklist(Object.keys(sideLabels) as Side[], 'Veuillez choisir le membre'),
    outcome: v.picklist(feedbackOutcomes, 'Veuillez choisir une suite'),
    reason: v.optional(
      v.picklist(Object.keys(declineReasonLabels) as (keyof typeof declineReasonLabels)[], 'Veuillez choisir un motif dans la liste'),
    ),
    expectedVersion: v.optional(v.pipe(v.number('Version invalide'), v.integer('Version invalide'), v.minValue(0, 'Version invalide'))),
  },
  'Requête invalide',
);

/** The chart's body for a feedback staff heard by phone; the recorder is the session's staff (decision 205). */
export function phoneFeedbackEvent(body: v.InferOutput<typeof PhoneFeedbackBody>) {
  return { type: 'FEEDBACK', side: body.side, outcome: body.outcome, ...(body.reason ? { reason: body.reason } : {}) };
}

/** For staff: who recorded each side's feedback by phone, and when (null: none, or given by the member). */
export async function feedbackRecordersOf(
  db: Db,
  context: IntroductionContext,
): Promise<Record<Side, { name: string; at: string } | null>> {
  const ids = (['a', 'b'] as const).map((s) => context.feedback[s]?.recordedBy ?? null).filter((x): x is string => x !== null);
  const rows = ids.length > 0 ? await staffNameRows(db, ids) : [];
  const nameOf = (id: string) => {
    const row = rows.find((r) => r.id.toLowerCase() === id.toLowerCase());
    const name = (row?.onboarding as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : (row?.email ?? 'un membre de l’équipe');
  };
  const of = (s: Side) => {
    const f = context.feedback[s];
    return f?.recordedBy ? { name: nameOf(f.recordedBy), at: f.at } : null;
  };
  return { a: of('a'), b: of('b') };
}

// ---------------------------------------------------------------------------
// The reminder before the deadline

/** Queues, once per meeting held and side, the reminder to each member whose feedback is awaited. */
export async function queueFeedbackReminders(
  db: Db,
  mail: AgencyMailSite,
  now: Date,
  personOf: (memberId: string) => Promise<{ email: string; firstName: string | null } | null>,
): Promise<number> {
  const rows = await introductionsInState(db, 'retours');
  let queued = 0;
  for (const row of rows) {
    const context = row.context as IntroductionContext;
    const held = context.meetingHeldAt;
    if (held === null || context.ended !== null || !feedbackReminderDue(held, now.getTime())) continue;
    for (const side of ['a', 'b'] as const) {
      if (context.feedback[side] !== null) continue;
      const person = await personOf(side === 'a' ? row.memberA : row.memberB);
      if (!person) continue;
      const message = introductionFeedbackReminderMail(
        mail,
        { to: person.email, firstName: person.firstName },
        { until: feedbackDeadlineText(held) },
      );
      const key = `introduction-feedback-reminder:${row.id}:${instantMs(held)}:${side}`;
      if ((await enqueueMailOnce(db as Executor, message, key)) !== null) queued += 1;
    }
  }
  return queued;
}

const REMINDER_KEY = /^introduction-feedback-reminder:([0-9a-f-]{36}):(\d+):(a|b)$/i;

/**
 * Asked by the dispatcher when it sends a feedback reminder (decision 191's check): dropped once the
 * member gave it (or staff recorded it), or the introduction moved on or ended. Null: send it.
 */
export async function feedbackReminderDropReason(db: Db, dedupeKey: string | null): Promise<string | null> {
  const key = REMINDER_KEY.exec(dedupeKey ?? '');
  if (!key) return 'rappel sans mise en relation';
  const row = await introductionById(db, key[1] as string);
  if (!row) return 'mise en relation introuvable';
  const context = row.context as IntroductionContext;
  if (row.state !== 'retours' || context.ended !== null) return `ne s’applique plus à l’état ${row.state}`;
  if (context.meetingHeldAt === null || String(instantMs(context.meetingHeldAt)) !== key[2]) return 'une autre rencontre';
  if (context.feedback[key[3] as Side] !== null) return 'retour déjà donné';
  return null;
}
