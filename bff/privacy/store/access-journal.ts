// The agency's access journal (`access_log`) as read for its page and its CSV export.
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type AccessResource, accessLog } from '#bff/db/access-log-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/** The journal's filters, validated: a period of Paris days (AAAA-MM-JJ, `au` inclusive), a colleague, a member, what was read. */
export interface JournalFilter {
  du?: string | undefined;
  au?: string | undefined;
  equipe?: string | undefined;
  membre?: string | undefined;
  quoi?: AccessResource | undefined;
}

const reader = alias(members, 'reader');

/** The calendar day after `day` (AAAA-MM-JJ). */
function dayAfter(day: string): string {
  return new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

function conditions(filter: JournalFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [
    filter.du ? gte(accessLog.createdAt, new Date(parisDayStartMs(filter.du))) : undefined,
    // `au` inclusive: up to the start of the next Paris day.
    filter.au ? lt(accessLog.createdAt, new Date(parisDayStartMs(dayAfter(filter.au)))) : undefined,
    filter.equipe ? eq(accessLog.staffId, filter.equipe) : undefined,
    filter.membre ? eq(accessLog.memberId, filter.membre) : undefined,
    filter.quoi ? eq(accessLog.resource, filter.quoi) : undefined,
  ];
  return and(...parts);
}

/** A page of the reads the filters keep, newest first, with the reader's and the member's address and name. */
export function journalPage(db: Db, filter: JournalFilter, limit: number, offset: number) {
  return db
    .select({
      id: accessLog.id,
      at: accessLog.createdAt,
      staffId: accessLog.staffId,
      staffName: accessLog.staffName,
      staffEmail: reader.email,
      memberId: accessLog.memberId,
      memberEmail: members.email,
      memberFirstName: sql<string | null>`${members.profile}->>'firstName'`,
      memberLastName: sql<string | null>`${members.profile}->>'lastName'`,
      resource: accessLog.resource,
      detail: accessLog.detail,
    })
    .from(accessLog)
    .leftJoin(reader, eq(reader.id, accessLog.staffId))
    .leftJoin(members, eq(members.id, accessLog.memberId))
    .where(conditions(filter))
    .orderBy(desc(accessLog.createdAt), desc(accessLog.id))
    .limit(limit)
    .offset(offset);
}

/** The staff accounts among these ids, with what names them. */
export function staffAccountsIn(db: Db, ids: string[]) {
  return db
    .select({ id: members.id, email: members.email, onboarding: members.onboarding })
    .from(members)
    .where(and(eq(members.role, 'staff'), inArray(members.id, ids)));
}

/** How many reads the filters keep. */
export async function accessReadCount(db: Db, filter: JournalFilter): Promise<number> {
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(accessLog).where(conditions(filter));
  return total?.n ?? 0;
}
