// The agenda's meetings: the active bookings, the introductions' planned first meetings and the names beside them.
import { and, eq, gte, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { bookings } from '#bff/db/booking-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
// `memberPrivacy` is a narrow view of `members` itself: its columns are read in the same FROM, never joined.
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members } from '#bff/db/schema.ts';

/** The active bookings of a member not erased, starting in [from, to), with the member's name fields. */
export async function bookedMeetings(db: Db, from: Date, to: Date) {
  return db
    .select({
      inviteeUri: bookings.inviteeUri,
      memberId: bookings.memberId,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      inviteeName: bookings.inviteeName,
      email: members.email,
      profile: members.profile,
      onboarding: members.onboarding,
      kind: bookings.kind,
    })
    .from(bookings)
    .innerJoin(members, eq(members.id, bookings.memberId))
    .where(
      and(
        eq(bookings.status, 'active'),
        isNotNull(bookings.memberId),
        gte(bookings.startTime, from),
        lt(bookings.startTime, to),
        sql`${memberPrivacy.erasedAt} IS NULL`,
      ),
    );
}

/** The introductions whose first meeting (`context.meeting.at`) falls in [from, to). */
export async function plannedFirstMeetings(db: Db, from: Date, to: Date) {
  const meetingAt = sql`(${introductions.context}->'meeting'->>'at')::timestamptz`;
  return db
    .select({
      id: introductions.id,
      memberA: introductions.memberA,
      memberB: introductions.memberB,
      state: introductions.state,
      context: introductions.context,
    })
    .from(introductions)
    .where(
      and(
        sql`${introductions.context}->'meeting' IS NOT NULL`,
        sql`jsonb_typeof(${introductions.context}->'meeting') = 'object'`,
        sql`${meetingAt} >= ${from.toISOString()}::timestamptz`,
        sql`${meetingAt} < ${to.toISOString()}::timestamptz`,
      ),
    );
}

/** The name fields of the members `ids`, and whether each was erased. */
export async function meetingPeople(db: Db, ids: string[]) {
  return db
    .select({ id: members.id, email: members.email, profile: members.profile, erasedAt: memberPrivacy.erasedAt })
    .from(members)
    .where(inArray(members.id, ids));
}

/** Cancels the member's active booking (not a matchmaking meeting) starting at `startTime`; the invitee URIs freed. */
export async function cancelActiveBookingAt(tx: Pick<Db, 'update'>, input: { memberId: string; startTime: Date; now: Date }) {
  return tx
    .update(bookings)
    .set({ status: 'canceled', canceledAt: input.now, updatedAt: input.now })
    .where(
      and(
        eq(bookings.memberId, input.memberId),
        eq(bookings.status, 'active'),
        eq(bookings.startTime, input.startTime),
        sql`${bookings.kind} IS DISTINCT FROM 'entretien-matchmaking'`,
      ),
    )
    .returning({ uri: bookings.inviteeUri });
}
