import type { IntroductionRow } from '#bff/db/introductions-schema.ts';
import { personRow } from '#bff/introductions/store/people.ts';
import { contactChoiceOf, type DescribedMember, queueGuardianMails } from '#bff/introductions/guardian.ts';
import { meetingOf, meetingRecipients, queueMeetingMails } from '#bff/introductions/meeting-mails.ts';
import { queueEndingMails } from '#bff/introductions/ending.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import {
  introductionAcceptedMail,
  introductionExpiredMail,
  introductionProposedMail,
  introductionReminderMail,
} from '#bff/mail/introduction-mails.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import type { IntroductionBody } from '#machines/introductions/events.ts';
import type { Side } from '#machines/introductions/labels.ts';
import type { StoredIntroduction } from '#machines/introductions/restore.ts';
import { deadlineOf } from '#machines/introductions/rules.ts';
import { memberOfSide, roundOf } from '#bff/introductions/introduction-core.ts';
import { otherPerson, summaryOf } from '#bff/introductions/member-introduction-views.ts';

// ---------------------------------------------------------------------------
// Mails

interface Person {
  email: string;
  firstName: string | null;
}

export async function personOf(executor: Executor, memberId: string): Promise<Person | null> {
  const row = await personRow(executor, memberId);
  // An erased member is mailed nothing (their address is a placeholder that never delivers).
  return row && !row.erasedAt ? { email: row.email, firstName: firstNameOf(row.profile) } : null;
}

/** Queues, once per (introduction, round, side), the mail of this kind to the chosen sides. */
async function mailSides(
  executor: Executor,
  row: Pick<IntroductionRow, 'id' | 'memberA' | 'memberB'>,
  round: number,
  sidesTo: readonly Side[],
  key: string,
  build: (person: Person) => Parameters<typeof enqueueMailOnce>[1],
): Promise<number> {
  let queued = 0;
  for (const side of sidesTo) {
    const person = await personOf(executor, memberOfSide(row, side));
    if (!person) continue;
    const id = await enqueueMailOnce(executor, build(person), `${key}:${row.id}:${round}:${side}`);
    if (id !== null) queued += 1;
  }
  return queued;
}

export async function mailsForEvent(
  executor: Executor,
  site: AgencyMailSite,
  row: IntroductionRow,
  type: IntroductionBody['type'] | 'PROPOSE',
  before: StoredIntroduction | null,
  after: StoredIntroduction,
): Promise<void> {
  const context = after.context;
  const round = roundOf(context);
  const deadline = new Date(deadlineOf(context.proposedAt));
  const to = (p: Person) => ({ to: p.email, firstName: p.firstName });
  if (type === 'PROPOSE' || type === 'REOPEN') {
    await mailSides(executor, row, round, ['a', 'b'], 'introduction-proposed', (p) => introductionProposedMail(site, to(p), { deadline }));
    await queueGuardianMails(executor, site, 'proposed', guardianMailInput(executor, row, round, deadline, after));
  } else if (type === 'ACCEPT' && after.state === 'acceptee') {
    await mailSides(executor, row, round, ['a', 'b'], 'introduction-accepted', (p) => introductionAcceptedMail(site, to(p)));
    const contactVia = {
      [row.memberA]: (await contactChoiceOf(executor, row.memberA, row.contactViaA)).via,
      [row.memberB]: (await contactChoiceOf(executor, row.memberB, row.contactViaB)).via,
    };
    await queueGuardianMails(executor, site, 'accepted', { ...guardianMailInput(executor, row, round, deadline, after), contactVia });
  } else if (type === 'REMIND') {
    // Only whoever has not answered yet (as the round stood before the reminder).
    const pending = (['a', 'b'] as const).filter((s) => (before ?? after).context.answers[s].status === 'pending');
    await mailSides(executor, row, round, pending, 'introduction-reminder', (p) => introductionReminderMail(site, to(p), { deadline }));
  } else if (type === 'EXPIRE') {
    await mailSides(executor, row, round, ['a', 'b'], 'introduction-expired', (p) => introductionExpiredMail(site, to(p)));
  } else if (type === 'PLAN_MEETING' || type === 'CANCEL_MEETING' || type === 'RECORD_MEETING_HELD') {
    // Decision 197: both members, and each walī who receives it, once per event (the version).
    const meeting = meetingOf(type === 'PLAN_MEETING' ? context : (before ?? after).context);
    if (!meeting) return;
    const moment =
      type === 'CANCEL_MEETING'
        ? 'cancelled'
        : type === 'RECORD_MEETING_HELD'
          ? 'held'
          : before?.state === 'rencontre-planifiee'
            ? 'moved'
            : 'planned';
    const recipients = await meetingRecipients(executor, row, (id) => personOf(executor, id));
    await queueMeetingMails(executor, site, row.id, `v${after.version}`, moment, meeting, recipients);
  } else if (after.state === 'close' && before?.state !== 'close') {
    // Decision 205: the other member hears of the end (staff's message, or the plain sentence of a member's stop).
    await queueEndingMails(executor, site, row, round, context, (id) => personOf(executor, id));
  }
}

/** What the guardians' mails (decision 117) may say of each member of the pair, at the event's time. */
function guardianMailInput(
  executor: Executor,
  row: Pick<IntroductionRow, 'id' | 'memberA' | 'memberB'>,
  round: number,
  deadline: Date,
  after: StoredIntroduction,
) {
  const nowMs = Date.parse(after.context.lastEventAt);
  return {
    introductionId: row.id,
    round,
    members: { a: row.memberA, b: row.memberB },
    deadline,
    describe: async (memberId: string): Promise<DescribedMember | null> => {
      const person = await otherPerson(executor, memberId);
      if (!person) return null;
      const phone = (person.profile as { phone?: unknown } | null)?.phone;
      return {
        firstName: firstNameOf(person.profile),
        email: person.email,
        phone: typeof phone === 'string' ? phone : null,
        summary: summaryOf(person, nowMs),
      };
    },
  };
}
