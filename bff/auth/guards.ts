import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Database } from '#bff/db/database.ts';
import { fastVerifiedClaims } from '#bff/auth/access-token.ts';
import { type AuthConnection, requestClient } from '#bff/auth/supabase.ts';
import type { Caller } from '#bff/auth/caller.ts';
import { ApiError } from '#bff/http/errors.ts';
import { enforceStaffPolicy, recordPolicyRead } from '#bff/auth/staff-policy.ts';
import { type CachedMember, cachedMember } from '#bff/auth/member-cache.ts';

export type { Caller } from '#bff/auth/caller.ts';

export interface GuardDeps {
  database: Database;
  auth: AuthConnection;
  /** The agency's clock, for the access log's instants (the system's when absent). */
  clock?: { now(): Date };
}

const NOT_SIGNED_IN = () => new ApiError(401, 'UNAUTHENTICATED', 'Vous devez être connecté.');
/** A disabled account is signed out: 401 like any ended session, with the agency's message. */
const DISABLED = () => new ApiError(401, 'UNAUTHENTICATED', 'Ce compte est désactivé. Contactez l’agence.');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one way a request is recognised (decision 100). Reads the session cookie, refreshes the
 * tokens when they near expiry (new cookies are written on the response), verifies the access
 * token locally against the JWKS, and loads the member with its live sessions through the member
 * cache. The token's session must still exist, at the level the token claims: a session ended
 * anywhere (sign-out, password reset, ban, erasure) or lowered (a removed second factor) is
 * refused on every instance as soon as its trigger's notification arrives. A disabled account
 * is refused whatever its session, and its cookies are cleared (401). Any token that is not
 * valid gives null, never an error. Returns null when nobody is signed in.
 */
export async function authenticate(c: Context, deps: GuardDeps): Promise<Caller | null> {
  // Fast path (decision 060): a token valid for a while yet, verified against the cached JWKS.
  const fast = await fastVerifiedClaims(c, deps.auth);
  if (fast === 'none') return null;
  let supabase: ReturnType<typeof requestClient> | undefined;
  let claims: Record<string, unknown>;
  if (fast) claims = fast as Record<string, unknown>;
  else {
    supabase = requestClient(c, deps.auth);
    // supabase-js rejects some malformed tokens by throwing rather than returning an error.
    const result = await supabase.auth.getClaims().catch(() => undefined);
    if (!result || result.error || !result.data?.claims) return null;
    claims = result.data.claims as Record<string, unknown>;
  }
  // The cache and the triggers' notifications name members by their lower-case uuid.
  const id = typeof claims.sub === 'string' && UUID.test(claims.sub) ? claims.sub.toLowerCase() : undefined;
  const sessionId = typeof claims.session_id === 'string' && UUID.test(claims.session_id) ? claims.session_id.toLowerCase() : undefined;
  if (!id || !sessionId) return null;
  // From this instance's member cache: no round trip while the member and its sessions are
  // unchanged (decisions 090 and 100).
  let cached = await cachedMember(deps.database, id, deps.auth.sessionsTable);
  // A session this instance has not heard of yet (opened or raised to aal2 a moment ago, on
  // another instance or by a hosted GoTrue, its notification still on the way): read once more
  // from the database before refusing. An ended session is absent there too.
  if (cached && !cached.row.disabled && !sessionHolds(cached, sessionId, claims.aal)) {
    cached = await cachedMember(deps.database, id, deps.auth.sessionsTable, true);
  }
  if (!cached) return null;
  if (cached.row.disabled) {
    await (supabase ?? requestClient(c, deps.auth)).auth.signOut({ scope: 'local' }).catch(() => {});
    throw DISABLED();
  }
  // Ended (signed out, reset, banned, erased), or lowered since the token was issued.
  if (!sessionHolds(cached, sessionId, claims.aal)) return null;
  const member = cached.row;
  return {
    id,
    email: member.email,
    role: member.role === 'staff' ? 'staff' : (member.gender as 'homme' | 'femme'),
    aal: claims.aal === 'aal2' ? 'aal2' : 'aal1',
    sessionId,
    member,
    matchmakingPausedAt: cached.matchmakingPausedAt,
  };
}

/** The token's session is live, at least at the level the token claims. */
function sessionHolds(cached: CachedMember, sessionId: string, claimed: unknown): boolean {
  const level = Object.hasOwn(cached.sessions, sessionId) ? cached.sessions[sessionId] : undefined;
  return level !== undefined && (claimed !== 'aal2' || level === 'aal2');
}

/** A signed-in member or staff account; 401 otherwise. */
export async function requireCaller(c: Context, deps: GuardDeps): Promise<Caller> {
  const caller = await authenticate(c, deps);
  if (!caller) throw NOT_SIGNED_IN();
  return caller;
}

/** A signed-in member (staff have the dashboard routes); 401 when not signed in, 403 for staff. */
export async function requireMember(c: Context, deps: GuardDeps): Promise<Caller> {
  const caller = await requireCaller(c, deps);
  if (caller.role === 'staff') throw new ApiError(403, 'FORBIDDEN', 'Cet espace est réservé aux membres.');
  return caller;
}

/**
 * Staff at aal2 (password + TOTP); 401 when not signed in, 403 otherwise. Routes use `staffOnly`,
 * which adds the role, the counsellor's scope and the access log (decision 206).
 */
async function requireStaff(c: Context, deps: GuardDeps): Promise<Caller> {
  const caller = await requireCaller(c, deps);
  if (caller.role !== 'staff') throw new ApiError(403, 'FORBIDDEN', 'Accès réservé à l’équipe de l’agence.');
  if (caller.aal !== 'aal2') throw new ApiError(403, 'MFA_REQUIRED', 'Validez d’abord votre second facteur (code à usage unique).');
  return caller;
}

/**
 * Staff at aal2 before anything else runs (validation included, so an anonymous or member caller
 * never learns more than 401/403); the caller is kept as `c.var.staff`.
 */
export function staffOnly(deps: GuardDeps) {
  return createMiddleware<{ Variables: { staff: Caller } }>(async (c, next) => {
    const staff = await requireStaff(c, deps);
    // The role and the member's counsellor (decision 206), then the read recorded once answered.
    const policy = await enforceStaffPolicy(c, deps.database.db, staff);
    c.set('staff', staff);
    await next();
    if (policy.reads && c.res.status < 300) await recordPolicyRead(c, deps.database.db, staff, policy, deps.clock?.now() ?? new Date());
  });
}

/**
 * A signed-in member before anything else runs (validation included: without a session, any body
 * answers 401); the caller is kept as `c.var.member`.
 */
export function memberOnly(deps: GuardDeps) {
  return createMiddleware<{ Variables: { member: Caller } }>(async (c, next) => {
    c.set('member', await requireMember(c, deps));
    await next();
  });
}

/** Any live session (member or staff, any assurance level), checked before the body is read; kept as `c.var.caller`. */
export function signedInOnly(deps: GuardDeps) {
  return createMiddleware<{ Variables: { caller: Caller } }>(async (c, next) => {
    c.set('caller', await requireCaller(c, deps));
    await next();
  });
}
