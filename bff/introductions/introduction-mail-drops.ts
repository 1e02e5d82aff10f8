import type { Db } from '#bff/db/database.ts';
import { waliEndedDropReason } from '#bff/introductions/ending.ts';
import { feedbackReminderDropReason } from '#bff/introductions/feedback.ts';
import { meetingReminderDropReason } from '#bff/introductions/meeting-mails.ts';

/**
 * Asked by the dispatcher at the moment it sends an introduction's scheduled mail (decisions 191,
 * 197, 205): why it no longer applies, or null to send it. Undefined for any other kind of mail,
 * which `scheduledMailDropReason` (bff/mail/agency-mail-triggers.ts) then decides.
 */
export function introductionMailDropReason(
  db: Db,
  mail: { kind: string; dedupeKey: string | null; to: string },
): Promise<string | null> | undefined {
  // The first meeting's reminder (decision 197): the meeting must still be the one it names.
  if (mail.kind === 'introduction-meeting-reminder') return meetingReminderDropReason(db, mail.dedupeKey);
  // The feedback's reminder (decision 205): dropped once given, or the introduction moved on.
  if (mail.kind === 'introduction-feedback-reminder') return feedbackReminderDropReason(db, mail.dedupeKey);
  // The walī's word of an introduction's end (decision 205): he must still receive the member's news.
  if (mail.kind === 'introduction-ended-wali') return waliEndedDropReason(db, mail.dedupeKey, mail.to);
  return undefined;
}
