import { type CivilPeriod, civilPeriod } from '#machines/onboarding/legal-deadlines.ts';
import { civilDayText } from '#machines/onboarding/deadline-texts.ts';
import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';

/**
 * The feedback after the first meeting (issue 62 point 5, decision 205): each member gives it within
 * 7 civil days after the day staff recorded the meeting held (that day not counted, the last day
 * extended to a working day, as `civilPeriod` counts); reminded 2 days before the end if they have
 * not. After it, only staff may record it, as heard by phone. Pure: the chart and the BFF read it.
 */

export const FEEDBACK_DEADLINE_DAYS = 7;

/** The reminder goes from this long before the deadline's end (ms). */
export const FEEDBACK_REMINDER_BEFORE_MS = 2 * DAY_MS;

/** The period to give one's feedback, from the instant the meeting was recorded held. */
export function feedbackDeadlineOf(meetingHeldAt: string | number): CivilPeriod {
  return civilPeriod(typeof meetingHeldAt === 'number' ? meetingHeldAt : instantMs(meetingHeldAt), FEEDBACK_DEADLINE_DAYS);
}

/** A member may still give their feedback themselves at `nowMs`. */
export function feedbackInTime(meetingHeldAt: string | null, nowMs: number): boolean {
  return meetingHeldAt === null || nowMs < feedbackDeadlineOf(meetingHeldAt).endsAtMs;
}

/** The reminder is due from 2 days before the deadline's end until that end. */
export function feedbackReminderDue(meetingHeldAt: string, nowMs: number): boolean {
  const end = feedbackDeadlineOf(meetingHeldAt).endsAtMs;
  return nowMs >= end - FEEDBACK_REMINDER_BEFORE_MS && nowMs < end;
}

/** « jusqu’au lundi 14 décembre 2026 inclus » */
export function feedbackDeadlineText(meetingHeldAt: string): string {
  return `jusqu’au ${civilDayText(feedbackDeadlineOf(meetingHeldAt).lastDay)} inclus`;
}
