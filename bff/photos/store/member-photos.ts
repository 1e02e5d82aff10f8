// Members' photos (member_photos, decision 116): their metadata, their bytes, their positions.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { memberPhotos } from '#bff/db/photos-schema.ts';

const metadataColumns = {
  id: memberPhotos.id,
  position: memberPhotos.position,
  width: memberPhotos.width,
  height: memberPhotos.height,
  sizeBytes: memberPhotos.sizeBytes,
  createdAt: memberPhotos.createdAt,
};

/** A member's photos (no bytes), in their order. */
export function photoMetadataOf(db: Db, memberId: string) {
  return db.select(metadataColumns).from(memberPhotos).where(eq(memberPhotos.memberId, memberId)).orderBy(asc(memberPhotos.position));
}

/** Locks the member's row until the transaction ends (one upload at a time per member). */
export async function lockMemberForPhotos(tx: Transaction, memberId: string): Promise<void> {
  await tx.execute(sql`SELECT id FROM members WHERE id = ${memberId}::uuid FOR UPDATE`);
}

/** The positions the member's photos hold. */
export async function takenPhotoPositions(tx: Transaction, memberId: string): Promise<number[]> {
  const taken = await tx.select({ position: memberPhotos.position }).from(memberPhotos).where(eq(memberPhotos.memberId, memberId));
  return taken.map((t) => t.position);
}

/** Inserts a photo: its metadata, or undefined when the insert returned nothing. */
export async function insertPhoto(tx: Transaction, row: typeof memberPhotos.$inferInsert) {
  const [inserted] = await tx.insert(memberPhotos).values(row).returning(metadataColumns);
  return inserted;
}

/** Deletes one of this member's photos: whether there was one. */
export async function deletePhotoOf(db: Db, memberId: string, photoId: string): Promise<boolean> {
  const deleted = await db
    .delete(memberPhotos)
    .where(and(eq(memberPhotos.id, photoId), eq(memberPhotos.memberId, memberId)))
    .returning({ id: memberPhotos.id });
  return deleted.length > 0;
}

/** One of this member's photos: its bytes (the thumbnail's with `thumbnail`) and type. */
export async function photoBytesOf(db: Db, input: { memberId: string; photoId: string; thumbnail: boolean }) {
  const [row] = await db
    .select({ bytes: input.thumbnail ? memberPhotos.thumbnail : memberPhotos.bytes, mime: memberPhotos.mime })
    .from(memberPhotos)
    .where(and(eq(memberPhotos.id, input.photoId), eq(memberPhotos.memberId, input.memberId)))
    .limit(1);
  return row;
}

/** The ids of a member's photos, in their order. */
export async function photoIdsInOrder(executor: Pick<Db, 'select'>, memberId: string): Promise<string[]> {
  const rows = await executor
    .select({ id: memberPhotos.id })
    .from(memberPhotos)
    .where(eq(memberPhotos.memberId, memberId))
    .orderBy(asc(memberPhotos.position));
  return rows.map((r) => r.id);
}
