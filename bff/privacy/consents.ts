import { createHash } from 'node:crypto';
import type { Db, Transaction } from '#bff/db/database.ts';
import { endIntroductionsOf } from '#bff/introductions/introductions.ts';
import { consentRowsOf, insertConsent, lockMemberAnswers, writeWithdrawnAnswers } from '#bff/privacy/store/consents.ts';
import { SENSITIVE_PROFILE_FIELDS } from '#machines/onboarding/forms.ts';
import { type ConsentKind, consentTexts, consentTextToHash, currentConsentText } from '#machines/privacy/consent-texts.ts';

type Executor = Db | Transaction;

/** SHA-256 (hex) of the exact text shown for a kind's version. */
export function consentTextHash(kind: ConsentKind, version = consentTexts[kind].current): string {
  const text = consentTexts[kind].versions[version];
  if (!text) throw new Error(`unknown consent version ${kind} ${version}`);
  return createHash('sha256').update(consentTextToHash(text), 'utf8').digest('hex');
}

/** Records a consent given (or withdrawn) now, with the current version and its text hash. */
export async function recordConsent(
  db: Executor,
  input: { memberId?: string | null; anonymousId?: string | null; kind: ConsentKind; given: boolean; at: Date },
): Promise<void> {
  const version = currentConsentText(input.kind).version;
  await insertConsent(db, {
    memberId: input.memberId ?? null,
    anonymousId: input.anonymousId ?? null,
    kind: input.kind,
    version,
    textHash: consentTextHash(input.kind, version),
    given: input.given,
    createdAt: input.at,
  });
}

export interface ConsentView {
  id: string;
  kind: ConsentKind;
  version: string;
  textHash: string;
  given: boolean;
  createdAt: string;
}

/**
 * Every consent record of a member: theirs, plus the privacy-policy consent given at the
 * pre-registration made with the same e-mail (recorded with the pre-registration's id as its
 * anonymous id). Oldest first.
 */
export async function consentHistory(db: Executor, memberId: string, email: string): Promise<ConsentView[]> {
  const rows = await consentRowsOf(db, memberId, email);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    version: r.version,
    textHash: r.textHash,
    given: r.given,
    createdAt: r.createdAt.toISOString(),
  }));
}

export interface ConsentStatus {
  kind: ConsentKind;
  title: string;
  /** Given and not withdrawn since. */
  given: boolean;
  version: string;
  /** When it was last given or withdrawn. */
  at: string;
  withdrawable: boolean;
  effect: string;
}

/** The latest state of each kind the member has a record of. */
export function consentStatuses(history: ConsentView[]): ConsentStatus[] {
  const latest = new Map<ConsentKind, ConsentView>();
  for (const entry of history) latest.set(entry.kind, entry);
  return [...latest.values()].map((entry) => ({
    kind: entry.kind,
    title: consentTexts[entry.kind].title,
    given: entry.given,
    version: entry.version,
    at: entry.createdAt,
    withdrawable: consentTexts[entry.kind].withdrawable && entry.given,
    effect: consentTexts[entry.kind].effect,
  }));
}

/** Fields of step 1 and step 2 that reveal religious practice (GDPR art. 9; step 1's list in forms.ts, decision 208). */
export { SENSITIVE_PROFILE_FIELDS };
const SENSITIVE_QUESTIONNAIRE_FIELDS = ['soughtPractice'] as const;

function without(value: unknown, fields: readonly string[]): Record<string, unknown> | null {
  if (value === null || typeof value !== 'object') return null;
  const copy = { ...(value as Record<string, unknown>) };
  for (const field of fields) delete copy[field];
  return copy;
}

/**
 * Withdraws the sensitive-data consent (GDPR art. 7(3), 9(2)(a)): records the withdrawal, removes
 * the religious-practice answers from the active profile and questionnaire (they remain only in
 * the signed contract copy, restricted), and pauses matchmaking. One transaction.
 */
export async function withdrawSensitiveData(db: Db, memberId: string, now: Date): Promise<{ matchmakingPausedAt: string }> {
  return db.transaction(async (tx) => {
    const row = await lockMemberAnswers(tx, memberId);
    if (!row) throw new Error('member missing');
    await recordConsent(tx, { memberId, kind: 'sensitive_data', given: false, at: now });
    // The answers go, from matchmaking too (the school, the hijab and the beard, decisions 208,
    // 212), and matchmaking pauses.
    await writeWithdrawnAnswers(
      tx,
      memberId,
      {
        profile: without(row.profile, SENSITIVE_PROFILE_FIELDS),
        questionnaire: without(row.questionnaire, SENSITIVE_QUESTIONNAIRE_FIELDS),
        version: row.version + 1,
      },
      now,
    );
    // The consent covered the photos and the summary: the introductions end with it (decision 194).
    await endIntroductionsOf(tx, memberId, 'consentement-retire', now);
    return { matchmakingPausedAt: now.toISOString() };
  });
}
