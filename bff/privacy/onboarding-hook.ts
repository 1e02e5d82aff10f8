import type { Transaction } from '#bff/db/database.ts';
import type { members } from '#bff/db/schema.ts';
import { storeSignedContract } from '#bff/privacy/contract-copy.ts';
import { recordConsent } from '#bff/privacy/consents.ts';
import { setMatchmakingPausedAt } from '#bff/privacy/store/member-privacy.ts';
import type { UpdatePayload } from '#machines/onboarding/update-contexts.ts';
import { type AgencyIdentity, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';

/** The identity printed on stored contracts when the caller does not say (the configuration's default). */
const DEFAULT_AGENCY = DEMO_AGENCY_IDENTITY;

/**
 * Called by `applyOnboardingUpdate` inside its transaction, once an update is accepted: records
 * the consents given at that step and stores the signed contract (decision 070).
 * - `profil`: explicit consent to the processing of sensitive data (it also resumes matchmaking
 *   paused by an earlier withdrawal);
 * - `sel_plan` with `renounce: true`: the express request to start early (L221-25);
 * - `contractForm`: acceptance of the contract, its annex and the terms of sale;
 * - `sub_date`: the contract PDF as signed.
 * Answers what it changed on the member's privacy columns (the match profile derives from them).
 */
export async function onboardingPrivacyHook(
  tx: Transaction,
  input: { update: UpdatePayload; row: typeof members.$inferSelect; now: Date; agency?: AgencyIdentity | undefined },
): Promise<{ matchmakingResumed: boolean }> {
  const { update, row, now } = input;
  switch (update.context) {
    case 'profil':
      await recordConsent(tx, { memberId: row.id, kind: 'sensitive_data', given: true, at: now });
      await setMatchmakingPausedAt(tx, row.id, null);
      return { matchmakingResumed: true };
    case 'sel_plan':
      if (update.renounce) await recordConsent(tx, { memberId: row.id, kind: 'early_start', given: true, at: now });
      break;
    case 'contractForm':
      await recordConsent(tx, { memberId: row.id, kind: 'contract_terms', given: true, at: now });
      break;
    case 'sub_date':
      await storeSignedContract(tx, row, { agency: input.agency ?? DEFAULT_AGENCY, now });
      break;
    default:
      break;
  }
  return { matchmakingResumed: false };
}
