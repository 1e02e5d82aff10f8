// The account holding an address, for the history line of a daily code ceiling (decision 188).
import { sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';

/** The member (or staff member) whose address is `email` (already lower case), if any. */
export async function memberIdByAddress(db: Db, email: string): Promise<string | undefined> {
  const [holder] = await db.select({ id: members.id }).from(members).where(sql`lower(${members.email}) = ${email}`).limit(1);
  return holder?.id;
}
