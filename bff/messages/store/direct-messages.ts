// The messages between members and the agency (direct_messages), and the members they name.
import { and, asc, count, desc, eq, inArray, isNull, max, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { directMessages } from '#bff/db/messages-schema.ts';
import { members } from '#bff/db/schema.ts';

type MessageRow = typeof directMessages.$inferSelect;

/** The condition narrowing a list to the members a caller may see (given the list's member column), or undefined: all. */
export type MemberScope = (memberColumn: unknown) => SQL | undefined;

export async function insertDirectMessage(
  tx: Pick<Db, 'insert'>,
  row: typeof directMessages.$inferInsert,
): Promise<MessageRow | undefined> {
  const [inserted] = await tx.insert(directMessages).values(row).returning();
  return inserted;
}

/** Links a message to the notice queued for it: the updated row. */
export async function setMessageMail(tx: Pick<Db, 'update'>, id: number, mailId: number | null): Promise<MessageRow | undefined> {
  const [row] = await tx.update(directMessages).set({ mailId }).where(eq(directMessages.id, id)).returning();
  return row;
}

/** One member's conversation, newest first, at most `limit` messages. */
export function conversationOf(db: Db, memberId: string, limit: number): Promise<MessageRow[]> {
  return db.select().from(directMessages).where(eq(directMessages.memberId, memberId)).orderBy(desc(directMessages.id)).limit(limit);
}

/** How many of the agency's messages to this member are unread. */
export async function unreadByMemberCount(db: Db, memberId: string): Promise<number | undefined> {
  const [row] = await db
    .select({ n: count() })
    .from(directMessages)
    .where(and(eq(directMessages.memberId, memberId), eq(directMessages.direction, 'to_member'), isNull(directMessages.memberReadAt)));
  return row?.n;
}

/** Marks read at `now` the agency's unread messages to this member: how many. */
export async function markToMemberRead(db: Db, memberId: string, now: Date): Promise<number> {
  const marked = await db
    .update(directMessages)
    .set({ memberReadAt: now })
    .where(and(eq(directMessages.memberId, memberId), eq(directMessages.direction, 'to_member'), isNull(directMessages.memberReadAt)))
    .returning({ id: directMessages.id });
  return marked.length;
}

/** Marks read at `now` this member's unread messages to the agency: how many. */
export async function markToAgencyRead(db: Db, memberId: string, now: Date): Promise<number> {
  const marked = await db
    .update(directMessages)
    .set({ staffReadAt: now })
    .where(and(eq(directMessages.memberId, memberId), eq(directMessages.direction, 'to_agency'), isNull(directMessages.staffReadAt)))
    .returning({ id: directMessages.id });
  return marked.length;
}

/** A member's (or staff member's) whole row. */
export async function memberRowById(tx: Pick<Db, 'select'>, id: string) {
  const [row] = await tx.select().from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** A member's role and profile. */
export async function memberRoleAndProfile(db: Db, id: string) {
  const [member] = await db.select({ role: members.role, profile: members.profile }).from(members).where(eq(members.id, id)).limit(1);
  return member;
}

/** A member's role. */
export async function memberRoleOf(db: Db, id: string): Promise<{ role: string } | undefined> {
  const [row] = await db.select({ role: members.role }).from(members).where(eq(members.id, id)).limit(1);
  return row;
}

/** The staff's conversations (one member's when `memberId` is given) in `scope`, newest first, with the member's address. */
export function staffConversationRows(db: Db, input: { memberId: string | undefined; scope: MemberScope; limit: number }) {
  const { memberId } = input;
  return db
    .select({ message: directMessages, memberEmail: members.email })
    .from(directMessages)
    .innerJoin(members, eq(members.id, directMessages.memberId))
    .where(and(memberId ? eq(directMessages.memberId, memberId) : undefined, input.scope(directMessages.memberId)))
    .orderBy(desc(directMessages.id))
    .limit(input.limit);
}

/** The addresses of these accounts. */
export function accountEmails(db: Db, ids: string[]) {
  return db.select({ id: members.id, email: members.email }).from(members).where(inArray(members.id, ids));
}

/** Who a conversation is with: the account's id, address, profile and role. */
export async function conversationMember(db: Db, memberId: string) {
  const [who] = await db
    .select({ id: members.id, email: members.email, profile: members.profile, role: members.role })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return who;
}

/** The members in `scope` with messages to the agency unread, the latest first: how many and when the last came. */
export function unreadByAgencyRows(db: Db, scope: MemberScope) {
  return db
    .select({
      memberId: directMessages.memberId,
      email: members.email,
      profile: members.profile,
      unread: count(),
      lastAt: max(directMessages.createdAt),
    })
    .from(directMessages)
    .innerJoin(members, eq(members.id, directMessages.memberId))
    .where(and(eq(directMessages.direction, 'to_agency'), isNull(directMessages.staffReadAt), scope(directMessages.memberId)))
    .groupBy(directMessages.memberId, members.email, members.profile)
    .orderBy(desc(max(directMessages.createdAt)));
}

/** Members in `scope` whose address or name (either order) matches the LIKE `pattern`, by address, at most `limit`. */
export function membersMatching(db: Db, input: { pattern: string; scope: MemberScope; limit: number }) {
  const { pattern } = input;
  return db
    .select({ id: members.id, email: members.email, profile: members.profile })
    .from(members)
    .where(
      and(
        eq(members.role, 'member'),
        input.scope(members.id),
        sql`(lower(${members.email}) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'firstName', '') || ' ' || coalesce(${members.profile}->>'lastName', '')) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'lastName', '') || ' ' || coalesce(${members.profile}->>'firstName', '')) LIKE ${pattern})`,
      ),
    )
    .orderBy(asc(sql`lower(${members.email})`))
    .limit(input.limit);
}
