import { type CodeCapReached, type CodeKind, DAY_SECONDS, type DailyCodeCounter } from '#bff/auth/code-cap-hooks.ts';
import type { Clock } from '#bff/clock.ts';
import { memberIdByAddress } from '#bff/auth/store/code-cap-holders.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import type { RateLimiter } from '#bff/http/rate-limit.ts';
import { log } from '#bff/logger.ts';
import { recordDailyCapReached } from '#bff/members/cap-history.ts';

/**
 * The product's side of the embedded auth service's daily ceiling of six-digit codes (decision
 * 188): the counts in the database (rate-limiter-flexible's table, as the contract's signing code,
 * so they hold across restarts and instances), and the line in the member's history that shows
 * staff a ceiling was reached, one a day per kind of code.
 */

/** The history's context per kind of code (their French sentences: machines/onboarding/labels.ts). */
const CODE_CAP_CONTEXTS: Record<CodeKind, string> = {
  recovery: 'recovery_code_cap',
  signup: 'signup_code_cap',
  invite: 'invite_code_cap',
  email_change: 'email_change_code_cap',
  reauthentication: 'reauthentication_code_cap',
};

/** The day's counts in the product database (`rate_limits`), keyed by kind and address. */
export function databaseCodeCounter(rateLimit: RateLimiter): DailyCodeCounter {
  return {
    async take(key, points, use) {
      try {
        await rateLimit({ name: `auth-code-${use}`, points, durationSeconds: DAY_SECONDS }, key);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 429) return false;
        throw error;
      }
    },
  };
}

/** Writes the ceiling reached in the history of the member (or staff member) holding the address, if any. */
export async function recordCodeCapReached(db: Db, clock: Clock, event: CodeCapReached): Promise<void> {
  const holderId = await memberIdByAddress(db, event.email);
  if (holderId === undefined) return;
  const written = await recordDailyCapReached(db, clock.now(), {
    memberId: holderId,
    context: CODE_CAP_CONTEXTS[event.kind],
    event: 'CODE_CAP',
    payload: { kind: event.kind, reached: event.use === 'mailed' ? 'codes' : 'tries' },
  });
  if (written) log.warn('compte : plafond quotidien de codes atteint, inscrit à l’historique', { memberId: holderId, kind: event.kind });
}
