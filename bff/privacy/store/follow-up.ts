// Staff's follow-up of a member (notes, counsellor, tags) as read for the member's export.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { memberCounsellors, memberNotes, memberTags } from '#bff/db/follow-up-schema.ts';

/** The member's notes (oldest first), counsellor row and tags (by name), read at once. */
export async function followUpRowsOf(db: Db, memberId: string) {
  const [notes, [counsellor], tags] = await Promise.all([
    db.select().from(memberNotes).where(eq(memberNotes.memberId, memberId)).orderBy(asc(memberNotes.id)),
    db.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, memberId)).limit(1),
    db.select({ tag: memberTags.tag }).from(memberTags).where(eq(memberTags.memberId, memberId)).orderBy(asc(memberTags.tag)),
  ]);
  return { notes, counsellor, tags };
}
