import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';
import type { AuthConnection } from '#bff/auth/supabase.ts';

/**
 * The fast path of `authenticate` (decision 060): most requests carry an access token that is
 * valid for a while yet. For those, the session cookie is decoded and the token verified here,
 * against a JWKS fetched once and kept (imported keys cached), instead of building a supabase-js
 * client per request that re-imports the public key and re-decodes the cookie on every call —
 * the two biggest costs of an authenticated request in the benchmark.
 *
 * Anything unusual returns `null` and the caller takes the supabase-js path, which stays the
 * authority: a token close to expiry (supabase-js refreshes it and rewrites the cookies), a
 * symmetric or unknown key, a malformed cookie, a failed verification.
 */

/** supabase-js refreshes a session that expires within 90 s (EXPIRY_MARGIN_MS). */
const REFRESH_MARGIN_S = 90;
/** supabase-js keeps a JWKS for 10 minutes (JWKS_TTL). */
const JWKS_TTL_MS = 10 * 60 * 1000;
const ASYMMETRIC = ['ES256', 'ES384', 'RS256', 'RS384', 'RS512', 'EdDSA'];

type KeySet = ReturnType<typeof createLocalJWKSet>;

/**
 * Tokens already verified, with their claims: the same signed string always carries the same
 * claims, so a repeated request skips the ECDSA verification (its next largest cost). Entries are
 * only used while the token needs no refresh; the oldest go first beyond MAX_VERIFIED.
 */
const MAX_VERIFIED = 10_000;
const verified = new Map<string, JWTPayload>();
/**
 * The same, by connection: a browser sends the same Cookie header on every request of a kept-alive
 * connection until its session changes, and decoding the session cookie (base64 and JSON of a few
 * kB) costs more than the rest of an authenticated request. The connection's last header is kept
 * with what its token proves (its claims) and compared whole with the next request's header (a
 * string comparison; a Map keyed by a header of 2 kB hashed it on every request). Whether the
 * session still holds is checked on every request (decision 100). `until`: when the session
 * needs a refresh. Without a connection (an in-process `app.fetch`), the token map above serves.
 */
interface ConnectionSession {
  header: string;
  connection: AuthConnection;
  claims: JWTPayload;
  until: number;
}
const byConnection = new WeakMap<object, ConnectionSession>();
const storageKeys = new WeakMap<AuthConnection, string>();
const jwksCache = new WeakMap<AuthConnection, { at: number; keys: Promise<KeySet | null> }>();

function storageKeyOf(connection: AuthConnection): string {
  let key = storageKeys.get(connection);
  if (!key) {
    key = `sb-${new URL(connection.url).hostname.split('.')[0]}-auth-token`;
    storageKeys.set(connection, key);
  }
  return key;
}

/** Node's request when served by @hono/node-server (its headers are read without building WHATWG Headers). */
function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

function keySet(connection: AuthConnection): Promise<KeySet | null> {
  const cached = jwksCache.get(connection);
  if (cached && Date.now() - cached.at < JWKS_TTL_MS) return cached.keys;
  const keys = (async () => {
    const doFetch = connection.fetch ?? fetch;
    const base = connection.url.replace(/\/+$/, '');
    const response = await doFetch(`${base}/auth/v1/.well-known/jwks.json`, { headers: { apikey: connection.anonKey } });
    if (!response.ok) return null;
    const jwks = (await response.json()) as JSONWebKeySet;
    return Array.isArray(jwks.keys) && jwks.keys.length > 0 ? createLocalJWKSet(jwks) : null;
  })().catch(() => null);
  jwksCache.set(connection, { at: Date.now(), keys });
  // A failed fetch is retried on the next request rather than cached for 10 minutes.
  keys.then((k) => {
    if (!k) jwksCache.delete(connection);
  });
  return keys;
}

/** The session cookie (@supabase/ssr format: possibly chunked `.0`, `.1`…, `base64-` prefix). */
function accessTokenFromCookies(header: string | undefined, key: string): { token: string; expiresAt: number | undefined } | null | 'none' {
  if (!header) return 'none';
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    if (name === key || name.startsWith(`${key}.`)) {
      if (!cookies.has(name)) cookies.set(name, part.slice(index + 1).trim());
    }
  }
  if (cookies.size === 0) return 'none';
  let raw = cookies.get(key);
  if (raw === undefined) {
    const chunks: string[] = [];
    for (let i = 0; cookies.has(`${key}.${i}`); i += 1) chunks.push(cookies.get(`${key}.${i}`) as string);
    if (chunks.length === 0) return null;
    raw = chunks.join('');
  }
  try {
    const text = raw.startsWith('base64-') ? Buffer.from(raw.slice(7), 'base64url').toString('utf8') : decodeURIComponent(raw);
    const session = JSON.parse(text) as { access_token?: unknown; expires_at?: unknown };
    if (typeof session.access_token !== 'string') return null;
    return { token: session.access_token, expiresAt: typeof session.expires_at === 'number' ? session.expires_at : undefined };
  } catch {
    return null;
  }
}

/**
 * `'none'`: no session cookie at all (nobody is signed in). Claims: a verified access token that
 * needs no refresh. `null`: take the supabase-js path. Only the token is verified here: whether
 * its session still exists is `authenticate`'s check, on every request (decision 100).
 */
export async function fastVerifiedClaims(c: Context, connection: AuthConnection): Promise<JWTPayload | 'none' | null> {
  const incoming = incomingOf(c);
  const cookieHeader = incoming ? incoming.headers.cookie : c.req.header('cookie');
  const socket = incoming?.socket;
  const seen = socket ? byConnection.get(socket) : undefined;
  if (seen !== undefined && seen.header === cookieHeader && seen.connection === connection) {
    if (Date.now() / 1000 < seen.until) return seen.claims;
    if (socket) byConnection.delete(socket);
  }
  const proven = await claimsOfCookies(cookieHeader, connection);
  if (proven === 'none' || proven === null) return proven;
  if (socket && cookieHeader !== undefined) byConnection.set(socket, { header: cookieHeader, connection, ...proven });
  return proven.claims;
}

/** The session cookie's token verified, with when it will need a refresh; or 'none' / null as above. */
async function claimsOfCookies(
  cookieHeader: string | undefined,
  connection: AuthConnection,
): Promise<{ claims: JWTPayload; until: number } | 'none' | null> {
  const session = accessTokenFromCookies(cookieHeader, storageKeyOf(connection));
  if (session === 'none' || session === null) return session;
  const { token, expiresAt } = session;
  const now = Date.now() / 1000;
  // supabase-js decides on the session's `expires_at`: refresh (slow path) on the same condition.
  if (expiresAt !== undefined && expiresAt - now < REFRESH_MARGIN_S) return null;
  const proven = (claims: JWTPayload) => ({ claims, until: Math.min(claims.exp as number, expiresAt ?? Infinity) - REFRESH_MARGIN_S });
  const known = verified.get(token);
  if (known) {
    if (typeof known.exp === 'number' && known.exp - now >= REFRESH_MARGIN_S) return proven(known);
    verified.delete(token);
    return null;
  }
  try {
    const header = decodeProtectedHeader(token);
    if (!header.kid || !header.alg || !ASYMMETRIC.includes(header.alg)) return null;
    const unverified = decodeJwt(token);
    if (typeof unverified.exp !== 'number' || unverified.exp - now < REFRESH_MARGIN_S) return null;
    const keys = await keySet(connection);
    if (!keys) return null;
    const { payload } = await jwtVerify(token, keys, { algorithms: ASYMMETRIC });
    if (typeof payload.exp !== 'number') return null;
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
    verified.set(token, payload);
    return proven(payload);
  } catch {
    return null;
  }
}
