// The members table's rows as the members folder and its callers read and write them (by id, by address).
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';

export type MemberRow = typeof members.$inferSelect;
type NewMemberRow = typeof members.$inferInsert;

/** One account's row (a member's or a colleague's), if any. */
export async function memberById(db: Db | Transaction, id: string): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** One account's row, locked for the caller's transaction (`for update`). */
export async function lockMemberRow(tx: Transaction, id: string): Promise<MemberRow | undefined> {
  const [row] = await tx.select().from(members).where(eq(members.id, id)).limit(1).for('update');
  return row;
}

/** The id of the account with this id, locked for the caller's transaction (`for update`), if any. */
export async function lockMemberId(tx: Transaction, id: string): Promise<{ id: string } | undefined> {
  const [locked] = await tx.select({ id: members.id }).from(members).where(eq(members.id, id)).for('update');
  return locked;
}

/** The id of the account with this id, if any. */
export async function memberIdById(db: Db | Transaction, id: string): Promise<{ id: string } | undefined> {
  const [row] = await db.select({ id: members.id }).from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** The id of the account with exactly this address, if any. */
export async function memberIdByEmail(db: Db, email: string): Promise<{ id: string } | undefined> {
  const [row] = await db.select({ id: members.id }).from(members).where(eq(members.email, email)).limit(1);
  return row;
}

/** The id of the account with this address compared in lower case (`email` given in lower case), if any. */
export async function memberIdByLowerEmail(db: Db, email: string): Promise<{ id: string } | undefined> {
  const [row] = await db.select({ id: members.id }).from(members).where(sql`lower(${members.email}) = ${email}`).limit(1);
  return row;
}

/** A new account's row. */
export async function insertMemberRow(db: Db | Transaction, row: NewMemberRow): Promise<void> {
  await db.insert(members).values(row);
}

/** Sets columns of one account's row and returns the row as stored, if any. */
export async function updateMemberRow(tx: Transaction, id: string, values: Partial<NewMemberRow>): Promise<MemberRow | undefined> {
  const [row] = await tx.update(members).set(values).where(eq(members.id, id)).returning();
  return row;
}

/** Sets columns of one account's row (nothing returned). */
export async function setMemberColumns(tx: Transaction, id: string, values: Partial<NewMemberRow>): Promise<void> {
  await tx.update(members).set(values).where(eq(members.id, id));
}

/** Moves one account's version by one, dated `now`; the row as stored, if any. */
export async function bumpMemberVersion(tx: Transaction, id: string, now: Date): Promise<MemberRow | undefined> {
  const [row] = await tx
    .update(members)
    .set({ version: sql`${members.version} + 1`, updatedAt: now })
    .where(eq(members.id, id))
    .returning();
  return row;
}

/** One account's id and role, if any. */
export async function memberRole(db: Db, id: string): Promise<{ id: string; role: string } | undefined> {
  const [row] = await db.select({ id: members.id, role: members.role }).from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** An account other than `exceptId` with this address (compared in lower case), if any. */
export async function emailHolderOtherThan(db: Db, email: string, exceptId: string): Promise<{ id: string } | undefined> {
  const [holder] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(sql`lower(${members.email}) = ${email}`, ne(members.id, exceptId)));
  return holder;
}

/** Sets one account's address, its version moved by one, dated `now`. */
export async function updateMemberEmail(db: Db, id: string, email: string, now: Date): Promise<void> {
  await db
    .update(members)
    .set({ email, version: sql`${members.version} + 1`, updatedAt: now })
    .where(eq(members.id, id));
}

/** One account's id, role and profile answers, if any. */
export async function memberProfile(db: Db, id: string): Promise<{ id: string; role: string; profile: unknown } | undefined> {
  const [row] = await db
    .select({ id: members.id, role: members.role, profile: members.profile })
    .from(members)
    .where(eq(members.id, id))
    .limit(1);
  return row;
}

/** The profile answers of these accounts (at least one id). */
export async function profilesByIds(db: Db, ids: readonly string[]): Promise<{ id: string; profile: unknown }[]> {
  return db
    .select({ id: members.id, profile: members.profile })
    .from(members)
    .where(inArray(members.id, [...ids]));
}
