import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import {
  deleteNeverPropose,
  deleteShortlisted,
  deleteShortlistedPair,
  insertShortlisted,
  memberRoleOf,
  neverProposePairsOf,
  neverProposeReason,
  neverProposeRows,
  peopleRows,
  shortlistCandidateIds,
  shortlistRows,
  upsertNeverPropose,
} from '#bff/matching/store/candidate-lists.ts';
import type { MatchingExecutor } from '#bff/matching/store/match-profiles.ts';
import { NeverProposeBody } from '#machines/introductions/candidate-lists.ts';

/**
 * Staff's candidate lists for a member (issue 62 point 7, decision 201): a shortlist, and the
 * pairs never to propose with their reason. Staff-only; the server enforces the second
 * (`neverProposedWith` in the candidates' exclusions, `neverProposeReasonOf` at the proposal).
 */

const nameOf = (profile: unknown): string | null => {
  const p = profile as { firstName?: unknown; lastName?: unknown } | null;
  const parts = [p?.firstName, p?.lastName].filter((x): x is string => typeof x === 'string' && x.trim() !== '');
  return parts.length > 0 ? parts.join(' ') : null;
};

/** The pair's stored order: the smaller id first. */
const ordered = (a: string, b: string): [string, string] => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? [x, y] : [y, x];
};

/** A member (role member) by id, or 404 in French. */
async function memberOrNotFound(executor: MatchingExecutor, id: string, message = 'Membre introuvable.') {
  const row = await memberRoleOf(executor, id);
  if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', message);
  return row;
}

// ——— Shortlist ———

export interface ShortlistEntry {
  memberId: string;
  name: string | null;
  addedAt: string;
}

export async function shortlistOf(executor: MatchingExecutor, memberId: string): Promise<ShortlistEntry[]> {
  const rows = await shortlistRows(executor, memberId);
  return rows.map((r) => ({ memberId: r.memberId, name: nameOf(r.profile), addedAt: r.addedAt.toISOString() }));
}

export async function shortlistedIds(executor: MatchingExecutor, memberId: string): Promise<Set<string>> {
  const ids = await shortlistCandidateIds(executor, memberId);
  return new Set(ids.map((id) => id.toLowerCase()));
}

/** Adds (idempotent) a candidate to the member's shortlist. */
export async function addToShortlist(db: Db, memberId: string, candidateId: string, staffId: string, now: Date): Promise<void> {
  if (memberId.toLowerCase() === candidateId.toLowerCase())
    throw validationError([], 'Un membre ne peut pas être dans sa propre sélection.');
  await db.transaction(async (tx) => {
    await memberOrNotFound(tx, memberId);
    await memberOrNotFound(tx, candidateId, 'Candidat introuvable.');
    await insertShortlisted(tx, { memberId, candidateId, addedBy: staffId, addedAt: now });
  });
}

export async function removeFromShortlist(db: Db, memberId: string, candidateId: string): Promise<boolean> {
  return deleteShortlisted(db, memberId, candidateId);
}

// ——— Never propose ———

export interface NeverProposeEntry {
  memberId: string;
  name: string | null;
  reason: string;
  createdAt: string;
  createdBy: string | null;
}

export async function neverProposeOf(executor: MatchingExecutor, memberId: string): Promise<NeverProposeEntry[]> {
  const id = memberId.toLowerCase();
  const rows = await neverProposeRows(executor, id);
  const others = rows.map((r) => (r.low.toLowerCase() === id ? r.high : r.low));
  const authors = rows.map((r) => r.createdBy).filter((x): x is string => x !== null);
  const people = [...others, ...authors];
  const profiles = people.length > 0 ? await peopleRows(executor, people) : [];
  const byId = new Map(profiles.map((p) => [p.id.toLowerCase(), p]));
  const staffName = (sid: string | null) => {
    if (!sid) return null;
    const name = (byId.get(sid.toLowerCase())?.onboarding as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' && !name.includes('@') ? name.trim() : null;
  };
  return rows.map((r, i) => ({
    memberId: others[i] as string,
    name: nameOf(byId.get((others[i] as string).toLowerCase())?.profile ?? null),
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    createdBy: staffName(r.createdBy),
  }));
}

/** The members never to be proposed with this one (both ways). */
export async function neverProposedWith(executor: MatchingExecutor, memberId: string): Promise<string[]> {
  const id = memberId.toLowerCase();
  const rows = await neverProposePairsOf(executor, id);
  return rows.map((r) => (r.low.toLowerCase() === id ? r.high : r.low));
}

/** Staff's reason when this pair is never to be proposed, else null. */
export async function neverProposeReasonOf(executor: MatchingExecutor, a: string, b: string): Promise<string | null> {
  const [low, high] = ordered(a, b);
  return neverProposeReason(executor, low, high);
}

/** Records the pair with its reason (a second time: the reason is replaced). The pair also leaves both shortlists. */
export async function addNeverPropose(db: Db, memberId: string, body: unknown, staffId: string, now: Date): Promise<void> {
  const parsed = v.safeParse(NeverProposeBody, body);
  if (!parsed.success) throw validationError(parsed.issues, parsed.issues[0]?.message ?? 'Demande invalide.');
  const { otherId, reason } = parsed.output;
  if (otherId.toLowerCase() === memberId.toLowerCase()) throw validationError([], 'Choisissez une autre personne que le membre lui-même.');
  const [low, high] = ordered(memberId, otherId);
  await db.transaction(async (tx) => {
    await memberOrNotFound(tx, memberId);
    await memberOrNotFound(tx, otherId, 'L’autre membre est introuvable.');
    await upsertNeverPropose(tx, { memberLow: low, memberHigh: high, reason, createdBy: staffId, createdAt: now });
    await deleteShortlistedPair(tx, memberId, otherId);
  });
}

export async function removeNeverPropose(db: Db, memberId: string, otherId: string): Promise<boolean> {
  const [low, high] = ordered(memberId, otherId);
  return deleteNeverPropose(db, low, high);
}
