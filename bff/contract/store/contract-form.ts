// When the contract form was filled in: the latest `contractForm` line of the member's event log.
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { onboardingEvents } from '#bff/db/schema.ts';

/** The instant of the member's latest `contractForm` event, if any. */
export async function contractFormEvent(executor: Db | Transaction, memberId: string): Promise<{ createdAt: Date } | undefined> {
  const [event] = await executor
    .select({ createdAt: onboardingEvents.createdAt })
    .from(onboardingEvents)
    .where(and(eq(onboardingEvents.memberId, memberId), eq(onboardingEvents.context, 'contractForm')))
    .orderBy(desc(onboardingEvents.id))
    .limit(1);
  return event;
}
