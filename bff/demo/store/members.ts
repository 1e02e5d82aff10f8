// The demo members' own rows as the routes would have written them: member file, onboarding events, meetings, counsellors, pre-registrations.
import { eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { memberCounsellors } from '#bff/db/follow-up-schema.ts';
import { members, onboardingEvents, preSubscriptions } from '#bff/db/schema.ts';

export async function memberIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const [row] = await db.select({ id: members.id }).from(members).where(eq(members.email, email)).limit(1);
  return row?.id;
}

export async function memberById(db: Db, id: string) {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return row;
}

export async function updateDemoMember(db: Db, id: string, set: Partial<typeof members.$inferInsert>): Promise<void> {
  await db.update(members).set(set).where(eq(members.id, id));
}

export async function insertOnboardingEvent(db: Db, row: typeof onboardingEvents.$inferInsert): Promise<void> {
  await db.insert(onboardingEvents).values(row);
}

export async function insertBooking(db: Db, row: typeof bookings.$inferInsert): Promise<void> {
  await db.insert(bookings).values(row);
}

export async function assignCounsellors(db: Db, rows: (typeof memberCounsellors.$inferInsert)[]): Promise<void> {
  await db.insert(memberCounsellors).values(rows).onConflictDoNothing();
}

export async function insertPreSubscriptions(db: Db, rows: (typeof preSubscriptions.$inferInsert)[]): Promise<void> {
  await db.insert(preSubscriptions).values(rows);
}
