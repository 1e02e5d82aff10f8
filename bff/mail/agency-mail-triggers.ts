import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Clock } from '#bff/clock.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { mailOutbox, members, onboardingEvents } from '#bff/db/schema.ts';
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
  const [row] = await exec.select({ profile: members.profile }).from(members).where(eq(members.id, memberId)).limit(1);
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
  const ids = await membersWithMailInstants(db, now);
  let queued = 0;
  for (let start = 0; start < ids.length; start += MAIL_JOB_BATCH) {
    if (start > 0) await nextTurn();
    if (deps.stopping?.aborted) break;
    const rows = await db
      .select({ id: members.id, email: members.email, profile: members.profile, onboarding: members.onboarding })
      .from(members)
      .where(
        and(
          inArray(members.id, ids.slice(start, start + MAIL_JOB_BATCH)),
          eq(members.role, 'member'),
          eq(members.disabled, false),
          sql`${members.id} IN (SELECT id FROM members WHERE erased_at IS NULL)`,
        ),
      );
    queued += await mailBatch(db, site, rows, now);
  }
  return { members: ids.length, queued };
}

const MAIL_JOB_BATCH = 200;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The members a scheduled mail may be due to at `now`, by the stored instants (migrations 0045,
 * 0052): a reserved meeting within a day, the end of the renunciation period (payment opens on
 * the next working day: up to five days later) or of the withdrawal period within the late-send
 * window, the term's end from 30 days before to a week after, a recent activation, and any member
 * whose stage is not written yet. A superset: each one's mails are decided from its record.
 */
async function membersWithMailInstants(db: Db, nowMs: number): Promise<string[]> {
  const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const late = LATE_SEND_WINDOW_MS + DAY_MS;
  const result = (await db.execute(sql`
    SELECT id::text AS id FROM members WHERE stage IS NULL AND role = 'member'
    UNION SELECT id::text FROM members
      WHERE onboarding->>'onboardingMeetingDate' >= ${day(nowMs - DAY_MS)} AND onboarding->>'onboardingMeetingDate' < ${day(nowMs + 3 * DAY_MS)}
    UNION SELECT id::text FROM members WHERE renunciation_ends_at > ${at(nowMs - late - 5 * DAY_MS)} AND renunciation_ends_at <= ${at(nowMs + DAY_MS)}
    UNION SELECT id::text FROM members WHERE withdrawal_ends_at > ${at(nowMs - late)} AND withdrawal_ends_at <= ${at(nowMs + DAY_MS)}
    UNION SELECT id::text FROM members WHERE term_ends_at > ${at(nowMs - late)} AND term_ends_at <= ${at(nowMs + 31 * DAY_MS)}
    UNION SELECT member_id::text FROM onboarding_events
      WHERE (to_state = 'membre-actif' OR context = 'meeting_mm') AND created_at > ${at(nowMs - late)}
    ORDER BY 1`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}

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
    (
      await db
        .select({ key: mailOutbox.dedupeKey })
        .from(mailOutbox)
        .where(
          inArray(
            mailOutbox.dedupeKey,
            planned.map((p) => p.key),
          ),
        )
    ).map((r) => r.key),
  );
  let queued = 0;
  for (const { mail, key } of planned) {
    // Still ON CONFLICT DO NOTHING: another pass or an event may queue it meanwhile.
    if (!queuedAlready.has(key) && (await enqueueMailOnce(db, mail, key)) !== null) queued += 1;
  }
  return queued;
}

/** When each member became active: their first event that led to `membre-actif` (or `meeting_mm`), for a batch at once. */
async function activeSinceOfMembers(executor: Db, memberIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await executor
    .selectDistinctOn([onboardingEvents.memberId], { memberId: onboardingEvents.memberId, at: onboardingEvents.createdAt })
    .from(onboardingEvents)
    .where(
      and(
        inArray(onboardingEvents.memberId, [...memberIds]),
        or(eq(onboardingEvents.toState, 'membre-actif'), eq(onboardingEvents.context, 'meeting_mm')),
      ),
    )
    .orderBy(onboardingEvents.memberId, asc(onboardingEvents.id));
  return new Map(rows.map((r) => [r.memberId, r.at.getTime()]));
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
  const [row] = await db
    .select({ role: members.role, disabled: members.disabled, onboarding: members.onboarding })
    .from(members)
    .where(key ? eq(members.id, key[2] as string) : eq(members.email, mail.to))
    .limit(1);
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
