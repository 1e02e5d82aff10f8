import { vValidator } from '@hono/valibot-validator';
import { and, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffName } from '#bff/members/staff-names.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { type AccessResource, accessLog } from '#bff/db/access-log-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { validationError } from '#bff/http/errors.ts';
import { textCell } from '#bff/payments/billing.ts';
import { ACCESS_RESOURCE_LABELS } from '#bff/auth/access-log.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { journalFiltersText } from '#machines/staff/journal-filters.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/**
 * The agency's access journal (issue 63 point 5, decision 206): every staff read of members' data,
 * for the administration, newest first, filtered by period (Paris days), colleague, member and
 * what was read, 50 a page; and its CSV export, streamed a page of rows at a time. Reading or
 * exporting the journal is itself recorded (`staffOnly`'s policy).
 */

const PAGE_SIZE = 50;
const EXPORT_CHUNK = 1000;
const RESOURCES = Object.keys(ACCESS_RESOURCE_LABELS) as [AccessResource, ...AccessResource[]];
const DAY = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Date invalide : AAAA-MM-JJ.'),
  v.check((day) => {
    const ms = Date.parse(`${day}T12:00:00Z`);
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === day && day >= '2000-01-01' && day <= '2999-12-31';
  }, 'Cette date n’existe pas.'),
);
const UUID = v.pipe(v.string(), v.uuid('Identifiant invalide'));

const JournalQuery = v.object({
  du: v.optional(DAY),
  au: v.optional(DAY),
  equipe: v.optional(UUID),
  membre: v.optional(UUID),
  quoi: v.optional(v.picklist(RESOURCES, 'Type de lecture inconnu.')),
  page: v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/, 'Page invalide.'), v.transform(Number)), '1'),
});
type JournalFilter = v.InferOutput<typeof JournalQuery>;

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Filtres invalides');
};

const parisDateTime = frenchDateFormat({ dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Paris' });
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

async function journalRows(db: Db, filter: JournalFilter, limit: number, offset: number) {
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

const ACCESS_JOURNAL_CSV_HEADERS = ['Date (heure de Paris)', 'Membre de l’équipe', 'Membre', 'Lecture', 'Filtres'];

export function accessJournalRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  return new Hono()
    .get('/dashboard/access-journal', staffOnly, vValidator('query', JournalQuery, hook), async (c) => {
      const filter = c.req.valid('query');
      const [entries, [total]] = await Promise.all([
        journalRows(db, filter, PAGE_SIZE, (filter.page - 1) * PAGE_SIZE),
        db.select({ n: sql<number>`count(*)::int` }).from(accessLog).where(conditions(filter)),
      ]);
      const count = total?.n ?? 0;
      c.header('Cache-Control', 'private, no-store');
      return c.json(
        {
          entries,
          total: count,
          page: filter.page,
          perPage: PAGE_SIZE,
          pageCount: Math.max(1, Math.ceil(count / PAGE_SIZE)),
          resources: RESOURCES.map((id) => ({ id, label: ACCESS_RESOURCE_LABELS[id] })),
        },
        200,
      );
    })
    .get('/dashboard/access-journal/export', staffOnly, vValidator('query', JournalQuery, hook), (c) => {
      const filter = c.req.valid('query');
      const day = deps.clock.now().toISOString().slice(0, 10);
      c.header('Content-Type', 'text/csv; charset=utf-8');
      c.header('Content-Disposition', `attachment; filename="journal-des-acces-${day}.csv"`);
      c.header('Cache-Control', 'private, no-store');
      c.header('X-Content-Type-Options', 'nosniff');
      // Streamed a thousand rows at a time: the journal of a year never sits whole in memory.
      return stream(c, async (out) => {
        await out.write(`\uFEFF${ACCESS_JOURNAL_CSV_HEADERS.join(';')}\r\n`);
        for (let offset = 0; ; offset += EXPORT_CHUNK) {
          const rows = await journalRows(db, filter, EXPORT_CHUNK, offset);
          if (rows.length > 0)
            await out.write(
              `${rows
                .map((r) =>
                  [
                    textCell(parisDateTime.format(new Date(r.at))),
                    textCell(r.staff.name),
                    textCell(r.member?.name ?? '—'),
                    textCell(r.label),
                    textCell(r.detail ? journalFiltersText(r.detail) : ''),
                  ].join(';'),
                )
                .join('\r\n')}\r\n`,
            );
          if (rows.length < EXPORT_CHUNK) break;
        }
      });
    });
}
