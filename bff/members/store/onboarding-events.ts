// The onboarding event log's rows (`onboarding_events`): one per event, numbered by the member's version.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { onboardingEvents } from '#bff/db/schema.ts';

type NewOnboardingEvent = typeof onboardingEvents.$inferInsert;

/** One row of the log, in the caller's transaction. */
export async function insertOnboardingEvent(tx: Transaction, row: NewOnboardingEvent): Promise<void> {
  await tx.insert(onboardingEvents).values(row);
}

/** A line of this context logged for the member after `since`, if any. */
export async function eventOfContextSince(
  tx: Transaction,
  memberId: string,
  context: string,
  since: Date,
): Promise<{ id: number } | undefined> {
  const [recent] = await tx
    .select({ id: onboardingEvents.id })
    .from(onboardingEvents)
    .where(and(eq(onboardingEvents.memberId, memberId), eq(onboardingEvents.context, context), gt(onboardingEvents.createdAt, since)))
    .limit(1);
  return recent;
}

/** The highest version the member's log holds (0 when none). */
export async function lastEventVersion(tx: Transaction, memberId: string): Promise<number | undefined> {
  const [last] = await tx
    .select({ version: sql<number>`coalesce(max(${onboardingEvents.version}), 0)::int` })
    .from(onboardingEvents)
    .where(eq(onboardingEvents.memberId, memberId));
  return last?.version;
}

/** How many lines the member's log holds. */
export async function countEvents(db: Db, memberId: string): Promise<number | undefined> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(onboardingEvents).where(eq(onboardingEvents.memberId, memberId));
  return row?.n;
}
