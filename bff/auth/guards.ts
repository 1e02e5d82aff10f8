import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { Database } from '#bff/db/database.ts';
import { fastVerifiedClaims, knownClaims } from '#bff/auth/access-token.ts';
import { type AuthConnection, requestClient } from '#bff/auth/supabase.ts';
import { ApiError } from '#bff/http/errors.ts';
import { rawHeader } from '#bff/http/raw-header.ts';
import { type CachedMember, cachedMember, keptMember } from '#bff/members/member-cache.ts';
import type { MemberRow } from '#bff/members/members.ts';

/** Who is calling, as proven by a verified access token and the member record. */
export interface Caller {
  id: string;
  email: string;
  role: 'homme' | 'femme' | 'staff';
  aal: 'aal1' | 'aal2';
  sessionId: string;
  /** The member row, shared by concurrent requests through the member cache: read-only. */
  member: Readonly<MemberRow>;
  /** Set while matchmaking is paused by a withdrawn sensitive-data consent (decision 070). */
  matchmakingPausedAt: Date | null;
}

export interface GuardDeps {
  database: Database;
  auth: AuthConnection;
}

const NOT_SIGNED_IN = () => new ApiError(401, 'UNAUTHENTICATED', 'Vous devez être connecté.');

/**
 * Reads the session cookie, refreshes the tokens when they near expiry (new cookies are written
 * on the response), verifies the access token locally against the JWKS, and loads the member.
 * A disabled account is refused at once, whatever its session, and its cookies are cleared.
 * Returns null when nobody is signed in.
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
    const { data, error } = await supabase.auth.getClaims();
    if (error || !data?.claims) return null;
    claims = data.claims as Record<string, unknown>;
  }
  const id = typeof claims.sub === 'string' ? claims.sub : undefined;
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  if (!id || !sessionId) return null;
  // From this instance's member cache: no round trip while the row is unchanged (decision 090).
  const cached = await cachedMember(deps.database, id);
  if (!cached) return null;
  if (cached.row.disabled) {
    await (supabase ?? requestClient(c, deps.auth)).auth.signOut({ scope: 'local' }).catch(() => {});
    throw new ApiError(403, 'ACCOUNT_DISABLED', 'Ce compte est désactivé. Contactez l’agence.');
  }
  return callerOf(claims, id, sessionId, cached);
}

function callerOf(claims: Record<string, unknown>, id: string, sessionId: string, cached: CachedMember): Caller {
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

/**
 * The caller when everything `authenticate` needs is already in this instance's memory: claims
 * verified for this very Cookie header and needing no refresh, and the member's row kept by the
 * member cache, not disabled. Undefined in every other case (nobody signed in, a refresh, a
 * disabled account, a row not kept): `authenticate` decides then. Synchronous, for Node's fast
 * path (decision 093).
 */
export function knownCaller(incoming: IncomingMessage, deps: GuardDeps): Caller | undefined {
  const claims = knownClaims(rawHeader(incoming, 'cookie'), incoming.socket ?? undefined) as Record<string, unknown> | undefined;
  const id = typeof claims?.sub === 'string' ? claims.sub : undefined;
  const sessionId = typeof claims?.session_id === 'string' ? claims.session_id : undefined;
  if (!claims || !id || !sessionId) return undefined;
  const cached = keptMember(deps.database, id);
  if (!cached || cached.row.disabled) return undefined;
  return callerOf(claims, id, sessionId, cached);
}

/** A signed-in member or staff account; 401 otherwise. */
export async function requireCaller(c: Context, deps: GuardDeps): Promise<Caller> {
  const caller = await authenticate(c, deps);
  if (!caller) throw NOT_SIGNED_IN();
  return caller;
}

/** Staff at aal2 (password + TOTP); 401 when not signed in, 403 otherwise. */
export async function requireStaff(c: Context, deps: GuardDeps): Promise<Caller> {
  const caller = await requireCaller(c, deps);
  if (caller.role !== 'staff') throw new ApiError(403, 'FORBIDDEN', 'Accès réservé à l’équipe de l’agence.');
  if (caller.aal !== 'aal2') throw new ApiError(403, 'MFA_REQUIRED', 'Validez d’abord votre second facteur (code à usage unique).');
  return caller;
}
