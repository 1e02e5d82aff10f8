// The Calendly bookings (`bookings`) and their deliveries (`webhook_events`), and the member a booking names.
import { and, desc, eq, sql } from 'drizzle-orm';
import { bookings } from '#bff/db/booking-schema.ts';
import type { Db, Transaction } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { recordWebhookEventOnce } from '#bff/db/webhook-events.ts';

/** The member (role member) with this id (in lower case): their id and record, if any. */
export async function memberForBooking(db: Db, id: string): Promise<{ id: string; onboarding: unknown } | undefined> {
  const [row] = await db
    .select({ id: members.id, onboarding: members.onboarding })
    .from(members)
    .where(and(eq(members.id, id), eq(members.role, 'member')))
    .limit(1);
  return row;
}

/** Records a Calendly delivery once (insert-if-absent); false when it was already recorded. */
export function recordCalendlyDeliveryOnce(tx: Transaction, event: { id: string; type: string; payload: unknown }, receivedAt: Date) {
  return recordWebhookEventOnce(tx, { provider: 'calendly', ...event }, receivedAt);
}

/** The member a known booking names, if the booking is known. */
export async function bookingMemberOf(tx: Transaction, inviteeUri: string): Promise<{ memberId: string | null } | undefined> {
  const [known] = await tx.select({ memberId: bookings.memberId }).from(bookings).where(eq(bookings.inviteeUri, inviteeUri)).limit(1);
  return known;
}

/**
 * Writes a booking (by its invitee's URI) from a delivery: a new one as given; a known one keeps
 * what it had (member, kind, links, booking instant), and once canceled stays canceled.
 */
export async function upsertBooking(tx: Transaction, row: typeof bookings.$inferInsert, canceled: boolean, now: Date): Promise<void> {
  const b = bookings;
  await tx
    .insert(b)
    .values(row)
    .onConflictDoUpdate({
      target: b.inviteeUri,
      set: {
        memberId: sql`coalesce(${b.memberId}, excluded.member_id)`,
        kind: sql`coalesce(${b.kind}, excluded.kind)`,
        cancelUrl: sql`coalesce(${b.cancelUrl}, excluded.cancel_url)`,
        rescheduleUrl: sql`coalesce(${b.rescheduleUrl}, excluded.reschedule_url)`,
        bookedAt: sql`coalesce(${b.bookedAt}, excluded.booked_at)`,
        status: canceled ? 'canceled' : sql`${b.status}`,
        rescheduled: sql`${b.rescheduled} or excluded.rescheduled`,
        canceledAt: canceled ? sql`coalesce(${b.canceledAt}, excluded.canceled_at)` : sql`${b.canceledAt}`,
        updatedAt: now,
      },
    });
}

/** The member's latest active booking (the one booked last), if any. */
export async function latestActiveBookingRow(db: Db, memberId: string) {
  const [row] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.memberId, memberId), eq(bookings.status, 'active')))
    .orderBy(sql`${bookings.bookedAt} desc nulls last`, desc(bookings.createdAt))
    .limit(1);
  return row;
}
