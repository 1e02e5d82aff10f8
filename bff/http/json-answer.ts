import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** Contexts on which headers were prepared with `c.header()` through `prepareHeader`. */
const prepared = new WeakSet<Context>();

/**
 * `c.header()` for code that runs before a route answers with `jsonAnswer` (the session's
 * cookie writer): the header is kept on the answer.
 */
export function prepareHeader(c: Context, name: string, value: string, options?: { append: boolean }) {
  prepared.add(c);
  c.header(name, value, options);
}

/**
 * A JSON answer from a body already serialised (decision 093). Hono's `c.json` puts two headers or
 * more in a WHATWG `Headers`, which is validated, then sorted again when @hono/node-server copies
 * it to Node's response; a Response whose headers are a plain object is written by
 * @hono/node-server as it is. When headers were prepared on the context (a refreshed session's
 * cookies, `prepareHeader`), the answer goes through the context so that they are kept.
 */
export function jsonAnswer(c: Context, json: string, status: ContentfulStatusCode, headers: Record<string, string>): Response {
  if (prepared.has(c)) {
    for (const [name, value] of Object.entries(headers)) c.header(name, value);
    c.header('Content-Type', 'application/json');
    return c.body(json, status);
  }
  return new Response(json, { status, headers: { 'Content-Type': 'application/json', ...headers } });
}
