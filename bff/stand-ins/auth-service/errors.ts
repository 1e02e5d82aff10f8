import type { Context } from 'hono';
import { log } from '#bff/logger.ts';
import { CODE_DAILY_LIMIT_MESSAGE } from '#machines/auth/credentials.ts';

/**
 * Errors on the wire exactly as GoTrue sends them, so that supabase-js raises the right classes
 * (AuthApiError with `code`, AuthWeakPasswordError, AuthSessionMissingError...).
 */

const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const API_VERSION_2024 = '2024-01-01';

/** A GoTrue `HTTPError`: `{code, message}` (2024-01-01) or `{code, error_code, msg}` (legacy). */
export class AuthApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500,
    readonly code: string,
    message: string,
    /** Only for `weak_password`: the reasons (`length`, `characters`, `pwned`). */
    readonly reasons?: string[],
  ) {
    super(message);
  }
}

/** A GoTrue `OAuthError`: 400 `{error, error_description}` without a code. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
}

/** True when the request asked for the 2024-01-01 API (or later), the only version that changes errors. */
function wants2024Errors(c: Context): boolean {
  const raw = c.req.header(API_VERSION_HEADER)?.trim();
  if (!raw || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) return false;
  const asked = Date.parse(`${raw}T00:00:00Z`);
  return Number.isFinite(asked) && asked >= Date.parse(`${API_VERSION_2024}T00:00:00Z`);
}

/** The error response for anything thrown by a handler; unknown errors are logged and become a 500. */
export function renderAuthError(error: unknown, c: Context): Response {
  const modern = wants2024Errors(c);
  if (modern) c.header(API_VERSION_HEADER, API_VERSION_2024);
  if (error instanceof OAuthError) {
    return c.json({ error: error.error, error_description: error.description }, 400);
  }
  const known =
    error instanceof AuthApiError
      ? error
      : new AuthApiError(500, 'unexpected_failure', 'Unexpected failure, please check server logs for more information');
  if (!(error instanceof AuthApiError))
    log.error('service d’authentification : erreur inattendue', {
      reqId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      err: error,
    });
  const weak = known.code === 'weak_password' ? { weak_password: { reasons: known.reasons ?? [] } } : {};
  if (modern) return c.json({ code: known.code, message: known.message, ...weak }, known.status);
  c.header('x-sb-error-code', known.code);
  return c.json({ code: known.status, error_code: known.code, msg: known.message, ...weak }, known.status);
}

// The errors several endpoints share, with GoTrue's messages.
export const errors = {
  validation: (message: string, status: 400 | 422 = 400) => new AuthApiError(status, 'validation_failed', message),
  invalidEmail: () => new AuthApiError(400, 'validation_failed', 'Unable to validate email address: invalid format'),
  noAuthorization: () => new AuthApiError(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  badJwt: (detail: string) => new AuthApiError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${detail}`),
  userNotFound: () => new AuthApiError(404, 'user_not_found', 'User not found'),
  userBanned: (status: 400 | 403 = 403) => new AuthApiError(status, 'user_banned', 'User is banned'),
  notAdmin: () => new AuthApiError(403, 'not_admin', 'User not allowed'),
  emailExists: () => new AuthApiError(422, 'email_exists', 'A user with this email address has already been registered'),
  overRequestRateLimit: () => new AuthApiError(429, 'over_request_rate_limit', 'Request rate limit reached'),
  overEmailSendRateLimit: () => new AuthApiError(429, 'over_email_send_rate_limit', 'email rate limit exceeded'),
  /** Not a GoTrue code: the daily ceiling of six-digit codes (code-caps.ts), said in French to the person. */
  overCodeDailyLimit: () => new AuthApiError(429, 'over_code_daily_limit', CODE_DAILY_LIMIT_MESSAGE),
};
