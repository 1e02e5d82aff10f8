import type { ApiDeps } from '#bff/api/deps.ts';
import { ApiError } from '#bff/http/errors.ts';
import { type Limit, LIMITS } from '#bff/http/rate-limit.ts';
import { log } from '#bff/logger.ts';
import { recordDailyCapReached } from '#bff/members/cap-history.ts';

/** The member's event-log context of a reached daily cap (its line in the staff's history). */
const SIGNATURE_CODE_CAP_CONTEXT = 'signature_code_cap';

const SIGNATURE_CODE_CAP_MESSAGE =
  'Vous avez atteint le nombre maximal de codes de signature pour aujourd’hui. Contactez l’agence\u00a0: elle vous aidera à signer votre contrat.';

/**
 * The daily ceiling of the contract's signing code (issue 60, decision 182): at most
 * `contractCodesPerDay` codes mailed and `contractTriesPerDay` codes tried per member in 24 hours
 * (5 tries per code and a code a minute allowed about 7 200 guesses a day against six digits).
 * Past it the member is told, in French, to contact the agency, and the member's history shows
 * it to staff (one line a day).
 */
export async function withinSignatureCodeCap(deps: ApiDeps, memberId: string, limit: Limit): Promise<void> {
  try {
    await deps.rateLimit(limit, memberId);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 429) throw error;
    await recordCapReached(deps, memberId, limit === LIMITS.contractCodesPerDay ? 'codes' : 'tries').catch((failure: unknown) =>
      log.error('contrat : plafond de codes non inscrit à l’historique', { memberId, err: failure }),
    );
    throw new ApiError(429, 'SIGNATURE_CODE_DAILY_LIMIT', SIGNATURE_CODE_CAP_MESSAGE, {
      retryAfter: typeof error.extra.retryAfter === 'number' ? error.extra.retryAfter : 3600,
    });
  }
}

async function recordCapReached(deps: ApiDeps, memberId: string, reached: 'codes' | 'tries'): Promise<void> {
  await recordDailyCapReached(deps.database.db, deps.clock.now(), {
    memberId,
    context: SIGNATURE_CODE_CAP_CONTEXT,
    event: 'SIGNATURE_CODE_CAP',
    payload: { reached },
  });
  log.warn('contrat : plafond quotidien de codes de signature atteint', { memberId, reached });
}
