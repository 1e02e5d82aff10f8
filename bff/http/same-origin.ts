import type { MiddlewareHandler } from 'hono';
import { ApiError } from '#bff/http/errors.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cookie-authenticated writes must come from our own pages: a browser sends `Origin` (and
 * `Sec-Fetch-Site`) on every cross-site POST, so one from another site is refused. Requests
 * without those headers come from servers (webhooks, scripts) and carry no cookie of ours.
 */
export function sameOriginWrites(publicSiteUrl: string, exemptPrefixes: string[] = []): MiddlewareHandler {
  const allowed = new URL(publicSiteUrl).origin;
  // Not `async`: a safe request goes on without one more promise in its chain.
  return (c, next) => {
    if (SAFE.has(c.req.method) || exemptPrefixes.some((p) => c.req.path.startsWith(p))) return next();
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    const own = new URL(c.req.url).origin;
    if (origin !== undefined && origin !== allowed && origin !== own) {
      throw new ApiError(403, 'CROSS_SITE_REQUEST', 'Requête refusée : elle ne vient pas du site de l’agence.');
    }
    if (origin === undefined && site !== undefined && site !== 'same-origin' && site !== 'none') {
      throw new ApiError(403, 'CROSS_SITE_REQUEST', 'Requête refusée : elle ne vient pas du site de l’agence.');
    }
    return next();
  };
}
