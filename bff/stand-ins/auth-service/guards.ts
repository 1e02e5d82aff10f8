import type { Context } from 'hono';
import { errors as joseErrors, type JWTPayload } from 'jose';
import type { AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { bearerToken } from '#bff/stand-ins/auth-service/request.ts';
import type { SessionRow } from '#bff/stand-ins/auth-service/store/schema.ts';
import { sessionById } from '#bff/stand-ins/auth-service/store/sessions.ts';
import type { UserRecord } from '#bff/stand-ins/auth-service/serialize.ts';
import { findUserById, isBanned, isUuid, recordOf } from '#bff/stand-ins/auth-service/users.ts';

/** JWT roles allowed on /admin (GOTRUE_JWT_ADMIN_ROLES default). */
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export interface Authenticated {
  user: UserRecord;
  session: SessionRow;
  claims: JWTPayload;
}

async function verifiedClaims(deps: AuthDeps, c: Context): Promise<JWTPayload> {
  const token = bearerToken(c);
  if (!token) throw errors.noAuthorization();
  try {
    return await deps.key.verify(token);
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw errors.badJwt('token has invalid claims: token is expired');
    throw errors.badJwt('signature is invalid');
  }
}

/**
 * A user call (auth.go requireAuthentication): a valid, unexpired token of ours, naming a user
 * that exists and is not banned, and a session that still exists.
 */
export async function authenticate(deps: AuthDeps, c: Context): Promise<Authenticated> {
  const claims = await verifiedClaims(deps, c);
  if (typeof claims.sub !== 'string' || !isUuid(claims.sub)) throw new AuthApiError(403, 'bad_jwt', 'invalid claim: missing sub claim');
  const row = await findUserById(deps.db, claims.sub);
  if (!row || row.deletedAt) throw new AuthApiError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  const sessionId = claims.session_id;
  if (typeof sessionId !== 'string' || !isUuid(sessionId)) {
    throw new AuthApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  const session = await sessionById(deps.db, sessionId);
  if (!session || session.userId !== row.id) {
    throw new AuthApiError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  if (isBanned(row, deps.clock.now())) throw errors.userBanned(403);
  return { user: await recordOf(deps.db, row), session, claims };
}

/** An admin call: a valid JWT whose role is an admin role (the service-role key), else 403 not_admin. */
export async function requireAdmin(deps: AuthDeps, c: Context): Promise<void> {
  const claims = await verifiedClaims(deps, c);
  if (typeof claims.role !== 'string' || !ADMIN_ROLES.has(claims.role)) throw errors.notAdmin();
}
