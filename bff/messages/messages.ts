import { and, asc, count, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import type { Caller } from '#bff/auth/caller.ts';
import { counselledOnly } from '#bff/auth/staff-policy.ts';
import type { Db } from '#bff/db/database.ts';
import { directMessages } from '#bff/db/messages-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ApiError } from '#bff/http/errors.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';

/**
 * Two-way messages between a member and the agency (issues 21 and 22, decision 121): the
 * conversations, the unread counts on both sides and the recipient search, in SQL; the routes
 * (`bff/api/message-routes.ts`) validate and call these.
 *
 * - A member reads and writes only their own conversation and marks read only what the agency
 *   wrote to them; staff read every conversation (a counsellor, their members') and mark read only
 *   what members wrote.
 * - Each message queues one notice through the outbox (de-duplicated by the message id), never
 *   its content (GDPR art. 9): to the member, or to the agency's address.
 */

/** At most this many members in an answer of the recipient search (the combobox shows them all). */
export const MEMBER_SEARCH_LIMIT = 8;
/** The newest messages a conversation answers (older ones stay stored). */
const CONVERSATION_LIMIT = 200;

export const MEMBER_NOT_FOUND = () => new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');

export function namesOf(profile: unknown): { firstName: string; lastName: string } {
  const p = (profile ?? {}) as { firstName?: unknown; lastName?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  return { firstName: text(p.firstName), lastName: text(p.lastName) };
}

function displayName(profile: unknown): string | null {
  const { firstName, lastName } = namesOf(profile);
  return [firstName, lastName].filter(Boolean).join(' ') || null;
}

type MessageRow = typeof directMessages.$inferSelect;

export function messageView(row: MessageRow, authorEmail: string | null) {
  return {
    id: row.id,
    memberId: row.memberId,
    direction: row.direction,
    subject: row.subject,
    body: row.body,
    authorEmail,
    createdAt: row.createdAt.toISOString(),
    memberReadAt: row.memberReadAt?.toISOString() ?? null,
    staffReadAt: row.staffReadAt?.toISOString() ?? null,
  };
}

/** Writes one message and its notice (once per message) in the caller's transaction. */
async function writeMessage(
  tx: Executor,
  input: {
    now: Date;
    memberId: string;
    authorId: string;
    direction: 'to_member' | 'to_agency';
    subject: string;
    body: string;
    notice: (id: number) => Parameters<typeof enqueueMailOnce>[1];
  },
): Promise<MessageRow> {
  const now = input.now;
  const [inserted] = await tx
    .insert(directMessages)
    .values({
      memberId: input.memberId,
      authorId: input.authorId,
      direction: input.direction,
      subject: input.subject,
      body: input.body,
      createdAt: now,
      // The author's side has read what it wrote.
      ...(input.direction === 'to_member' ? { staffReadAt: now } : { memberReadAt: now }),
    })
    .returning();
  if (!inserted) throw new Error('direct_messages insert returned nothing');
  const mailId = await enqueueMailOnce(tx, input.notice(inserted.id), `message-notice:${inserted.id}`);
  const [row] = await tx.update(directMessages).set({ mailId }).where(eq(directMessages.id, inserted.id)).returning();
  return row ?? inserted;
}

type MessageInput = Parameters<typeof writeMessage>[1];

/** A member's message to the agency and its notice, in one transaction of its own. */
export function sendMessage(db: Db, input: MessageInput): Promise<MessageRow> {
  return db.transaction((tx) => writeMessage(tx, input));
}

/** A staff message to a member (404 when the id is not a member's) and its notice to them, in one transaction. */
export function sendStaffMessage(
  db: Db,
  memberId: string,
  input: Omit<MessageInput, 'memberId' | 'notice'> & {
    notice: (recipient: { email: string; firstName: string | null }) => ReturnType<MessageInput['notice']>;
  },
): Promise<MessageRow> {
  return db.transaction(async (tx) => {
    const row = await messageRecipient(tx, memberId);
    return writeMessage(tx, {
      ...input,
      memberId: row.id,
      notice: () => input.notice({ email: row.email, firstName: namesOf(row.profile).firstName || null }),
    });
  });
}

/** The member's own conversation, newest first. */
export function memberConversation(db: Db, memberId: string): Promise<MessageRow[]> {
  return db
    .select()
    .from(directMessages)
    .where(eq(directMessages.memberId, memberId))
    .orderBy(desc(directMessages.id))
    .limit(CONVERSATION_LIMIT);
}

/** How many of the agency's messages the member has not read. */
export async function memberUnreadCount(db: Db, memberId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(directMessages)
    .where(and(eq(directMessages.memberId, memberId), eq(directMessages.direction, 'to_member'), isNull(directMessages.memberReadAt)));
  return row?.n ?? 0;
}

/** Marks read what the agency wrote to this member (never another member's, never the agency's side); answers how many. */
export async function markReadByMember(db: Db, memberId: string, now: Date): Promise<number> {
  const marked = await db
    .update(directMessages)
    .set({ memberReadAt: now })
    .where(and(eq(directMessages.memberId, memberId), eq(directMessages.direction, 'to_member'), isNull(directMessages.memberReadAt)))
    .returning({ id: directMessages.id });
  return marked.length;
}

/** A member's row for a staff message: 404 when the id is not a member's. */
async function messageRecipient(tx: Executor, id: string) {
  const [row] = await tx.select().from(members).where(eq(members.id, id)).limit(1);
  if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
  return row;
}

/** The staff's conversations (one member's when `memberId` is given), with their authors' addresses. */
export async function staffConversations(db: Db, staff: Caller, memberId: string | undefined) {
  const rows = await db
    .select({ message: directMessages, memberEmail: members.email })
    .from(directMessages)
    .innerJoin(members, eq(members.id, directMessages.memberId))
    .where(and(memberId ? eq(directMessages.memberId, memberId) : undefined, counselledOnly(staff, directMessages.memberId)))
    .orderBy(desc(directMessages.id))
    .limit(CONVERSATION_LIMIT);
  const authorIds = [...new Set(rows.map((r) => r.message.authorId).filter((a): a is string => a !== null))];
  const authors =
    authorIds.length > 0
      ? await db.select({ id: members.id, email: members.email }).from(members).where(inArray(members.id, authorIds))
      : [];
  const emailOf = new Map(authors.map((a) => [a.id, a.email]));
  // The member of the conversation (the page names them even before a first message).
  const [who] = memberId
    ? await db
        .select({ id: members.id, email: members.email, profile: members.profile, role: members.role })
        .from(members)
        .where(eq(members.id, memberId))
        .limit(1)
    : [];
  return {
    member: who?.role === 'member' ? { id: who.id, email: who.email, name: displayName(who.profile) } : null,
    messages: rows.map((r) => ({
      ...messageView(r.message, r.message.authorId ? (emailOf.get(r.message.authorId) ?? null) : null),
      memberEmail: r.memberEmail,
    })),
  };
}

/** The members whose messages staff have not read, the latest first, with the total. */
export async function staffUnread(db: Db, staff: Caller) {
  const rows = await db
    .select({
      memberId: directMessages.memberId,
      email: members.email,
      profile: members.profile,
      unread: count(),
      lastAt: max(directMessages.createdAt),
    })
    .from(directMessages)
    .innerJoin(members, eq(members.id, directMessages.memberId))
    .where(
      and(eq(directMessages.direction, 'to_agency'), isNull(directMessages.staffReadAt), counselledOnly(staff, directMessages.memberId)),
    )
    .groupBy(directMessages.memberId, members.email, members.profile)
    .orderBy(desc(max(directMessages.createdAt)));
  return {
    total: rows.reduce((sum, r) => sum + r.unread, 0),
    members: rows.map((r) => ({
      memberId: r.memberId,
      email: r.email,
      name: displayName(r.profile),
      unread: r.unread,
      lastAt: r.lastAt ? new Date(r.lastAt).toISOString() : null,
    })),
  };
}

/** Marks read what this member wrote to the agency (404 when not a member); answers how many. */
export async function markReadByStaff(db: Db, memberId: string, now: Date): Promise<number> {
  const [row] = await db.select({ role: members.role }).from(members).where(eq(members.id, memberId)).limit(1);
  if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
  const marked = await db
    .update(directMessages)
    .set({ staffReadAt: now })
    .where(and(eq(directMessages.memberId, memberId), eq(directMessages.direction, 'to_agency'), isNull(directMessages.staffReadAt)))
    .returning({ id: directMessages.id });
  return marked.length;
}

/** The recipient combobox: a few members matching a name or an address, searched in SQL. */
export async function searchMembers(db: Db, staff: Caller, q: string) {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const rows = await db
    .select({ id: members.id, email: members.email, profile: members.profile })
    .from(members)
    .where(
      and(
        eq(members.role, 'member'),
        counselledOnly(staff, members.id),
        sql`(lower(${members.email}) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'firstName', '') || ' ' || coalesce(${members.profile}->>'lastName', '')) LIKE ${pattern} OR lower(coalesce(${members.profile}->>'lastName', '') || ' ' || coalesce(${members.profile}->>'firstName', '')) LIKE ${pattern})`,
      ),
    )
    .orderBy(asc(sql`lower(${members.email})`))
    .limit(MEMBER_SEARCH_LIMIT);
  return rows.map((r) => ({ id: r.id, email: r.email, name: displayName(r.profile) }));
}
