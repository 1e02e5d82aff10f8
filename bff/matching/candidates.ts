import * as v from 'valibot';
import {
  deleteMatchProfile,
  type MatchingExecutor,
  matchProfileSourceRow,
  type MatchProfileSourceRow,
  type ProfileRow,
  profileOf,
  writeMatchProfiles,
} from '#bff/matching/store/match-profiles.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { type MatchProfile, profileFromOnboarding, unavailableReasonOf } from '#machines/matching/match-profile.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';

/**
 * Members' match profiles as stored (issue 22, staff side): `match_profiles` (migrations 0014,
 * 0035, 0049 and 0053), derived from steps 1-2 by `upsertMatchProfile`, read back by the ranking of
 * ranking.ts (which evaluates the criteria of machines/matching/criteria.ts in one SQL statement,
 * decisions 113, 193 and 212).
 */

export {
  type MatchingExecutor,
  matchProfileOf,
  writeMatchProfiles,
} from '#bff/matching/store/match-profiles.ts';

/** What a member's match profile is derived from: the member's row and its two privacy columns. */
export interface MatchProfileSource extends Omit<MatchProfileSourceRow, 'paused_ms' | 'erased_ms'> {
  /** `matchmaking_paused_at` and `erased_at`, in ms (null when not set). */
  pausedMs: number | null;
  erasedMs: number | null;
}

/**
 * The member's match profile from steps 1-2 and their state at `now`, or null when there is none
 * to keep (not a member, erased, steps 1-2 missing or unreadable). Pure: `upsertMatchProfile` and
 * the onboarding event (from the row its UPDATE returned, decision 129) both derive through it.
 */
export function deriveMatchProfile(source: MatchProfileSource, now: number): MatchProfile | null {
  if (source.role !== 'member' || source.erasedMs !== null) return null;
  const derived = profileFromOnboarding({
    memberId: source.id,
    gender: source.gender,
    profile: source.profile,
    questionnaire: source.questionnaire,
  });
  if (!derived) return null;
  const record = v.safeParse(onboardingRecordSchema, source.onboarding);
  if (!record.success) return null;
  const stateValue = stateFromRecord(record.output, now);
  const state = typeof stateValue === 'string' ? stateValue : (Object.keys(stateValue)[0] ?? '');
  // The one end of the term (decision 118): signature + the plan's months, as the chart reads it.
  const contractEndsAt = state === 'membre-actif' || state === 'contrat-termine' ? termEndsAtMs(record.output) : null;
  const unavailableReason = unavailableReasonOf({
    state,
    hasProfile: true,
    sensitiveDataConsentAt: record.output.sensitiveDataConsentAt,
    matchmakingPausedAt: source.pausedMs,
    disabled: source.disabled || record.output.disabled,
    erasedAt: null,
    contractEndsAt,
    now,
  });
  return { ...derived, available: unavailableReason === null, unavailableReason, contractEndsAt };
}

/** Stores a derived profile, or deletes the member's when there is none to keep. */
export async function storeMatchProfile(executor: MatchingExecutor, memberId: string, profile: MatchProfile | null): Promise<void> {
  if (profile) await writeMatchProfiles(executor, [profile]);
  else await deleteMatchProfile(executor, memberId);
}

/** The value of `STORED_MATCH_PROFILE_SQL` (bff/matching/store/match-profiles.ts) (its JSON text; null when the member has none). */
export function matchProfileFromJson(value: unknown): MatchProfile | null {
  const row: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return row && typeof row === 'object' ? profileOf(row as ProfileRow) : null;
}

/** Two profiles say the same (what `writeMatchProfiles` stores): nothing to write. */
export function sameMatchProfile(a: MatchProfile | null, b: MatchProfile | null): boolean {
  if (a === null || b === null) return a === b;
  for (const key of Object.keys(a) as (keyof MatchProfile)[]) {
    const x = a[key];
    const y = b[key];
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((item, i) => item !== y[i])) return false;
    } else if (x !== y) return false;
  }
  return Object.keys(b).length === Object.keys(a).length;
}

/**
 * Derives the member's match profile from steps 1-2 and their state, and stores it (or deletes
 * it when steps 1-2 are missing). To be called after every change of the member's profile,
 * questionnaire, state or consent; the trigger of migration 0014 only ever withdraws a member.
 */
export async function upsertMatchProfile(
  executor: MatchingExecutor,
  memberId: string,
  now: number = Date.now(),
): Promise<MatchProfile | null> {
  const row = await matchProfileSourceRow(executor, memberId);
  const profile = row
    ? deriveMatchProfile(
        {
          ...row,
          pausedMs: row.paused_ms === null ? null : Number(row.paused_ms),
          erasedMs: row.erased_ms === null ? null : Number(row.erased_ms),
        },
        now,
      )
    : null;
  await storeMatchProfile(executor, memberId, profile);
  return profile;
}
