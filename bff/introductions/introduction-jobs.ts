import { eq, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
import { ApiError } from '#bff/http/errors.ts';
import { meetingOf, meetingRecipients, meetingReminderDue, queueMeetingMails } from '#bff/introductions/meeting-mails.ts';
import { queueFeedbackReminders } from '#bff/introductions/feedback.ts';
import { log } from '#bff/logger.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { standingPair, standingsOf } from '#bff/members/standing.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import { deadlineOf, REMINDER_DAY, reminderDueAt } from '#machines/introductions/rules.ts';
import { standingEndOf } from '#machines/introductions/sharing.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { OPEN_TOPS } from '#bff/introductions/introduction-core.ts';
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
  const waiting = await db
    .select()
    .from(introductions)
    .where(
      sql`${introductions.state} LIKE 'proposee.%' AND ${introductions.proposedAt} <= ${new Date(nowMs - REMINDER_DAY * DAY_MS).toISOString()}::timestamptz`,
    );
  const report: DeadlineReport = { reminded: 0, expired: 0, meetingReminders: 0, feedbackReminders: 0 };
  // The first meeting's reminder, the day before (decision 197): once per meeting instant, re-checked at sending.
  if (mail) {
    const planned = await db.select().from(introductions).where(eq(introductions.state, 'rencontre-planifiee'));
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

/** `toISOString()`'s form: two such instants compare as texts as they do in time. */
const CANONICAL_INSTANT = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$';

/**
 * The member `memberId` is in good standing for the introduction at `now`, as far as their stored
 * row surely says (decision 224): not erased, disabled nor paused, a stage written from the current
 * record (migration 0045), no stop recorded, a term still to come, a signature (in canonical form)
 * no later than the proposal's. A member it does not hold for is read and decided by
 * `standingEndOf`, as before; one it holds for would be found in good standing there too, so the
 * job no longer reads and parses every open introduction's two members every quarter of an hour
 * (at 100 000 members: 8 000 introductions, 21 s and 3.5 s of CPU a pass, for nothing).
 */
function standingSurelyHeld(memberId: typeof introductions.memberA | typeof introductions.memberB, now: Date) {
  const signed = sql`m.onboarding->>'subscriptionDate'`;
  const proposed = sql`${introductions.context}->>'proposedAt'`;
  return sql`SELECT 1 FROM members m WHERE m.id = ${memberId}
    AND NOT m.disabled AND m.erased_at IS NULL AND m.matchmaking_paused_at IS NULL
    AND m.stage IS NOT NULL AND m.term_ends_at > ${now.toISOString()}::timestamptz
    AND m.onboarding->>'contractRenouncedAt' IS NULL AND m.onboarding->>'contractWithdrawnAt' IS NULL
    AND m.onboarding->>'terminatedAt' IS NULL
    AND ${signed} ~ ${CANONICAL_INSTANT}
    AND (${proposed} IS NULL OR (${proposed} ~ ${CANONICAL_INSTANT} AND ${signed} <= ${proposed}))`;
}

/**
 * The ending job (decision 194): as the agency, ends every introduction under way, and the sharing
 * of every engagement, of which a member's contract, account or consent has ended. A contract's
 * term has no request of its own: it is recorded here, on the day it passes (the predicate shares
 * nothing from its very instant). The other causes end them in their own transaction; this catches
 * anything left. Idempotent: an ended introduction is not under way any more.
 */
export async function runIntroductionEndings(db: Db, now: Date): Promise<{ ended: number }> {
  const rows = await db
    .select()
    .from(introductions)
    .where(
      sql`(split_part(${introductions.state}, '.', 1) = ANY(${OPEN_TOPS}) OR (${introductions.state} = 'fiancailles' AND ${introductions.context} -> 'ended' = 'null'::jsonb))
        AND (NOT EXISTS (${standingSurelyHeld(introductions.memberA, now)}) OR NOT EXISTS (${standingSurelyHeld(introductions.memberB, now)}))`,
    );
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
