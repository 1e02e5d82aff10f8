import { vValidator } from '@hono/valibot-validator';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { staffOnly as staffOnlyFor } from '#bff/auth/guards.ts';
import { journalCount, journalRows } from '#bff/privacy/access-journal-rows.ts';
import { validationError } from '#bff/http/errors.ts';
import { textCell } from '#bff/payments/billing.ts';
import { ACCESS_RESOURCE_LABELS } from '#bff/auth/access-log.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { journalFiltersText } from '#machines/staff/journal-filters.ts';

/**
 * The agency's access journal (issue 63 point 5, decision 206): every staff read of members' data,
 * for the administration, newest first, filtered by period (Paris days), colleague, member and
 * what was read, 50 a page; and its CSV export, streamed a page of rows at a time. Reading or
 * exporting the journal is itself recorded (`staffOnly`'s policy).
 */

const PAGE_SIZE = 50;
const EXPORT_CHUNK = 1000;
type AccessResource = keyof typeof ACCESS_RESOURCE_LABELS;
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

const hook = (result: { success: boolean; issues?: readonly v.BaseIssue<unknown>[] }) => {
  if (!result.success) throw validationError(result.issues ?? [], 'Filtres invalides');
};

const parisDateTime = frenchDateFormat({ dateStyle: 'short', timeStyle: 'medium', timeZone: 'Europe/Paris' });

const ACCESS_JOURNAL_CSV_HEADERS = ['Date (heure de Paris)', 'Membre de l’équipe', 'Membre', 'Lecture', 'Filtres'];

export function accessJournalRoutes(deps: ApiDeps) {
  const db = deps.database.db;
  const staffOnly = staffOnlyFor(deps);
  return new Hono()
    .get('/dashboard/access-journal', staffOnly, vValidator('query', JournalQuery, hook), async (c) => {
      const filter = c.req.valid('query');
      const [entries, count] = await Promise.all([
        journalRows(db, filter, PAGE_SIZE, (filter.page - 1) * PAGE_SIZE),
        journalCount(db, filter),
      ]);
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
