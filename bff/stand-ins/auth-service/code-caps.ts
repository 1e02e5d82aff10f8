import type { Clock } from '#bff/clock.ts';
import type { AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';
import { errors } from '#bff/stand-ins/auth-service/errors.ts';
import { ServiceLimit } from '#bff/stand-ins/auth-service/rate-limit.ts';
import { log } from '#bff/logger.ts';
import { type CodeCapReached, type CodeKind, type CodeUse, DAY_SECONDS, type DailyCodeCounter } from '#bff/auth/code-cap-hooks.ts';

/**
 * The daily ceiling of the service's six-digit codes (issue 60, point 5; decision 188), as the
 * contract's signing code has one (decision 182): per account and per kind of code, at most
 * `tried` codes checked in 24 hours, right or wrong (`/verify` with a code, `PUT /user` with a
 * nonce), and `mailed` codes sent at the account's own request (reauthentication, e-mail change).
 * The shorter limits (`codeGuesses`, the mail budgets) still apply; this one bounds a whole day,
 * so that a patient guesser gets 15 chances in a million a day instead of hundreds. Links
 * (`token_hash`) are not codes and are not counted: a guesser locks nobody out of a mailed link.
 * Mails anyone may ask for (`/recover`, `/resend`) are not counted either: a daily cap there would
 * let anyone shut a member out of her reset for a day.
 *
 * Counted by address, known or not (before any lookup): the answer says nothing about an account.
 * Refused with 429 `over_code_daily_limit` (not a GoTrue code: GoTrue has no daily ceiling),
 * whose message tells the person, in French, to contact the agency. The product shows it and
 * writes one line a day in the member's history (`reached`). TOTP codes are the authenticator's
 * and not counted here.
 */
export const DEFAULT_DAILY_CODE_CAPS: Record<CodeUse, number> = { mailed: 5, tried: 15 };

export interface CodeCapOptions {
  caps?: Partial<Record<CodeUse, number>>;
  counter?: DailyCodeCounter;
  /** Told when a ceiling refuses a request (to show it to staff); its failures are logged, never thrown. */
  reached?: (event: CodeCapReached) => void | Promise<void>;
}

export interface CodeCaps {
  caps: Record<CodeUse, number>;
  counter: DailyCodeCounter;
  reached(event: CodeCapReached): void;
}

/** Per-instance counts on the service clock (the auth service alone, its tests): a day's window from the first code. */
function memoryCodeCounter(clock: Clock): DailyCodeCounter {
  const limits = new Map<number, ServiceLimit>();
  return {
    take(key, points) {
      let limit = limits.get(points);
      if (!limit) {
        limit = new ServiceLimit(clock, { points, durationSeconds: DAY_SECONDS });
        limits.set(points, limit);
      }
      return limit.take(key);
    },
  };
}

export function createCodeCaps(clock: Clock, options: CodeCapOptions = {}): CodeCaps {
  return {
    caps: { ...DEFAULT_DAILY_CODE_CAPS, ...options.caps },
    counter: options.counter ?? memoryCodeCounter(clock),
    reached(event) {
      log.warn('service d’authentification : plafond quotidien de codes atteint', { kind: event.kind, use: event.use });
      try {
        void Promise.resolve(options.reached?.(event)).catch((error: unknown) =>
          log.error('service d’authentification : plafond de codes non signalé', { err: error }),
        );
      } catch (error) {
        log.error('service d’authentification : plafond de codes non signalé', { err: error });
      }
    },
  };
}

/** The kind of code a `/verify` type checks. */
export function codeKindOf(type: string): CodeKind {
  if (type === 'signup') return 'signup';
  if (type === 'invite') return 'invite';
  if (type === 'email_change') return 'email_change';
  return 'recovery';
}

/**
 * Takes one code of `kind` for `email` from the day's ceiling, or refuses with 429
 * `over_code_daily_limit`. Call it outside any transaction (the product's counter is in the
 * database, which PGlite serves one statement at a time).
 */
export async function withinDailyCodeCap(deps: AuthDeps, kind: CodeKind, use: CodeUse, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  if (await deps.codeCaps.counter.take(`${kind}:${address}`, deps.codeCaps.caps[use], use)) return;
  deps.codeCaps.reached({ kind, use, email: address });
  throw errors.overCodeDailyLimit();
}
