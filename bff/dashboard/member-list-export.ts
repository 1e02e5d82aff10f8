import type { Caller } from '#bff/auth/caller.ts';
import { listScope, type MemberListFilter, nameOf } from '#bff/dashboard/member-list.ts';
import { type ExportRow, orderedIds, rowsByIds } from '#bff/dashboard/store/member-list-export.ts';
import type { Db } from '#bff/db/database.ts';
import { textCell } from '#bff/payments/billing.ts';
import { frenchDateFormat, parisDayFormatter } from '#machines/french/dates.ts';
import { regionOfPostcode } from '#machines/matching/regions.ts';
import { ageOnDay } from '#machines/onboarding/age.ts';
import { genderLabels, regionLabels, stateLabel } from '#machines/onboarding/labels.ts';
import { stateOfKey } from '#machines/onboarding/stored-stage.ts';
import { stepOf, topStateOf } from '#machines/onboarding/steps.ts';
import { parisDayOf, parisOffsetMs } from '#machines/paris-time.ts';

/**
 * The member list's CSV export (decisions 210, 216, 225): the filtered list in its order, streamed in
 * one ordered pass, 500 rows at a time, each line written from its row (split from member-list.ts).
 */

/** How many rows of the export are read, and yielded, at a time. */
export const EXPORT_CHUNK = 500;
/** How many chunks' reads are in flight at once (the pool's connections an export holds). */
const READS_AHEAD = 2;
const parisDate = frenchDateFormat({ dateStyle: 'short', timeZone: 'Europe/Paris' });
/** The export's dates: each day written once, kept from one export to the next (decision 225). */
const exportDate = parisDayFormatter(parisDate.format, parisOffsetMs);

const MEMBER_LIST_CSV_HEADERS = [
  'Nom',
  'E-mail',
  'Sexe',
  'Âge',
  'Région',
  'Étape',
  'Conseiller·ère',
  'Étiquettes',
  'Inscription',
  'Dernière activité',
  'Compte',
];

/** The « Étape » cell of each stored stage, written once (decision 225). */
const stepCells = new Map<string, string>();
function stepCell(state: string): string {
  let cell = stepCells.get(state);
  if (cell === undefined) {
    const value = stateOfKey(state);
    const step = stepOf(value);
    cell = textCell(step ? `${step.number}. ${step.title}` : stateLabel(topStateOf(value)));
    stepCells.set(state, cell);
  }
  return cell;
}

/**
 * A line of the export, written from the row itself: the list's item (`listItem`) in words, without
 * the item (decision 225: its objects and ISO dates were most of the export's garbage). Paris's day
 * `today` read once for every age; the same bytes as the item's line
 * (`tests/integration/member-export-bytes.test.ts`).
 */
function csvLine(row: ExportRow, today: string): string {
  const region = row.postcode ? regionOfPostcode(row.postcode) : null;
  const age = row.birthDate ? ageOnDay(row.birthDate, today) : null;
  return [
    textCell(nameOf(row) ?? ''),
    textCell(row.email),
    textCell(genderLabels[row.gender as keyof typeof genderLabels] ?? ''),
    age === null ? '' : String(age),
    textCell(region ? regionLabels[region] : ''),
    // Never NULL here: refreshStaleStages wrote it, or the record is unreadable (the member's file says so).
    stepCell(row.state ?? 'profil'),
    textCell(row.counsellorId ? (row.counsellorName ?? 'Compte supprimé') : 'Sans conseiller'),
    textCell(row.tags ?? ''),
    textCell(exportDate(row.createdAt)),
    textCell(exportDate(row.updatedAt)),
    row.disabled ? 'Désactivé' : 'Actif',
  ].join(';');
}

/**
 * The filtered list as CSV (French headers, `;`, a byte-order mark for spreadsheet software), in one
 * ordered pass: the ordered ids once, then the rows `chunk` ids at a time, each chunk yielded while
 * the next is read (a member erased meanwhile is left out).
 */
export async function* memberListCsv(
  db: Db,
  filter: MemberListFilter,
  staff: Caller,
  now: Date,
  chunk = EXPORT_CHUNK,
): AsyncGenerator<string> {
  yield `\uFEFF${MEMBER_LIST_CSV_HEADERS.join(';')}\r\n`;
  const ids = await orderedIds(db, filter, listScope(staff), now);
  // Paris's day read once for every age (decision 225).
  const today = parisDayOf(now.getTime());
  // The next chunks' rows are asked before this one is written and handed over, two at a time
  // (decision 228): the database's two cores read while this process formats and the client takes
  // the last; at most two chunks wait in memory.
  const read = (start: number) => {
    const rows = rowsByIds(db, ids.slice(start, start + chunk), now);
    // Awaited below; an export cancelled meanwhile leaves it unread, never an unhandled rejection.
    rows.catch(() => undefined);
    return rows;
  };
  const pending: Promise<ExportRow[]>[] = [];
  let asked = 0;
  const askAhead = () => {
    for (; pending.length < READS_AHEAD && asked < ids.length; asked += chunk) pending.push(read(asked));
  };
  askAhead();
  for (let next = pending.shift(); next; next = pending.shift()) {
    const rows = await next;
    askAhead();
    if (rows.length > 0) yield `${rows.map((row) => csvLine(row, today)).join('\r\n')}\r\n`;
  }
}
