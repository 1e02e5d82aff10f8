import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { currentLogger } from '#bff/logger.ts';

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id: on its log lines, and in its error answer (body and `X-Request-Id`). */
    requestId: string;
  }
}

/** A request id from our own reverse proxy (nginx's `$request_id`): short and plain, or ignored. */
const FORWARDED_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The request's id, when it went through `requestLog` (undefined in an app built without it). */
export function requestIdOf(c: Context): string | undefined {
  return c.get('requestId');
}

/**
 * The route that answered, as registered (`/api/v1/dashboard/members/:id`) when it has
 * parameters, else the path: never the query string (decision 107).
 */
function loggedPath(c: Context): string {
  const pattern = routePath(c);
  return pattern.includes(':') ? pattern : c.req.path;
}

/**
 * One log line per request (decision 107): id, method, route path, status, duration in ms. Never
 * a header, a cookie, a query string or a body. An error answer (4xx, 5xx) carries the id in
 * `X-Request-Id`, so that a member can quote it; `onApiError` also puts it in the error body.
 * In the one request path (decision 104) it comes after the prerendered pages, which are answered
 * from memory and logged by the reverse proxy.
 */
export function requestLog(options: { trustProxy: number }): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    const forwarded = options.trustProxy ? c.req.header('x-request-id') : undefined;
    const id = forwarded && FORWARDED_ID.test(forwarded) ? forwarded : randomUUID();
    c.set('requestId', id);
    await next();
    const status = c.res.status;
    if (status >= 400) {
      try {
        c.res.headers.set('X-Request-Id', id);
      } catch {
        // An answer with immutable headers (a proxied Response) keeps its own.
      }
    }
    const fields = { reqId: id, method: c.req.method, path: loggedPath(c), status, ms: Math.round((performance.now() - start) * 10) / 10 };
    if (status >= 500) currentLogger().error(fields, 'requête');
    else currentLogger().info(fields, 'requête');
  };
}
