// A member's introductions, as staff list them on the file.
import { asc, eq, or } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { introductions } from '#bff/db/introductions-schema.ts';

/** Every introduction of the member (either side), the first proposed first. */
export async function introductionsOfMember(db: Db, memberId: string) {
  return db
    .select()
    .from(introductions)
    .where(or(eq(introductions.memberA, memberId), eq(introductions.memberB, memberId)))
    .orderBy(asc(introductions.proposedAt));
}
