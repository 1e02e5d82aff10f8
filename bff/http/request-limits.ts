import type { MiddlewareHandler } from 'hono';
import { declaredBodyLimit } from '#bff/http/body-limit.ts';
import { ApiError, errorBody } from '#bff/http/errors.ts';
import { isLoopbackRequest } from '#bff/http/rate-limit.ts';

/** The largest body a route reads: the API's (256 kB), the auth service's being smaller still. */
const MAX_REQUEST_BYTES = 256 * 1024;
/** A photo upload's (decision 116) or a termination proof's (decision 189), on their own paths only. */
const MAX_UPLOAD_BYTES = 8 * 1024 * 1024 + 64 * 1024;

/**
 * One body-size limit in front of every route of the app (issue 60): the API, the embedded auth
 * service and the stand-ins alike, whatever they read after it. The API and the auth service keep
 * their tighter limits (256 kB, 8 MB for a photo; 64 kB) behind this one. A body that declares
 * its length is refused from `Content-Length` before a byte is read; a chunked one is counted as
 * it streams. Requests without a body (GET, HEAD) go on untouched.
 */
export function requestBodyLimit(uploadPaths: readonly (string | RegExp)[]): MiddlewareHandler {
  const limitOf = (maxSize: number) =>
    declaredBodyLimit({
      maxSize,
      onError: () => {
        throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Requête trop volumineuse');
      },
    });
  const ordinary = limitOf(MAX_REQUEST_BYTES);
  const upload = limitOf(MAX_UPLOAD_BYTES);
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const path = c.req.path;
    return (uploadPaths.some((p) => (typeof p === 'string' ? p === path : p.test(path))) ? upload : ordinary)(c, next);
  };
}

/**
 * In production the stand-ins (`/_local/*`: checkout, booking, instalments, mailbox) answer only
 * to this machine, as the mailbox always did: with ALLOW_EMBEDDED_IN_PRODUCTION a public
 * `/_local/checkout` would record fake payments for anyone (issue 60). Anything else gets the
 * 404 of an unknown path.
 */
export function localOnlyInProduction(production: boolean): MiddlewareHandler {
  return (c, next) => {
    if (!production || isLoopbackRequest(c)) return next();
    return Promise.resolve(c.json(errorBody('NOT_FOUND', 'Ressource introuvable'), 404));
  };
}
