import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import * as v from 'valibot';
import { ACCESS_RESOURCE_LABELS } from '#bff/auth/access-log.ts';
import { type AccessResource, accessLog } from '#bff/db/access-log-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/**
 * The rows of the agency's access journal (issue 63 point 5, decision 206), for its page and its
 * CSV export (`api/access-journal.ts` validates the filters): newest first, the colleagues named
 * in a read's filters by their names.
 */

/** The journal's filters, validated: a period of Paris days (AAAA-MM-JJ, `au` inclusive), a colleague, a member, what was read. */
export interface JournalFilter {
  du?: string | undefined;
  au?: string | undefined;
  equipe?: string | undefined;
  membre?: string | undefined;
  quoi?: AccessResource | undefined;
}

const UUID = v.pipe(v.string(), v.uuid());
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

export async function journalRows(db: Db, filter: JournalFilter, limit: number, offset: number) {
  const rows = await db
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
  const names = await staffNamesIn(
    db,
    rows.map((r) => r.detail),
  );
  return rows.map((r) => {
    const name = [r.memberFirstName, r.memberLastName].filter((s) => typeof s === 'string' && s.trim() !== '').join(' ');
    return {
      id: r.id,
      at: r.at.toISOString(),
      staff: { id: r.staffId, name: r.staffName ?? r.staffEmail ?? 'Compte supprimé' },
      member: r.memberId ? { id: r.memberId, name: name || r.memberEmail || 'Compte supprimé' } : null,
      resource: r.resource,
      label: ACCESS_RESOURCE_LABELS[r.resource],
      detail: r.detail ? detailWithNames(r.detail, names) : null,
    };
  });
}

/** The filters that name a colleague by id (the member list's counsellor, the leads' assignee, the journal's colleague). */
const STAFF_FILTERS = ['counsellor', 'assignee', 'equipe'];

/** The colleagues named by id in these filters, by their names (decision 210): staff read names, never ids. */
async function staffNamesIn(db: Db, details: readonly (string | null)[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const detail of details) {
    if (!detail) continue;
    for (const [key, value] of new URLSearchParams(detail))
      if (STAFF_FILTERS.includes(key) && v.is(UUID, value)) ids.add(value.toLowerCase());
  }
  if (ids.size === 0) return new Map();
  const rows = await db
    .select({ id: members.id, email: members.email, onboarding: members.onboarding })
    .from(members)
    .where(and(eq(members.role, 'staff'), inArray(members.id, [...ids])));
  return new Map(rows.map((r) => [r.id, staffName(r)]));
}

function detailWithNames(detail: string, names: Map<string, string>): string {
  if (names.size === 0) return detail;
  const params = new URLSearchParams(detail);
  for (const key of STAFF_FILTERS) {
    const value = params.get(key)?.toLowerCase();
    const name = value ? names.get(value) : undefined;
    if (name) params.set(key, name);
  }
  return params.toString();
}

/** How many reads the filters keep. */
export async function journalCount(db: Db, filter: JournalFilter): Promise<number> {
  const [total] = await db.select({ n: sql<number>`count(*)::int` }).from(accessLog).where(conditions(filter));
  return total?.n ?? 0;
}
