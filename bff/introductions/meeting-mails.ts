import type { Db } from '#bff/db/database.ts';
import { introductionById } from '#bff/introductions/store/introductions.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { introductionMeetingMail, type MeetingDetails, type MeetingMoment } from '#bff/mail/introduction-mails.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import { contactChoiceOf } from '#bff/introductions/guardian.ts';
import type { IntroductionContext } from '#machines/introductions/context.ts';
import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';

/**
 * The first meeting's mails (issue 62 point 5, decision 197): planned, moved, cancelled, held, and
 * the reminder the day before, to both members and to each walī who receives them — the walī with an
 * e-mail of a member who chose « contact through my walī only » or asked that he receive copies or the
 * contact details (decision 196). Queued in the transaction of the event (once per event: the key
 * holds the introduction's version), or by the deadline job for the reminder (once per meeting
 * instant), which the dispatcher re-checks at sending (`meetingReminderDropReason`).
 */

export interface MeetingRecipient {
  to: string;
  firstName: string | null;
  /** For a walī: the member he accompanies (first name); null for the member. */
  waliOf: string | null | undefined;
  /** `a`, `b`, `wali-a`, `wali-b`: part of the de-duplication key. */
  who: string;
}

/** Both members, and the walī of each who receives the meeting's details. */
export async function meetingRecipients(
  executor: Executor,
  row: { memberA: string; memberB: string; contactViaA: string | null; contactViaB: string | null },
  personOf: (memberId: string) => Promise<{ email: string; firstName: string | null } | null>,
): Promise<MeetingRecipient[]> {
  const out: MeetingRecipient[] = [];
  for (const side of ['a', 'b'] as const) {
    const memberId = side === 'a' ? row.memberA : row.memberB;
    const person = await personOf(memberId);
    if (!person) continue;
    out.push({ to: person.email, firstName: person.firstName, waliOf: undefined, who: side });
    const choice = await contactChoiceOf(executor, memberId, side === 'a' ? row.contactViaA : row.contactViaB);
    const g = choice.guardian;
    if (g?.email && (choice.via === 'wali' || g.receives !== 'rien')) {
      out.push({ to: g.email, firstName: g.name, waliOf: person.firstName, who: `wali-${side}` });
    }
  }
  return out;
}

/** Queues one meeting mail to each recipient, once per `occurrence`. Answers how many were queued. */
export async function queueMeetingMails(
  executor: Executor,
  site: AgencyMailSite,
  introductionId: string,
  occurrence: string,
  moment: MeetingMoment,
  meeting: MeetingDetails,
  recipients: readonly MeetingRecipient[],
): Promise<number> {
  let queued = 0;
  for (const r of recipients) {
    const mail = introductionMeetingMail(
      site,
      { to: r.to, firstName: r.firstName },
      moment,
      meeting,
      r.waliOf === undefined ? null : { waliOf: r.waliOf },
    );
    const key = `introduction-meeting-${moment}:${introductionId}:${occurrence}:${r.who}`;
    if ((await enqueueMailOnce(executor, mail, key)) !== null) queued += 1;
  }
  return queued;
}

export const meetingOf = (context: IntroductionContext): MeetingDetails | null =>
  context.meeting
    ? { at: new Date(instantMs(context.meeting.at)), place: context.meeting.place, accompaniedBy: context.meeting.accompaniedBy ?? null }
    : null;

/** The reminder is due from the day before (24 hours) until the meeting's start. */
export function meetingReminderDue(meetingAtMs: number, nowMs: number): boolean {
  return nowMs >= meetingAtMs - DAY_MS && nowMs < meetingAtMs;
}

const REMINDER_KEY = /^introduction-meeting-reminder:([0-9a-f-]{36}):(\d+):/i;

/**
 * Asked by the dispatcher when it sends a meeting reminder (decision 191's check, for decision 197):
 * dropped when the meeting was cancelled, moved to another instant, or the introduction moved on or
 * ended since it was queued. Null: send it.
 */
export async function meetingReminderDropReason(db: Db, dedupeKey: string | null): Promise<string | null> {
  const key = REMINDER_KEY.exec(dedupeKey ?? '');
  if (!key) return 'rappel sans mise en relation';
  const row = await introductionById(db, key[1] as string);
  if (!row) return 'mise en relation introuvable';
  const context = row.context as IntroductionContext;
  if (row.state !== 'rencontre-planifiee' || context.ended !== null) return `ne s’applique plus à l’état ${row.state}`;
  if (!context.meeting) return 'rencontre annulée';
  if (String(instantMs(context.meeting.at)) !== key[2]) return 'la rencontre a été déplacée';
  return null;
}
