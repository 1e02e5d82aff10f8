import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AuthDeps, Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, OAuthError } from '#bff/stand-ins/auth-service/errors.ts';
import type { AmrEntry, SessionRow, UserRow } from '#bff/stand-ins/auth-service/store/schema.ts';
import {
  activeRefreshToken,
  deleteOtherSessions,
  deleteSession,
  deleteUserSessions,
  insertRefreshTokenRow,
  insertSession,
  recordSignIn,
  refreshTokenByHashForUpdate,
  revokeRefreshToken,
  revokeSessionRefreshTokens,
  sessionByIdForUpdate,
  updateSession,
} from '#bff/stand-ins/auth-service/store/sessions.ts';
import { serializeUser, type UserRecord, type WireUser } from '#bff/stand-ins/auth-service/serialize.ts';
import { findUserById, isBanned, recordOf } from '#bff/stand-ins/auth-service/users.ts';

/** Within this many seconds a revoked refresh token may be presented again (supabase CLI default). */
const REFRESH_TOKEN_REUSE_INTERVAL_SECONDS = 10;

const SECOND_FACTOR_METHODS = new Set(['totp', 'mfa/phone', 'mfa/webauthn']);

/** The session body of GoTrue (tokens/service.go AccessTokenResponse). */
export interface AccessTokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: WireUser;
  weak_password?: { message: string; reasons: string[] };
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newRefreshToken(): string {
  return randomBytes(24).toString('base64url');
}

/** aal2 if and only if the session holds a second-factor method (models/sessions.go). */
export function aalOf(amr: AmrEntry[]): 'aal1' | 'aal2' {
  return amr.some((entry) => SECOND_FACTOR_METHODS.has(entry.method)) ? 'aal2' : 'aal1';
}

/** Newest first, one entry per method (the latest). */
export function withAmr(amr: AmrEntry[], entry: AmrEntry): AmrEntry[] {
  return [entry, ...amr.filter((existing) => existing.method !== entry.method)].sort((a, b) => b.timestamp - a.timestamp);
}

async function insertRefreshToken(exec: Executor, session: SessionRow, parent: string | null, now: Date): Promise<string> {
  const token = newRefreshToken();
  await insertRefreshTokenRow(exec, {
    tokenHash: hashRefreshToken(token),
    userId: session.userId,
    sessionId: session.id,
    parent,
    revoked: false,
    createdAt: now,
    updatedAt: now,
  });
  return token;
}

/** Opens a session for a user who just authenticated with `method`, and records the sign-in. */
async function openSession(
  deps: AuthDeps,
  exec: Executor,
  user: UserRow,
  method: string,
  client: ClientInfo,
): Promise<{ session: SessionRow; refreshToken: string }> {
  const now = deps.clock.now();
  const amr: AmrEntry[] = [{ method, timestamp: seconds(now) }];
  const session = await insertSession(exec, {
    id: randomUUID(),
    userId: user.id,
    aal: aalOf(amr),
    amr,
    ip: client.ip || null,
    userAgent: client.userAgent,
    refreshedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  if (!session) throw new Error('embedded_auth.sessions insert returned nothing');
  const refreshToken = await insertRefreshToken(exec, session, null, now);
  await recordSignIn(exec, user.id, now);
  return { session, refreshToken };
}

/** Signs the access token of a session: the contract's claims, `exp` equal to `expires_at`. */
export async function accessTokenResponse(
  deps: AuthDeps,
  record: UserRecord,
  session: SessionRow,
  refreshToken: string,
): Promise<AccessTokenResponse> {
  const iat = seconds(deps.clock.now());
  const exp = iat + deps.config.jwtExpirySeconds;
  const { row } = record;
  const accessToken = await deps.key.sign({
    iss: deps.config.issuer,
    sub: row.id,
    aud: row.aud,
    exp,
    iat,
    email: row.email ?? '',
    phone: row.phone ?? '',
    app_metadata: row.appMetadata,
    user_metadata: row.userMetadata,
    role: row.role,
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    is_anonymous: row.isAnonymous,
  });
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: deps.config.jwtExpirySeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: serializeUser(record),
  };
}

/** Opens a session and answers with it, reading the user back after the sign-in was recorded. */
export async function signIn(
  deps: AuthDeps,
  exec: Executor,
  user: UserRow,
  method: string,
  client: ClientInfo,
): Promise<AccessTokenResponse> {
  const { session, refreshToken } = await openSession(deps, exec, user, method, client);
  const fresh = (await findUserById(exec, user.id)) ?? user;
  return accessTokenResponse(deps, await recordOf(exec, fresh), session, refreshToken);
}

/**
 * Revokes every live refresh token of a session and issues one child of the last, so that the
 * session continues with new tokens (after an MFA upgrade, say).
 */
export async function rotateSessionTokens(exec: Executor, session: SessionRow, now: Date): Promise<string> {
  const active = await activeRefreshToken(exec, session.id);
  await revokeSessionRefreshTokens(exec, session.id, now);
  return insertRefreshToken(exec, session, active?.tokenHash ?? null, now);
}

type RefreshOutcome = { kind: 'issued'; response: AccessTokenResponse } | { kind: 'reused'; sessionId: string };

/**
 * The refresh_token grant with rotation and reuse detection (tokens/service.go): each use
 * revokes the token and issues a child. A revoked token presented again gets the active token
 * when it is that token's parent, a new child within the reuse interval, and otherwise ends the
 * whole session (400 refresh_token_already_used).
 */
export async function refreshGrant(deps: AuthDeps, presented: string, client: ClientInfo): Promise<AccessTokenResponse> {
  if (!presented) throw new OAuthError('invalid_request', 'refresh_token required');
  const tokenHash = hashRefreshToken(presented);
  const outcome = await deps.db.transaction(async (tx): Promise<RefreshOutcome> => {
    const now = deps.clock.now();
    const token = await refreshTokenByHashForUpdate(tx, tokenHash);
    if (!token) throw new AuthApiError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    const user = await findUserById(tx, token.userId);
    if (!user || user.deletedAt) throw new AuthApiError(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
    if (isBanned(user, now)) throw new AuthApiError(400, 'user_banned', 'Invalid Refresh Token: User Banned');
    const session = await sessionByIdForUpdate(tx, token.sessionId);
    if (!session) throw new AuthApiError(400, 'session_not_found', 'Invalid Refresh Token: No Valid Session Found');
    if (session.notAfter && session.notAfter.getTime() < now.getTime()) {
      throw new AuthApiError(400, 'session_expired', 'Invalid Refresh Token: Session Expired');
    }

    let issued: string | undefined;
    if (token.revoked) {
      const active = await activeRefreshToken(tx, session.id);
      if (active && active.parent === token.tokenHash) {
        // The client lost the answer of its last refresh: it gets the token it missed. Only
        // the hash of that token is stored, so a fresh child replaces it.
        await revokeRefreshToken(tx, active.id, now);
        issued = await insertRefreshToken(tx, session, active.tokenHash, now);
      } else if (now.getTime() > token.updatedAt.getTime() + REFRESH_TOKEN_REUSE_INTERVAL_SECONDS * 1000) {
        return { kind: 'reused', sessionId: session.id };
      }
    } else {
      await revokeRefreshToken(tx, token.id, now);
    }
    issued ??= await insertRefreshToken(tx, session, token.tokenHash, now);
    const refreshed = await updateSession(tx, session.id, {
      refreshedAt: now,
      updatedAt: now,
      ip: client.ip || session.ip,
      userAgent: client.userAgent ?? session.userAgent,
    });
    return { kind: 'issued', response: await accessTokenResponse(deps, await recordOf(tx, user), refreshed ?? session, issued) };
  });
  if (outcome.kind === 'issued') return outcome.response;
  // Possible theft: the token was already used outside the reuse interval. The session ends
  // (and with it every refresh and access token it issued) before the error is returned.
  await deleteSession(deps.db, outcome.sessionId);
  throw new AuthApiError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
}

/** Ends sessions of a user: all, all but one, or one. */
export async function endSessions(exec: Executor, userId: string, scope: 'global' | 'others' | 'local', current: string): Promise<void> {
  if (scope === 'global') await deleteUserSessions(exec, userId);
  else if (scope === 'others') await deleteOtherSessions(exec, userId, current);
  else await deleteSession(exec, current);
}
