import { Hono } from 'hono';
import { errorBody } from '#bff/http/errors.ts';
import { type SecurityHeaderEntries, securityHeaders } from '#bff/http/security-headers.ts';
import type { SiteFiles } from '#bff/site/site-files.ts';
import { prerenderedPages } from '#bff/site/site-pages.ts';

/** What the gate hands requests to once the product is built: its Hono app. */
export interface Fetchable {
  fetch(request: Request, env?: unknown): Response | Promise<Response>;
}

export interface StartingGateOptions {
  securityHeaders: SecurityHeaderEntries;
  site?: SiteFiles | undefined;
  /** Requests held at most while the product starts (default 1,000); more get a 503. */
  maxWaiting?: number;
  /** How long a request is held before it gets a 503 (default 15 s). */
  maxWaitMs?: number;
}

/**
 * What the server's `fetch` reaches from the moment it listens (decision 091, kept by 104): the
 * server listens before the database is open. Until the product is built, a small Hono app with
 * the same first two middlewares as the product's (prerendered pages, security headers) answers
 * the public pages, and holds every other request in order until `ready` gives the product's app.
 * A request held too long, one past `maxWaiting`, and every held request when the start fails
 * (`fail`) get a 503 in the error shape, never a dropped connection. Then every request goes to
 * the product's app, through its own middleware chain: one request path.
 */
export function startingGate(options: StartingGateOptions) {
  const maxWaiting = options.maxWaiting ?? 1000;
  const maxWaitMs = options.maxWaitMs ?? 15_000;
  let app: Fetchable | undefined;
  let failed = false;
  const waiting = new Set<{ settle: (ready: Fetchable | undefined) => void; timer: NodeJS.Timeout }>();

  const hold = (): Promise<Fetchable | undefined> => {
    if (app || failed || waiting.size >= maxWaiting) return Promise.resolve(app);
    return new Promise((resolve) => {
      const entry = {
        settle: (ready: Fetchable | undefined) => {
          clearTimeout(entry.timer);
          waiting.delete(entry);
          resolve(ready);
        },
        timer: setTimeout(() => entry.settle(undefined), maxWaitMs),
      };
      waiting.add(entry);
    });
  };

  const early = new Hono();
  if (options.site) early.use(prerenderedPages(options.site, options.securityHeaders));
  early.use(securityHeaders(options.securityHeaders));
  early.all('*', async (c) => {
    const ready = await hold();
    if (ready) return ready.fetch(c.req.raw, c.env);
    return c.json(errorBody('SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.'), 503, {
      'Retry-After': '5',
      'Cache-Control': 'no-store',
    });
  });

  return {
    /** For `serve`: the early app until the product is ready, the product's app afterwards. */
    fetch: (request: Request, env?: unknown): Response | Promise<Response> => (app ? app.fetch(request, env) : early.fetch(request, env)),
    /** How many requests are held now (tests read it). */
    get waiting() {
      return waiting.size;
    },
    /** The product is built: held requests go to its app, in their order of arrival. */
    ready(built: Fetchable) {
      app = built;
      for (const entry of [...waiting]) entry.settle(built);
    },
    /** The product could not start: held requests (and later ones) get a 503. */
    fail() {
      failed = true;
      for (const entry of [...waiting]) entry.settle(undefined);
    },
  };
}
