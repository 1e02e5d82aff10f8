// Staff's follow-up of members: internal notes (`member_notes`), counsellors (`member_counsellors`) and tags (`member_tags`).
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { memberCounsellors, memberNotes, memberTags } from '#bff/db/follow-up-schema.ts';
import { members } from '#bff/db/schema.ts';

/** A member's notes, the newest first. */
export async function notesOf(db: Db, memberId: string) {
  return db.select().from(memberNotes).where(eq(memberNotes.memberId, memberId)).orderBy(desc(memberNotes.id));
}

/** The member's note `noteId` locked for a change, if it is theirs. */
export async function lockNote(tx: Transaction, memberId: string, noteId: number) {
  const [note] = await tx
    .select()
    .from(memberNotes)
    .where(and(eq(memberNotes.id, noteId), eq(memberNotes.memberId, memberId)))
    .for('update');
  return note;
}

/** A new note; its id. */
export async function insertNote(db: Db, row: { memberId: string; authorId: string; body: string; createdAt: Date }) {
  const [note] = await db.insert(memberNotes).values(row).returning({ id: memberNotes.id });
  return note;
}

/** Note `noteId`'s new text. */
export async function updateNote(tx: Transaction, noteId: number, set: { body: string; editedAt: Date }) {
  await tx.update(memberNotes).set(set).where(eq(memberNotes.id, noteId));
}

/** Note `noteId` deleted. */
export async function deleteNote(tx: Transaction, noteId: number) {
  await tx.delete(memberNotes).where(eq(memberNotes.id, noteId));
}

/** The member's counsellor row (who, since when), if any. */
export async function counsellorOf(db: Db, memberId: string) {
  const [row] = await db.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, memberId)).limit(1);
  return row;
}

/** The member's counsellor row, read in the transaction that changes it. */
export async function currentCounsellorOf(tx: Transaction, memberId: string) {
  const [row] = await tx.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, memberId));
  return row;
}

/** The counsellor rows of the members `memberIds`. */
export async function counsellorsOf(tx: Transaction, memberIds: string[]) {
  return tx.select().from(memberCounsellors).where(inArray(memberCounsellors.memberId, memberIds));
}

/** The member's counsellor with their address and onboarding (their name), if any. */
export async function counsellorAccountOf(db: Db, memberId: string) {
  const [row] = await db
    .select({ id: memberCounsellors.counsellorId, email: members.email, onboarding: members.onboarding })
    .from(memberCounsellors)
    .innerJoin(members, eq(members.id, memberCounsellors.counsellorId))
    .where(eq(memberCounsellors.memberId, memberId))
    .limit(1);
  return row;
}

/** The members `memberIds` entrusted to `counsellorId` since `now` (replacing any other). */
export async function assignCounsellor(tx: Transaction, memberIds: string[], counsellorId: string, now: Date) {
  await tx
    .insert(memberCounsellors)
    .values(memberIds.map((memberId) => ({ memberId, counsellorId, assignedAt: now })))
    .onConflictDoUpdate({ target: memberCounsellors.memberId, set: { counsellorId, assignedAt: now } });
}

/** The member entrusted to no one. */
export async function unassignCounsellor(tx: Transaction, memberId: string) {
  await tx.delete(memberCounsellors).where(eq(memberCounsellors.memberId, memberId));
}

/** The members `memberIds` entrusted to no one. */
export async function unassignCounsellors(tx: Transaction, memberIds: string[]) {
  await tx.delete(memberCounsellors).where(inArray(memberCounsellors.memberId, memberIds));
}

/** Every tag in use with its number of members: one line per tag whatever the case (issue 63), spelled as first typed. */
export async function tagsInUse(db: Db) {
  return db
    .select({
      tag: sql<string>`(array_agg(${memberTags.tag} ORDER BY ${memberTags.createdAt}, ${memberTags.tag}))[1]`,
      members: count(),
    })
    .from(memberTags)
    .groupBy(memberTags.tagKey)
    .orderBy(asc(memberTags.tagKey));
}

/** A member's tags, in order. */
export async function tagsOf(db: Db, memberId: string) {
  return db.select({ tag: memberTags.tag }).from(memberTags).where(eq(memberTags.memberId, memberId)).orderBy(asc(memberTags.tag));
}

/** How many tags the member has. */
export async function tagCountOf(tx: Transaction, memberId: string): Promise<number> {
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(memberTags).where(eq(memberTags.memberId, memberId));
  return n;
}

/** Per member of `memberIds` with tags: how many, and whether one has the key `key`. */
export async function tagCountsOf(tx: Transaction, memberIds: string[], key: string) {
  return tx
    .select({
      memberId: memberTags.memberId,
      n: count(),
      has: sql<boolean>`bool_or(${memberTags.tagKey} = ${key})`,
    })
    .from(memberTags)
    .where(inArray(memberTags.memberId, memberIds))
    .groupBy(memberTags.memberId);
}

/** The member's tag as spelled, the one with key `key`, if any. */
export async function tagByKey(tx: Transaction, memberId: string, key: string) {
  const [row] = await tx
    .select({ tag: memberTags.tag })
    .from(memberTags)
    .where(and(eq(memberTags.memberId, memberId), eq(memberTags.tagKey, key)));
  return row;
}

/** A tag on a member, unless they have its key already; the tag when inserted. */
export async function insertTag(tx: Transaction, row: { memberId: string; tag: string; tagKey: string; createdAt: Date }) {
  return tx.insert(memberTags).values(row).onConflictDoNothing().returning({ tag: memberTags.tag });
}

/** A tag on each of the members, except those with its key already; the members tagged. */
export async function insertTags(tx: Transaction, rows: { memberId: string; tag: string; tagKey: string; createdAt: Date }[]) {
  return tx.insert(memberTags).values(rows).onConflictDoNothing().returning({ memberId: memberTags.memberId });
}

/** The member's tag with key `key` removed; the tags removed. */
export async function deleteTag(db: Db, memberId: string, key: string) {
  return db
    .delete(memberTags)
    .where(and(eq(memberTags.memberId, memberId), eq(memberTags.tagKey, key)))
    .returning({ tag: memberTags.tag });
}
