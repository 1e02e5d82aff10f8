import type { Db } from '#bff/db/database.ts';
import { followUpRowsOf } from '#bff/privacy/store/follow-up.ts';

/**
 * Staff's follow-up of a member (decision 124) in the member's export: the notes' text and dates,
 * whether a counsellor is assigned (since when), and the tags. As for `staffAccess`, the staff
 * members are not named.
 */
export async function followUpForExport(db: Db, memberId: string) {
  const { notes, counsellor, tags } = await followUpRowsOf(db, memberId);
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
