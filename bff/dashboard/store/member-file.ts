// A member's file's history: their checkout sessions, bookings and event log, each in order.
import { asc, eq } from 'drizzle-orm';
import { bookings } from '#bff/db/booking-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { checkoutSessions, onboardingEvents } from '#bff/db/schema.ts';

/** The member's checkout sessions, the oldest first. */
export async function checkoutSessionsOf(db: Db, memberId: string) {
  return db.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, memberId)).orderBy(asc(checkoutSessions.createdAt));
}

/** The member's bookings, by start time. */
export async function bookingsOf(db: Db, memberId: string) {
  return db.select().from(bookings).where(eq(bookings.memberId, memberId)).orderBy(asc(bookings.startTime));
}

/** The member's event log, in order. */
export async function eventsOf(db: Db, memberId: string) {
  return db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, memberId)).orderBy(asc(onboardingEvents.id));
}
