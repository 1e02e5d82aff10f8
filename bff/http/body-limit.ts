import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * Hono's `bodyLimit`, settled from `Content-Length` when the request declares its length and is
 * not chunked, as `bodyLimit` does itself, but before it reads `c.req.raw.body`: under
 * @hono/node-server that read builds a whole WHATWG Request with a web stream over Node's, and
 * every later read of the body then takes that slower way instead of reading Node's stream
 * (an abort controller, a ReadableStream and undici's body extraction per request). Node's HTTP
 * parser never delivers more bytes than `Content-Length` says. A chunked body (no declared
 * length) is counted by `bodyLimit` as it streams, and refused past `maxSize`.
 */
export function declaredBodyLimit(options: { maxSize: number; onError: (c: Context) => never }): MiddlewareHandler {
  const streaming = bodyLimit(options);
  return (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number.parseInt(declared, 10) > options.maxSize ? options.onError(c) : next();
    }
    return streaming(c, next);
  };
}
