import * as v from 'valibot';
import type { Caller } from '#bff/auth/caller.ts';
import { staffRoleOfCaller } from '#bff/auth/staff-policy.ts';
import type { Db } from '#bff/db/database.ts';
import {
  defaultDir,
  type ListScope,
  MEMBER_LIST_SORTS,
  type MemberListRow,
  memberListCount,
  memberListRows,
} from '#bff/dashboard/store/member-list.ts';
import { NO_COUNSELLOR, TagSchema } from '#machines/follow-up/follow-up.ts';
import { practiceLevels } from '#machines/matching/match-profile.ts';
import { type HomeRegion, homeRegions, regionOfPostcode } from '#machines/matching/regions.ts';
import { ageOn } from '#machines/onboarding/age.ts';
import { regionLabels } from '#machines/onboarding/labels.ts';
import { stateOfKey } from '#machines/onboarding/stored-stage.ts';
import { stateKey, stepOf, TOP_STATES, topStateOf } from '#machines/onboarding/steps.ts';

/**
 * The staff's member list (issue 63 point 3, issue 64, decision 210): every filter, the order and
 * the page answered by the database over the stored stage (decision 204), a counsellor's list
 * narrowed to their members (decision 206), and the CSV export of the same filtered list streamed
 * in one ordered pass, 500 rows at a time (`member-list-export.ts`). The queries are the store's
 * (`store/member-list.ts`, decision 227): here, the query string's rules, whose members a caller
 * sees, and each line in words.
 *
 * Religious practice (GDPR art. 9) is a filter only over members who gave the sensitive-data
 * consent and still hold the answer (a withdrawal removes it from the profile): it is never a
 * column of the list nor of the export.
 */

const uuidSchema = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));
const intParam = (min: number, max: number, message: string) =>
  v.pipe(
    v.string(message),
    v.regex(/^\d{1,6}$/, message),
    v.transform(Number),
    v.minValue(min, `${message} (au moins ${min})`),
    v.maxValue(max, `${message} (au plus ${max})`),
  );

/** The filters of the list and of its export (every value from the query string). */
const filterEntries = {
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'Recherche trop longue'))),
  step: v.optional(v.picklist(TOP_STATES, 'Étape inconnue')),
  // Staff's follow-up (decision 124): members with this tag; with this counsellor, or with none.
  tag: v.optional(TagSchema),
  counsellor: v.optional(
    v.pipe(
      v.string('Conseiller inconnu'),
      v.check((value) => value === NO_COUNSELLOR || v.is(uuidSchema, value), 'Conseiller inconnu'),
    ),
  ),
  gender: v.optional(v.picklist(['homme', 'femme'] as const, 'Sexe inconnu')),
  ageMin: v.optional(intParam(18, 120, 'Âge minimum invalide')),
  ageMax: v.optional(intParam(18, 120, 'Âge maximum invalide')),
  region: v.optional(v.picklist(homeRegions as [HomeRegion, ...HomeRegion[]], 'Région inconnue')),
  practice: v.optional(v.picklist(practiceLevels as [(typeof practiceLevels)[number]], 'Pratique inconnue')),
  sort: v.optional(v.picklist(MEMBER_LIST_SORTS, 'Tri inconnu'), 'created'),
  dir: v.optional(v.picklist(['asc', 'desc'] as const, 'Ordre inconnu')),
};
const ageRangeCheck = (value: { ageMin?: number; ageMax?: number }) =>
  value.ageMin === undefined || value.ageMax === undefined || value.ageMin <= value.ageMax;

export const MemberListFilterQuery = v.pipe(
  v.object(filterEntries),
  v.check((value) => ageRangeCheck(value), 'L’âge minimum dépasse l’âge maximum'),
);

/** `GET /dashboard/members`: the filters, and the page (20, 50 or 100 a page on screen; any size up to 100). */
export const MemberListQuery = v.pipe(
  v.object({
    ...filterEntries,
    page: v.optional(intParam(1, 100_000, 'Page invalide'), '1'),
    perPage: v.optional(intParam(1, 100, 'Nombre par page invalide'), '20'),
  }),
  v.check((value) => ageRangeCheck(value), 'L’âge minimum dépasse l’âge maximum'),
);

export type MemberListFilter = v.InferOutput<typeof MemberListFilterQuery>;

/** Whose members `staff` lists: the administration the whole agency, a counsellor their own (decision 206). */
export function listScope(staff: Caller): ListScope {
  return { counsellorId: staffRoleOfCaller(staff) === 'administration' ? null : staff.id };
}

export function nameOf(row: Pick<MemberListRow, 'firstName' | 'lastName'>): string | null {
  const parts = [row.firstName, row.lastName].filter((p): p is string => typeof p === 'string' && p.trim() !== '');
  return parts.length > 0 ? parts.join(' ') : null;
}

/** A line of the list: the columns the list reads, the stage computed in SQL, the age and region in words. */
function listItem(row: MemberListRow, now: Date) {
  // Never NULL here: refreshStaleStages wrote it, or the record is unreadable (the member's file says so).
  const value = stateOfKey(row.state ?? 'profil');
  const step = stepOf(value);
  const region = row.postcode ? regionOfPostcode(row.postcode) : null;
  return {
    id: row.id,
    email: row.email,
    name: nameOf(row),
    gender: row.gender,
    age: row.birthDate ? ageOn(row.birthDate, now.getTime()) : null,
    region: region ? { id: region, label: regionLabels[region] } : null,
    state: stateKey(value),
    top: topStateOf(value),
    step: step ? { id: step.id, number: step.number, title: step.title } : null,
    counsellor: row.counsellorId ? { id: row.counsellorId, name: row.counsellorName ?? 'Compte supprimé' } : null,
    tags: row.tags ?? [],
    disabled: row.disabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One page of the list, and how many members the filters give. */
export async function memberListPage(db: Db, query: v.InferOutput<typeof MemberListQuery>, staff: Caller, now: Date) {
  const scope = listScope(staff);
  const [rows, total] = await Promise.all([
    memberListRows(db, query, scope, now, query.perPage, (query.page - 1) * query.perPage),
    memberListCount(db, query, scope, now),
  ]);
  return {
    items: rows.map((row) => listItem(row, now)),
    total,
    page: query.page,
    perPage: query.perPage,
    pageCount: Math.max(1, Math.ceil(total / query.perPage)),
    sort: query.sort,
    dir: query.dir ?? defaultDir(query.sort),
  };
}
