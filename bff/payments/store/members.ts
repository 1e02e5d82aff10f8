// Member rows as the payments read them (their record, role and e-mail; bff/members/ owns them).
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';

export async function memberRow(executor: Pick<Db, 'select'>, memberId: string) {
  const [member] = await executor.select().from(members).where(eq(members.id, memberId)).limit(1);
  return member;
}

/** The role and record of `memberIds`. */
export async function memberOnboardings(executor: Pick<Db, 'select'>, memberIds: string[]) {
  return executor
    .select({ id: members.id, role: members.role, onboarding: members.onboarding })
    .from(members)
    .where(inArray(members.id, memberIds));
}

/** The members (role `member`), or that one member: their name's sources and e-mail. */
export async function billedMembers(db: Db, memberId?: string) {
  return db
    .select({ id: members.id, email: members.email, contract: members.contract, profile: members.profile })
    .from(members)
    .where(memberId ? and(eq(members.id, memberId), eq(members.role, 'member')) : eq(members.role, 'member'));
}
