// What the member's export reads of their account, payments, meetings, messages, requests, events and pre-registrations.
import { asc, eq, sql } from 'drizzle-orm';
import { bookings } from '#bff/db/booking-schema.ts';
import { memberChangeRequests } from '#bff/db/change-requests-schema.ts';
import { contractTerminations } from '#bff/db/credit-notes-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { contractCopies } from '#bff/db/privacy-schema.ts';
import { checkoutSessions, members, onboardingEvents, preSubscriptions } from '#bff/db/schema.ts';

/** The member's row, if any. */
export async function memberRowOf(db: Db, memberId: string) {
  const [row] = await db.select().from(members).where(eq(members.id, memberId));
  return row;
}

/** The member's checkout sessions, oldest first. */
export function paymentsOf(db: Db, memberId: string) {
  return db
    .select({
      id: checkoutSessions.id,
      offerId: checkoutSessions.offerId,
      amountTotal: checkoutSessions.amountTotal,
      currency: checkoutSessions.currency,
      status: checkoutSessions.status,
      paymentStatus: checkoutSessions.paymentStatus,
      createdAt: checkoutSessions.createdAt,
    })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.memberId, memberId))
    .orderBy(asc(checkoutSessions.createdAt));
}

/** The member's meetings with the agency, in time order. */
export function meetingsOf(db: Db, memberId: string) {
  return db
    .select({
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      status: bookings.status,
      inviteeName: bookings.inviteeName,
      inviteeEmail: bookings.inviteeEmail,
      rescheduled: bookings.rescheduled,
      bookedAt: bookings.bookedAt,
      canceledAt: bookings.canceledAt,
    })
    .from(bookings)
    .where(eq(bookings.memberId, memberId))
    .orderBy(asc(bookings.startTime));
}

/** The staff's messages to the member, in order; none when the messages' table is not there. */
export async function directMessagesOf(db: Db, memberId: string) {
  const messagesTable = (await db.execute(sql`SELECT to_regclass('direct_messages') IS NOT NULL AS present`)) as unknown as {
    rows: { present: boolean }[];
  };
  return messagesTable.rows[0]?.present
    ? (
        (await db.execute(
          sql`SELECT subject, body, created_at FROM direct_messages WHERE member_id = ${memberId} ORDER BY id`,
        )) as unknown as { rows: { subject: string; body: string; created_at: Date | string }[] }
      ).rows
    : [];
}

/** The member's termination requests, oldest first. */
export function terminationsOf(db: Db, memberId: string) {
  return db
    .select()
    .from(contractTerminations)
    .where(eq(contractTerminations.memberId, memberId))
    .orderBy(asc(contractTerminations.requestedAt));
}

/** The member's change requests, oldest first. */
export function changeRequestsOf(db: Db, memberId: string) {
  return db
    .select()
    .from(memberChangeRequests)
    .where(eq(memberChangeRequests.memberId, memberId))
    .orderBy(asc(memberChangeRequests.createdAt));
}

/** The member's onboarding events, in order. */
export function onboardingEventsOf(db: Db, memberId: string) {
  return db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, memberId)).orderBy(asc(onboardingEvents.id));
}

/** The pre-registrations made with the member's address or linked to their account. */
export function preRegistrationsOf(db: Db, member: { id: string; email: string }) {
  return db
    .select({
      id: preSubscriptions.id,
      gender: preSubscriptions.gender,
      email: preSubscriptions.email,
      age: preSubscriptions.age,
      zipCode: preSubscriptions.zipCode,
      city: preSubscriptions.city,
      createdAt: preSubscriptions.createdAt,
    })
    .from(preSubscriptions)
    .where(sql`lower(${preSubscriptions.email}) = lower(${member.email}) OR ${preSubscriptions.memberId} = ${member.id}`);
}

/** When each stored copy of the member's contract was signed, and its hash. */
export function contractCopiesOf(db: Db, memberId: string) {
  return db
    .select({ signedAt: contractCopies.signedAt, sha256: contractCopies.sha256 })
    .from(contractCopies)
    .where(eq(contractCopies.memberId, memberId));
}
