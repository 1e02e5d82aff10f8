import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import type { MemberRow } from '#bff/members/members.ts';

/** One account's row (a member's or a colleague's), if any. */
export async function memberRowById(db: Db, id: string): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** One account's id and role, if any: enough to say whether an id names a member. */
export async function memberRoleById(db: Db, id: string): Promise<{ id: string; role: string } | undefined> {
  const [row] = await db.select({ id: members.id, role: members.role }).from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** Whether another account than `exceptId` already has this address (compared in lower case). */
export async function emailTakenByAnother(db: Db, email: string, exceptId: string): Promise<boolean> {
  const [holder] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(sql`lower(${members.email}) = ${email}`, ne(members.id, exceptId)));
  return holder !== undefined;
}

/** The account's address after a confirmed change: a change of the row like any other, its version moves (an event deciding on the old row retries). */
export async function setMemberEmail(db: Db, id: string, email: string, now: Date): Promise<void> {
  await db
    .update(members)
    .set({ email, version: sql`${members.version} + 1`, updatedAt: now })
    .where(eq(members.id, id));
}

/** One account's id, role and profile answers, if any (the candidates' page of a member). */
export async function memberProfileById(db: Db, id: string): Promise<{ id: string; role: string; profile: unknown } | undefined> {
  const [row] = await db
    .select({ id: members.id, role: members.role, profile: members.profile })
    .from(members)
    .where(eq(members.id, id))
    .limit(1);
  return row;
}

/** The profile answers of these accounts (none asked, no query). */
export async function profilesOf(db: Db, ids: readonly string[]): Promise<{ id: string; profile: unknown }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: members.id, profile: members.profile })
    .from(members)
    .where(inArray(members.id, [...ids]));
}
