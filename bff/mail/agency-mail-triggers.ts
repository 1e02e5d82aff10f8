import type { Clock } from '#bff/clock.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import type { members } from '#bff/db/schema.ts';
import { log } from '#bff/logger.ts';
import {
  type AgencyMailSite,
  activeMemberMail,
  contractReadyMail,
  meetingBookedMail,
  meetingMissedMail,
  meetingReminderMail,
  renunciationPeriodOverMail,
  termEndedMail,
  termEndingMail,
  welcomeMail,
  withdrawalPeriodOverMail,
} from '#bff/mail/agency-mails.ts';
import { type Executor, enqueueMailOnce } from '#bff/mail/outbox.ts';
import {
  activeSinceOfMembers,
  mailJobMembers,
  mailRecipientState,
  memberProfileOf,
  membersWithMailInstants,
} from '#bff/mail/store/mail-recipients.ts';
import { queuedDedupeKeys } from '#bff/mail/store/outbox.ts';
import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { contractDeadlines } from '#machines/onboarding/legal-deadlines.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { type ScheduledMailKind, scheduledMailApplies, scheduledMailStates } from '#machines/onboarding/mail-states.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { topStateOf } from '#machines/onboarding/steps.ts';
import type { UpdatePayload } from '#machines/onboarding/update-contexts.ts';
import * as v from 'valibot';

/**
 * When the agency's own mails are queued (decision 111). Event-driven ones are queued by
 * `applyOnboardingUpdate` in the update's transaction; time-driven ones by `runAgencyMailJob`.
 * Each has a de-duplication key (member, kind, occurrence): a replayed event or a second job
 * pass queues nothing.
 */

/** How often the job runs in the server: fine enough for a reminder « la veille ». */
export const AGENCY_MAIL_INTERVAL_MS = 15 * 60 * 1000;
/** A period-over mail is still sent this long after the instant (a server down for a while). */
const LATE_SEND_WINDOW_MS = 7 * DAY_MS;

type MemberRow = typeof members.$inferSelect;

/** The first name of a member's profile, read with the caller's executor (the auth service's mails, decision 198). */
export async function memberFirstName(exec: Pick<Db, 'select'>, memberId: string): Promise<string | null> {
  const row = await memberProfileOf(exec, memberId);
  return row ? firstNameOf(row.profile) : null;
}

/** The first name the profile holds, if any: the only personal data a mail carries besides its address. */
export function firstNameOf(profile: unknown): string | null {
  if (!profile || typeof profile !== 'object') return null;
  const value = (profile as Record<string, unknown>).firstName;
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, 80) : null;
}

/** The last day of a term ending at `end` (midnight, Paris): what the contract prints as « prend fin le ». */
function lastDayOf(end: Date): Date {
  return new Date(end.getTime() - 1);
}

/** Account created: the welcome mail, in the transaction that creates the member. */
export async function queueWelcomeMail(executor: Executor, site: AgencyMailSite, member: { id: string; email: string }): Promise<void> {
  await enqueueMailOnce(executor, welcomeMail(site, { to: member.email }), `agency-welcome:${member.id}`);
}

/**
 * Called by `applyOnboardingUpdate` in its transaction once an update is stored: the mails the
 * event itself causes. `previous` is the record before the update.
 */
export async function queueAgencyMailsForUpdate(
  tx: Transaction,
  input: {
    site: AgencyMailSite;
    update: UpdatePayload;
    previous: OnboardingRecord;
    row: MemberRow;
    fromState: string;
    toState: string;
    now: Date;
  },
): Promise<void> {
  const { site, update, row } = input;
  const to = { to: row.email, firstName: firstNameOf(row.profile) };
  const once = (mail: Parameters<typeof enqueueMailOnce>[1], key: string) => enqueueMailOnce(tx, mail, `${mail.kind}:${row.id}:${key}`);
  switch (update.context) {
    // A payment's mail is its invoice's (bff/invoices, decision 110): sent once the payment is recorded.
    case 'onb_meet_resa': {
      const date = (row.onboarding as OnboardingRecord).onboardingMeetingDate;
      if (update.status && date) await once(meetingBookedMail(site, to, { at: new Date(instantMs(date)) }), date);
      break;
    }
    case 'onb_meet_ok':
      if (update.status) await once(contractReadyMail(site, to), 'contract');
      // Missed (issue 63): the member hears it, once for that meeting.
      else if (input.previous.onboardingMeetingDate) {
        const date = input.previous.onboardingMeetingDate;
        await once(meetingMissedMail(site, to, { at: new Date(instantMs(date)) }), date);
      }
      break;
    default:
      break;
  }
  if (input.toState === 'membre-actif' && input.fromState !== 'membre-actif') {
    const end = termEndsAtMs(row.onboarding as OnboardingRecord);
    await once(activeMemberMail(site, to, { endsAt: end === null ? null : lastDayOf(new Date(end)) }), 'active');
  }
}

/**
 * When the member's term ends (decision 118): the signature plus the plan's 6 or 12 months, as the
 * signed contract says (« à compter de sa signature »), from the one function the chart uses
 * (`termEndsAtMs`, machines/onboarding/periods.ts). Kept async with its old signature for callers.
 */
export async function termEndOf(_executor: Executor, _memberId: string, record: OnboardingRecord): Promise<Date | null> {
  const end = termEndsAtMs(record);
  return end === null ? null : new Date(end);
}

export interface AgencyMailReport {
  members: number;
  queued: number;
}

/** Instant `at` has come, but not more than `window` ago. */
function due(at: number | null, now: number, window = LATE_SEND_WINDOW_MS): at is number {
  return at !== null && at <= now && now < at + window;
}

/**
 * One pass of the time-driven mails, with `now` from the clock: the reminder the day before the
 * onboarding meeting, the end of the 7-day and 14-day periods, the active-member mail when the
 * state was reached by time, and the end of the term 30 and 7 days before. Idempotent.
 */
export async function runAgencyMailJob(deps: {
  db: Db;
  clock: Clock;
  site: AgencyMailSite;
  /** Aborted when the product closes: no batch starts after it (the next pass sends what is left). */
  stopping?: AbortSignal | undefined;
}): Promise<AgencyMailReport> {
  const { db, site } = deps;
  const now = deps.clock.now().getTime();
  // Only the members one of whose instants falls in a mail's window, found by the indexes (decision
  // 213), read and decided in batches between which the event loop is free.
  const ids = await membersWithMailInstants(db, now, LATE_SEND_WINDOW_MS);
  let queued = 0;
  for (let start = 0; start < ids.length; start += MAIL_JOB_BATCH) {
    if (start > 0) await nextTurn();
    if (deps.stopping?.aborted) break;
    const rows = await mailJobMembers(db, ids.slice(start, start + MAIL_JOB_BATCH));
    queued += await mailBatch(db, site, rows, now);
  }
  return { members: ids.length, queued };
}

const MAIL_JOB_BATCH = 200;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The batch's scheduled mails: decided for each member from its record, then queued if their key is
 * not in the outbox already. The keys already there and the activation instants are read once for
 * the batch (decision 224): a pass re-examines the same members every quarter of an hour, and one
 * INSERT … ON CONFLICT a mail plus one read of the events a member cost a pass over 100 000
 * members 10 s for nothing queued.
 */
async function mailBatch(
  db: Db,
  site: AgencyMailSite,
  rows: readonly { id: string; email: string; profile: unknown; onboarding: unknown }[],
  now: number,
): Promise<number> {
  if (rows.length === 0) return 0;
  const activeSince = await activeSinceOfMembers(
    db,
    rows.map((r) => r.id),
  );
  const planned: { mail: Parameters<typeof enqueueMailOnce>[1]; key: string }[] = [];
  for (const row of rows) {
    const parsed = v.safeParse(onboardingRecordSchema, row.onboarding);
    if (!parsed.success) {
      log.warn('courriels de l’agence : dossier illisible, ignoré', { memberId: row.id });
      continue;
    }
    const record = parsed.output;
    const to = { to: row.email, firstName: firstNameOf(row.profile) };
    // The member's state now, when the mail is sent (decision 176): a mail that no longer applies is dropped.
    const top = topStateOf(stateFromRecord(record, now));
    const once = (mail: Parameters<typeof enqueueMailOnce>[1], key: string) => {
      if (scheduledMailApplies(mail.kind, top)) planned.push({ mail, key: `${mail.kind}:${row.id}:${key}` });
    };
    if (top === 'desactive') continue;

    const meeting = record.onboardingMeetingDate;
    if (meeting && record.onboardingMeetingReserved && !record.onboardingMeetingDone) {
      const at = instantMs(meeting);
      if (due(at - DAY_MS, now, DAY_MS)) once(meetingReminderMail(site, to, { at: new Date(at) }), meeting);
    }
    const signed = record.subscriptionDate;
    // The periods' ends in civil days, Paris (decision 165): 00:00 Paris after their last day.
    const deadlines = contractDeadlines(signed);
    if (signed && deadlines) {
      if (!record.subscriptionFeesPaid && due(deadlines.paymentOpensAtMs, now))
        once(renunciationPeriodOverMail(site, to, { lastDay: deadlines.renunciation.lastDay }), signed);
      if (due(deadlines.withdrawal.endsAtMs, now))
        once(withdrawalPeriodOverMail(site, to, { lastDay: deadlines.withdrawal.lastDay }), signed);
    }
    if (top === 'membre-actif' || top === 'contrat-termine') {
      const endsAt = await termEndOf(db, row.id, record);
      const lastDay = endsAt ? lastDayOf(endsAt) : null;
      // Only near the activation: a mail deleted by retention after 12 months is not sent again.
      if (top === 'membre-actif' && due(activeSince.get(row.id) ?? null, now))
        once(activeMemberMail(site, to, { endsAt: lastDay }), 'active');
      if (endsAt && lastDay) {
        const end = endsAt.getTime();
        const key = endsAt.toISOString();
        if (due(end - 30 * DAY_MS, now, 23 * DAY_MS)) once(termEndingMail(site, to, { endsAt: lastDay, daysBefore: 30 }), `30:${key}`);
        if (due(end - 7 * DAY_MS, now, 7 * DAY_MS)) once(termEndingMail(site, to, { endsAt: lastDay, daysBefore: 7 }), `7:${key}`);
        // The term is over (the chart is in `contrat-termine`): said once, at the end.
        if (due(end, now)) once(termEndedMail(site, to, { lastDay }), key);
      }
    }
  }
  if (planned.length === 0) return 0;
  const queuedAlready = new Set(
    await queuedDedupeKeys(
      db,
      planned.map((p) => p.key),
    ),
  );
  let queued = 0;
  for (const { mail, key } of planned) {
    // Still ON CONFLICT DO NOTHING: another pass or an event may queue it meanwhile.
    if (!queuedAlready.has(key) && (await enqueueMailOnce(db, mail, key)) !== null) queued += 1;
  }
  return queued;
}

/** `kind:memberId:occurrence`, the de-duplication key of a scheduled mail (the occurrence may hold colons). */
const SCHEDULED_KEY = /^([a-z-]+):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(.+)$/;

/** What the occurrence of a scheduled mail names in the record now: the meeting, the signature, the term's end. */
function currentOccurrence(kind: ScheduledMailKind, record: OnboardingRecord): string | null {
  switch (kind) {
    case 'agency-meeting-reminder':
      return record.onboardingMeetingDate;
    case 'agency-renunciation-period-over':
    case 'agency-withdrawal-period-over':
      return record.subscriptionDate;
    case 'agency-term-ending':
    case 'agency-term-ended': {
      const end = termEndsAtMs(record);
      return end === null ? null : new Date(end).toISOString();
    }
    default:
      return null;
  }
}

/**
 * Asked by the dispatcher at the moment it sends a mail (decision 191): a scheduled mail (the table
 * of `mail-states.ts`) that no longer applies to the member's state, or that names a meeting, a
 * signature or a term that is no longer the member's, is dropped; the answer says why (kept on the
 * outbox row). Null: send it. Any other mail is sent as queued. The introductions' scheduled mails
 * are asked of `bff/introductions/introduction-mail-drops.ts` first (the dispatcher's `dropReason`
 * in bff/start.ts asks both: mail sits below the domains, decision 219).
 */
export async function scheduledMailDropReason(
  db: Db,
  mail: { kind: string; dedupeKey: string | null; to: string },
  now: Date,
): Promise<string | null> {
  if (!Object.hasOwn(scheduledMailStates, mail.kind)) return null;
  const kind = mail.kind as ScheduledMailKind;
  const key = SCHEDULED_KEY.exec(mail.dedupeKey ?? '');
  const row = await mailRecipientState(db, key ? { id: key[2] as string } : { email: mail.to });
  if (row?.role !== 'member') return 'membre introuvable';
  if (row.disabled) return 'compte désactivé';
  const parsed = v.safeParse(onboardingRecordSchema, row.onboarding);
  if (!parsed.success) return 'dossier illisible';
  const top = topStateOf(stateFromRecord(parsed.output, now.getTime()));
  if (!scheduledMailApplies(kind, top)) return `ne s’applique plus à l’état ${top}`;
  const current = currentOccurrence(kind, parsed.output);
  if (key && current !== null && !(key[3] as string).endsWith(current)) return 'concerne un autre rendez-vous ou un autre contrat';
  return null;
}
