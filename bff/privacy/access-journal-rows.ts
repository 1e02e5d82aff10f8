import * as v from 'valibot';
import { ACCESS_RESOURCE_LABELS } from '#bff/auth/access-log.ts';
import type { Db } from '#bff/db/database.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { type JournalFilter, accessReadCount, journalPage, staffAccountsIn } from '#bff/privacy/store/access-journal.ts';

/**
 * The rows of the agency's access journal (issue 63 point 5, decision 206), for its page and its
 * CSV export (`api/access-journal.ts` validates the filters): newest first, the colleagues named
 * in a read's filters by their names.
 */

const UUID = v.pipe(v.string(), v.uuid());

export async function journalRows(db: Db, filter: JournalFilter, limit: number, offset: number) {
  const rows = await journalPage(db, filter, limit, offset);
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
  const rows = await staffAccountsIn(db, [...ids]);
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
export function journalCount(db: Db, filter: JournalFilter): Promise<number> {
  return accessReadCount(db, filter);
}
