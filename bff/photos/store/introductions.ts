// The introduction a photo is asked through: its two members, its state and its context.
import { eq } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { introductions } from '#bff/db/introductions-schema.ts';

export async function introductionForPhotos(db: Db, introductionId: string) {
  const [intro] = await db
    .select({
      memberA: introductions.memberA,
      memberB: introductions.memberB,
      state: introductions.state,
      context: introductions.context,
    })
    .from(introductions)
    .where(eq(introductions.id, introductionId))
    .limit(1);
  return intro;
}
