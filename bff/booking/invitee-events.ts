import * as v from 'valibot';
import { bookingMemberOf, memberForBooking, recordCalendlyDeliveryOnce, upsertBooking } from '#bff/booking/store/bookings.ts';
import type { Db } from '#bff/db/database.ts';
import { bookingFactsOf, bookingKindAtRecording } from '#machines/agenda/booking-kind.ts';

/**
 * A Calendly delivery as the webhook (`bff/api/calendly-webhook.ts`) hands it in, verified and
 * read: the webhook row (insert-if-absent) and the booking, in one transaction; the member named
 * by the booking's tracking (decision 221: the queries left the route).
 */

export const CALENDLY_EVENTS = ['invitee.created', 'invitee.canceled'] as const;
export type CalendlyEventName = (typeof CALENDLY_EVENTS)[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const text = (max: number) => v.nullish(v.pipe(v.string(), v.maxLength(max)));
const instant = v.pipe(
  v.string(),
  v.maxLength(40),
  v.check((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value))),
);

/** The fields of an invitee payload the product reads (Calendly webhook payload). */
export const InviteeSchema = v.object({
  uri: v.pipe(v.string(), v.minLength(1), v.maxLength(500)),
  email: text(320),
  name: text(300),
  status: text(20),
  rescheduled: v.nullish(v.boolean()),
  scheduled_event: v.object({ uri: v.pipe(v.string(), v.minLength(1), v.maxLength(500)), start_time: instant, end_time: instant }),
  tracking: v.nullish(v.object({ utm_content: text(150) })),
  cancel_url: text(1000),
  reschedule_url: text(1000),
  created_at: v.nullish(instant),
});
type CalendlyInvitee = v.InferOutput<typeof InviteeSchema>;

export type BookingOutcome = 'recorded' | 'duplicate' | 'ignored';

async function memberFromTracking(db: Db, invitee: CalendlyInvitee): Promise<{ id: string; onboarding: unknown } | null> {
  const reference = invitee.tracking?.utm_content ?? null;
  if (reference === null || !UUID.test(reference)) return null;
  return (await memberForBooking(db, reference.toLowerCase())) ?? null;
}

/**
 * Records one verified delivery: the webhook row (insert-if-absent) and the booking, in one
 * transaction. A booking once canceled stays canceled, whichever event arrives first.
 */
export async function recordInviteeEvent(
  db: Db,
  name: CalendlyEventName,
  invitee: CalendlyInvitee,
  envelope: unknown,
  now: Date,
): Promise<{ outcome: BookingOutcome; memberId: string | null }> {
  const member = await memberFromTracking(db, invitee);
  const memberId = member?.id ?? null;
  // Which meeting this is, decided once from the member's record now (decision 128).
  const kind = member ? bookingKindAtRecording(Date.parse(invitee.scheduled_event.start_time), bookingFactsOf(member.onboarding)) : null;
  return db.transaction(async (tx) => {
    if (!(await recordCalendlyDeliveryOnce(tx, { id: `${name}:${invitee.uri}`, type: name, payload: envelope }, now))) {
      const known = await bookingMemberOf(tx, invitee.uri);
      return { outcome: 'duplicate' as const, memberId: known?.memberId ?? memberId };
    }
    const canceled = name === 'invitee.canceled';
    await upsertBooking(
      tx,
      {
        inviteeUri: invitee.uri,
        memberId,
        eventUri: invitee.scheduled_event.uri,
        startTime: new Date(invitee.scheduled_event.start_time),
        endTime: new Date(invitee.scheduled_event.end_time),
        status: canceled ? 'canceled' : 'active',
        inviteeEmail: invitee.email ?? null,
        inviteeName: invitee.name ?? null,
        cancelUrl: invitee.cancel_url ?? null,
        rescheduleUrl: invitee.reschedule_url ?? null,
        rescheduled: invitee.rescheduled === true,
        kind,
        bookedAt: invitee.created_at ? new Date(invitee.created_at) : null,
        canceledAt: canceled ? now : null,
        createdAt: now,
        updatedAt: now,
      },
      canceled,
      now,
    );
    return { outcome: 'recorded' as const, memberId };
  });
}
