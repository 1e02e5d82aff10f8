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
 * The same, by the request's whole Cookie header: a browser sends the same header until its
 * session changes, and decoding the session cookie (base64 and JSON of a few kB) per request
 * cost more than answering it (decision 090). `until`: when the session needs a refresh.
 */
const byCookieHeader = new Map<string, { claims: JWTPayload; until: number }>();
const storageKeys = new WeakMap<AuthConnection, string>();
/** The last session header seen on each keep-alive connection, with what it proved. */
const bySocket = new WeakMap<object, { header: string; claims: JWTPayload; until: number }>();
const jwksCache = new WeakMap<AuthConnection, { at: number; keys: Promise<KeySet | null> }>();

function storageKeyOf(connection: AuthConnection): string {
  let key = storageKeys.get(connection);
  if (!key) {
    key = `sb-${new URL(connection.url).hostname.split('.')[0]}-auth-token`;
    storageKeys.set(connection, key);
  }
  return key;
}

/** Read from Node's request when served by @hono/node-server: no WHATWG Headers built for it. */
function cookieHeaderOf(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? incoming.headers.cookie : c.req.header('cookie');
}

function remember(cookieHeader: string | undefined, claims: JWTPayload, expiresAt: number | undefined) {
  if (!cookieHeader || typeof claims.exp !== 'number') return;
  if (byCookieHeader.size >= MAX_VERIFIED) byCookieHeader.delete(byCookieHeader.keys().next().value as string);
  byCookieHeader.set(cookieHeader, { claims, until: Math.min(claims.exp, expiresAt ?? claims.exp) - REFRESH_MARGIN_S });
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
 * needs no refresh. `null`: take the supabase-js path.
 */
export async function fastVerifiedClaims(c: Context, connection: AuthConnection): Promise<JWTPayload | 'none' | null> {
  const cookieHeader = cookieHeaderOf(c);
  const known = knownClaims(cookieHeader, (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket);
  if (known) return known;
  return verifiedClaims(cookieHeader, connection);
}

/**
 * The claims this instance already verified for the same Cookie header (on the same keep-alive
 * connection, or any), while the session needs no refresh; undefined otherwise. Synchronous: for
 * Node's fast path (decision 093) as for the first step of `fastVerifiedClaims`.
 */
export function knownClaims(cookieHeader: string | undefined, socket: object | undefined): JWTPayload | undefined {
  if (!cookieHeader) return undefined;
  if (socket) {
    // The same connection usually sends the same header: compared, not hashed (2.6 kB).
    const last = bySocket.get(socket);
    if (last && last.header === cookieHeader && Date.now() / 1000 < last.until) return last.claims;
  }
  const seen = byCookieHeader.get(cookieHeader);
  if (!seen) return undefined;
  if (Date.now() / 1000 >= seen.until) {
    byCookieHeader.delete(cookieHeader);
    return undefined;
  }
  if (socket) bySocket.set(socket, { header: cookieHeader, ...seen });
  return seen.claims;
}

async function verifiedClaims(cookieHeader: string | undefined, connection: AuthConnection): Promise<JWTPayload | 'none' | null> {
  const session = accessTokenFromCookies(cookieHeader, storageKeyOf(connection));
  if (session === 'none' || session === null) return session;
  const { token, expiresAt } = session;
  // supabase-js decides on the session's `expires_at`: refresh (slow path) on the same condition.
  if (expiresAt !== undefined && expiresAt - Date.now() / 1000 < REFRESH_MARGIN_S) return null;
  const known = verified.get(token);
  if (known) {
    if (typeof known.exp === 'number' && known.exp - Date.now() / 1000 >= REFRESH_MARGIN_S) {
      remember(cookieHeader, known, expiresAt);
      return known;
    }
    verified.delete(token);
    return null;
  }
  try {
    const header = decodeProtectedHeader(token);
    if (!header.kid || !header.alg || !ASYMMETRIC.includes(header.alg)) return null;
    const unverified = decodeJwt(token);
    if (typeof unverified.exp !== 'number' || unverified.exp - Date.now() / 1000 < REFRESH_MARGIN_S) return null;
    const keys = await keySet(connection);
    if (!keys) return null;
    const { payload } = await jwtVerify(token, keys, { algorithms: ASYMMETRIC });
    if (verified.size >= MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
    verified.set(token, payload);
    remember(cookieHeader, payload, expiresAt);
    return payload;
  } catch {
    return null;
  }
}
