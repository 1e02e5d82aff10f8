import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { latestActiveBookingRow } from '#bff/booking/store/bookings.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { recordOf } from '#bff/members/members.ts';
import { memberById } from '#bff/members/store/members.ts';
import { type Actor, applyOnboardingUpdate } from '#bff/onboarding/apply-update.ts';
import type { PaymentVerifier } from '#bff/payments/verify-payment.ts';
import { toIsoInstant } from '#machines/onboarding/instant.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { topStateOf } from '#machines/onboarding/steps.ts';
import { log } from '#bff/logger.ts';

const SYSTEM: Actor = { id: null, role: 'system' };
const MAX_ATTEMPTS = 4;

/** The member's latest active booking (the one they booked last), or null. */
export async function latestActiveBooking(db: Db, memberId: string) {
  return (await latestActiveBookingRow(db, memberId)) ?? null;
}

/** One sync per member at a time in this process; each one reads the latest state anyway. */
const queues = new Map<string, Promise<unknown>>();

function serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

export interface SyncResult {
  /** Update contexts applied, in order. */
  applied: string[];
  /** Why the chart refused, when it did (logged; the webhook still answers 2xx). */
  refused: string | null;
}

/**
 * Brings the member's onboarding record in line with their bookings, through the same authority
 * as every other update (`applyOnboardingUpdate`, actor system). Decided from the stored bookings,
 * not from the event that triggered it, so deliveries in any order (a reschedule's cancel before
 * or after its create) and duplicates converge on the same record:
 * - an active booking and the member on the booking step: `onb_meet {date}`, `onb_meet_resa`;
 * - an active booking at another (future) time while waiting for the meeting: `onb_meet_cancel`,
 *   then the two above (a reschedule);
 * - no active booking while waiting for the meeting: `onb_meet_cancel` (back to booking).
 */
export function syncMemberBooking(
  db: Db,
  memberId: string,
  options: { now: Date; verifyPayment: PaymentVerifier; mail?: AgencyMailSite | undefined },
): Promise<SyncResult> {
  return serialised(memberId, async () => {
    const applied: string[] = [];
    for (let attempt = 1; ; attempt += 1) {
      try {
        await syncOnce(db, memberId, options, applied);
        return { applied, refused: null };
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500) throw error;
        // A concurrent change (409): decide again on the fresh record, a few times.
        if (error.status === 409 && attempt < MAX_ATTEMPTS) continue;
        const reason = `${error.code}: ${error.message}${error.extra.state ? ` (état ${String(error.extra.state)})` : ''}`;
        log.warn('rendez-vous : mise à jour refusée', { memberId, reason });
        return { applied, refused: reason };
      }
    }
  });
}

async function syncOnce(
  db: Db,
  memberId: string,
  options: { now: Date; verifyPayment: PaymentVerifier; mail?: AgencyMailSite | undefined },
  applied: string[],
) {
  const row = await memberById(db, memberId);
  if (row?.role !== 'member') return;
  const nowMs = options.now.getTime();
  const record = recordOf(row);
  let top = topStateOf(stateFromRecord(record, nowMs));
  const active = await latestActiveBooking(db, memberId);
  const apply = async (body: Record<string, unknown>) => {
    await applyOnboardingUpdate(db, body, {
      actor: SYSTEM,
      callerMemberId: memberId,
      now: options.now,
      verifyPayment: options.verifyPayment,
      mail: options.mail,
    });
    applied.push(String(body.context));
  };

  if (!active) {
    if (top === 'attente-entretien-personnalise') await apply({ context: 'onb_meet_cancel', uid: memberId });
    return;
  }
  const date = toIsoInstant(active.startTime.getTime());
  let dateSelected = record.onboardingMeetingDateSelected && record.onboardingMeetingDate === date;
  if (top === 'attente-entretien-personnalise') {
    if (record.onboardingMeetingDate === date || active.startTime.getTime() <= nowMs) return;
    await apply({ context: 'onb_meet_cancel', uid: memberId });
    top = 'prendre-un-rendez-vous';
    dateSelected = false;
  }
  if (top !== 'prendre-un-rendez-vous') return;
  // A meeting already in the past cannot be booked (late delivery): nothing to do.
  if (active.startTime.getTime() <= nowMs) return;
  if (!dateSelected) await apply({ context: 'onb_meet', date });
  await apply({ context: 'onb_meet_resa', status: true, uid: memberId });
}
