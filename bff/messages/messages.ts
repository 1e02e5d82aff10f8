import type { Caller } from '#bff/auth/caller.ts';
import { counselledOnly } from '#bff/auth/staff-policy.ts';
import type { Db } from '#bff/db/database.ts';
import type { directMessages } from '#bff/db/messages-schema.ts';
import { ApiError } from '#bff/http/errors.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import {
  accountEmails,
  conversationMember,
  conversationOf,
  insertDirectMessage,
  type MemberScope,
  markToAgencyRead,
  markToMemberRead,
  memberRoleOf,
  memberRowById,
  membersMatching,
  setMessageMail,
  staffConversationRows,
  unreadByAgencyRows,
  unreadByMemberCount,
} from '#bff/messages/store/direct-messages.ts';

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
  const inserted = await insertDirectMessage(tx, {
    memberId: input.memberId,
    authorId: input.authorId,
    direction: input.direction,
    subject: input.subject,
    body: input.body,
    createdAt: now,
    // The author's side has read what it wrote.
    ...(input.direction === 'to_member' ? { staffReadAt: now } : { memberReadAt: now }),
  });
  if (!inserted) throw new Error('direct_messages insert returned nothing');
  const mailId = await enqueueMailOnce(tx, input.notice(inserted.id), `message-notice:${inserted.id}`);
  const row = await setMessageMail(tx, inserted.id, mailId);
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
  return conversationOf(db, memberId, CONVERSATION_LIMIT);
}

/** How many of the agency's messages the member has not read. */
export async function memberUnreadCount(db: Db, memberId: string): Promise<number> {
  return (await unreadByMemberCount(db, memberId)) ?? 0;
}

/** Marks read what the agency wrote to this member (never another member's, never the agency's side); answers how many. */
export async function markReadByMember(db: Db, memberId: string, now: Date): Promise<number> {
  return markToMemberRead(db, memberId, now);
}

/** The members this colleague sees (a counsellor, theirs), as a condition on a list's member column. */
const scopeOf =
  (staff: Caller): MemberScope =>
  (memberColumn) =>
    counselledOnly(staff, memberColumn);

/** A member's row for a staff message: 404 when the id is not a member's. */
async function messageRecipient(tx: Executor, id: string) {
  const row = await memberRowById(tx, id);
  if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
  return row;
}

/** The staff's conversations (one member's when `memberId` is given), with their authors' addresses. */
export async function staffConversations(db: Db, staff: Caller, memberId: string | undefined) {
  const rows = await staffConversationRows(db, { memberId, scope: scopeOf(staff), limit: CONVERSATION_LIMIT });
  const authorIds = [...new Set(rows.map((r) => r.message.authorId).filter((a): a is string => a !== null))];
  const authors = authorIds.length > 0 ? await accountEmails(db, authorIds) : [];
  const emailOf = new Map(authors.map((a) => [a.id, a.email]));
  // The member of the conversation (the page names them even before a first message).
  const who = memberId ? await conversationMember(db, memberId) : undefined;
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
  const rows = await unreadByAgencyRows(db, scopeOf(staff));
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
  const row = await memberRoleOf(db, memberId);
  if (row?.role !== 'member') throw MEMBER_NOT_FOUND();
  return markToAgencyRead(db, memberId, now);
}

/** The recipient combobox: a few members matching a name or an address, searched in SQL. */
export async function searchMembers(db: Db, staff: Caller, q: string) {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const rows = await membersMatching(db, { pattern, scope: scopeOf(staff), limit: MEMBER_SEARCH_LIMIT });
  return rows.map((r) => ({ id: r.id, email: r.email, name: displayName(r.profile) }));
}
