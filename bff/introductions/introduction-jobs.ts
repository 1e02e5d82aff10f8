import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { introductionsInState, introductionsMaybeEnded, proposalsWaitingSince } from '#bff/introductions/store/introductions.ts';
import { meetingOf, meetingRecipients, meetingReminderDue, queueMeetingMails } from '#bff/introductions/meeting-mails.ts';
import { queueFeedbackReminders } from '#bff/introductions/feedback.ts';
import { log } from '#bff/logger.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { standingPair, standingsOf } from '#bff/members/standing.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import { deadlineOf, REMINDER_DAY, reminderDueAt } from '#machines/introductions/rules.ts';
import { standingEndOf } from '#machines/introductions/sharing.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { personOf } from '#bff/introductions/introduction-event-mails.ts';
import { applyIntroductionEvent } from '#bff/introductions/introduction-commands.ts';

// ---------------------------------------------------------------------------
// The deadline job

export interface DeadlineReport {
  reminded: number;
  expired: number;
  /** First meetings' reminders queued (decision 197), one per recipient. */
  meetingReminders: number;
  /** Reminders to give one's feedback before its deadline (decision 205), one per member. */
  feedbackReminders: number;
}

/**
 * Reminds (day 5 of 7) and expires (day 7) the proposals still waiting, as the agency's scheduler
 * (staff for the chart). Idempotent: the chart refuses a second reminder in a round and an expiry
 * outside `proposee`; a proposal answered meanwhile is skipped.
 */
export async function runIntroductionDeadlines(db: Db, now: Date, mail?: AgencyMailSite): Promise<DeadlineReport> {
  const nowMs = now.getTime();
  const waiting = await proposalsWaitingSince(db, new Date(nowMs - REMINDER_DAY * DAY_MS));
  const report: DeadlineReport = { reminded: 0, expired: 0, meetingReminders: 0, feedbackReminders: 0 };
  // The first meeting's reminder, the day before (decision 197): once per meeting instant, re-checked at sending.
  if (mail) {
    const planned = await introductionsInState(db, 'rencontre-planifiee');
    for (const row of planned) {
      const context = row.context as IntroductionContext;
      const meeting = meetingOf(context);
      if (!meeting || context.ended !== null || !meetingReminderDue(meeting.at.getTime(), nowMs)) continue;
      const recipients = await meetingRecipients(db, row, (id) => personOf(db, id));
      report.meetingReminders += await queueMeetingMails(db, mail, row.id, String(meeting.at.getTime()), 'reminder', meeting, recipients);
    }
    report.feedbackReminders = await queueFeedbackReminders(db, mail, now, (id) => personOf(db, id));
  }
  for (const row of waiting) {
    const context = (row.context as IntroductionContext) ?? null;
    if (!context) continue;
    const due =
      nowMs >= deadlineOf(context.proposedAt)
        ? 'EXPIRE'
        : nowMs >= reminderDueAt(context.proposedAt) && context.remindedAt === null
          ? 'REMIND'
          : null;
    if (!due) continue;
    try {
      await applyIntroductionEvent(db, { introductionId: row.id, body: { type: due }, actor: { id: null, role: 'system' }, now, mail });
      if (due === 'EXPIRE') report.expired += 1;
      else report.reminded += 1;
    } catch (error) {
      // Answered or moved meanwhile (409): nothing to do. Anything else is logged, and the other
      // proposals still get their reminder or expiry.
      if (error instanceof ApiError && error.status === 409) continue;
      log.error('échéance d’une mise en relation non traitée', { introductionId: row.id, err: error });
    }
  }
  return report;
}

/**
 * The ending job (decision 194): as the agency, ends every introduction under way, and the sharing
 * of every engagement, of which a member's contract, account or consent has ended. A contract's
 * term has no request of its own: it is recorded here, on the day it passes (the predicate shares
 * nothing from its very instant). The other causes end them in their own transaction; this catches
 * anything left. Idempotent: an ended introduction is not under way any more.
 */
export async function runIntroductionEndings(db: Db, now: Date): Promise<{ ended: number }> {
  // Only those of which a member's stored row does not surely hold their standing (decision 224, the store's `standingSurelyHeld`).
  const rows = await introductionsMaybeEnded(db, now);
  const standings = await standingsOf(
    db,
    rows.flatMap((r) => [r.memberA, r.memberB]),
    now,
  );
  let ended = 0;
  for (const row of rows) {
    const found = standingEndOf(standingPair(standings, row), (row.context as IntroductionContext).proposedAt);
    if (!found) continue;
    try {
      const body = { type: 'END', cause: found.cause, party: found.party };
      await applyIntroductionEvent(db, { introductionId: row.id, body, actor: { id: null, role: 'system' }, now });
      ended += 1;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) continue; // moved meanwhile
      log.error('fin d’une mise en relation non enregistrée', { introductionId: row.id, err: error });
    }
  }
  return { ended };
}

/** How often the deadline job runs: a reminder or an expiry is at most this late. */
export const INTRODUCTION_DEADLINE_INTERVAL_MS = 15 * 60_000;
