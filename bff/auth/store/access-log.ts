// The staff access log's rows (decision 107): one per staff read, and the log read back.
import { and, desc, eq, gte, isNull } from 'drizzle-orm';
import { type AccessResource, accessLog } from '#bff/db/access-log-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';

export async function insertAccessLogEntry(db: Db, row: typeof accessLog.$inferInsert): Promise<void> {
  await db.insert(accessLog).values(row);
}

/** A member's log for staff, newest first, with the address of the staff account if it still exists. */
export function accessLogRowsForStaff(db: Db, memberId: string, limit: number) {
  return db
    .select({
      at: accessLog.createdAt,
      staffId: accessLog.staffId,
      staffName: accessLog.staffName,
      staffEmail: members.email,
      resource: accessLog.resource,
    })
    .from(accessLog)
    .leftJoin(members, eq(members.id, accessLog.staffId))
    .where(eq(accessLog.memberId, memberId))
    .orderBy(desc(accessLog.createdAt), desc(accessLog.id))
    .limit(limit);
}

/** A member's log, oldest first: when and what only. */
export function accessLogRowsForMember(db: Db, memberId: string) {
  return db
    .select({ at: accessLog.createdAt, resource: accessLog.resource })
    .from(accessLog)
    .where(eq(accessLog.memberId, memberId))
    .orderBy(accessLog.createdAt, accessLog.id);
}

/** Whether this colleague's agency-wide read of `resource` with this `detail` was recorded since `since`. */
export async function agencyReadRecordedSince(
  db: Db,
  input: { staffId: string; resource: AccessResource; detail: string | null; since: Date },
): Promise<boolean> {
  const { detail } = input;
  const [recent] = await db
    .select({ id: accessLog.id })
    .from(accessLog)
    .where(
      and(
        eq(accessLog.staffId, input.staffId),
        eq(accessLog.resource, input.resource),
        detail === null ? isNull(accessLog.detail) : eq(accessLog.detail, detail),
        isNull(accessLog.memberId),
        gte(accessLog.createdAt, input.since),
      ),
    )
    .limit(1);
  return recent !== undefined;
}
