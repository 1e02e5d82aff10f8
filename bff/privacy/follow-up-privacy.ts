import { asc, eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { memberCounsellors, memberNotes, memberTags } from '#bff/db/follow-up-schema.ts';

/**
 * Staff's follow-up of a member (decision 124) in the member's export: the notes' text and dates,
 * whether a counsellor is assigned (since when), and the tags. As for `staffAccess`, the staff
 * members are not named.
 */
export async function followUpForExport(db: Db, memberId: string) {
  const [notes, [counsellor], tags] = await Promise.all([
    db.select().from(memberNotes).where(eq(memberNotes.memberId, memberId)).orderBy(asc(memberNotes.id)),
    db.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, memberId)).limit(1),
    db.select({ tag: memberTags.tag }).from(memberTags).where(eq(memberTags.memberId, memberId)).orderBy(asc(memberTags.tag)),
  ]);
  return {
    notes: notes.map((n) => ({
      text: n.body,
      writtenAt: n.createdAt.toISOString(),
      editedAt: n.editedAt?.toISOString() ?? null,
      by: 'l’équipe',
    })),
    counsellorAssignedSince: counsellor ? counsellor.assignedAt.toISOString() : null,
    tags: tags.map((t) => t.tag),
  };
}
