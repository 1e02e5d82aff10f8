import type { Context, Env, MiddlewareHandler, Next } from 'hono';
import * as v from 'valibot';
import { ApiError, validationError } from '#bff/http/errors.ts';

const MAX_JSON_BYTES = 64 * 1024;

/** The refusal's headline when the schema fails (« Données invalides » unless a route says otherwise). */
type IssueMessage = string | ((issues: readonly v.BaseIssue<unknown>[]) => string);

/**
 * Reads and validates a JSON body. Wrong content type, malformed JSON, an oversized body or a
 * schema failure all become a 4xx in the API's error shape — never a 500.
 */
export async function readJson<S extends v.GenericSchema>(c: Context, schema: S, message?: IssueMessage): Promise<v.InferOutput<S>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Le corps de la requête doit être du JSON (application/json).');
  }
  const text = await c.req.text();
  if (text.length > MAX_JSON_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Requête trop volumineuse');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'Le corps de la requête n’est pas un JSON valide.');
  }
  const result = v.safeParse(schema, body);
  if (!result.success) {
    throw validationError(result.issues, typeof message === 'function' ? message(result.issues) : message);
  }
  return result.output;
}

/**
 * `readJson` as a route middleware: after the route's guard, the body is read and validated, and
 * the handler gets it from `c.req.valid('json')` (typed for the handler and for the SPA's client).
 * Used in place of Hono's JSON validator, which answers malformed JSON with a generic 400 and
 * validates a body of another content type as `{}`.
 */
export function jsonBody<S extends v.GenericSchema>(
  schema: S,
  message?: IssueMessage,
): MiddlewareHandler<Env, string, { in: { json: v.InferInput<S> }; out: { json: v.InferOutput<S> } }> {
  return async (c, next) => {
    c.req.addValidatedData('json', (await readJson(c, schema, message)) as {});
    await next();
  };
}

/** Validates query parameters with a valibot schema. */
export function readQuery<S extends v.GenericSchema>(c: Context, schema: S): v.InferOutput<S> {
  const result = v.safeParse(schema, c.req.query());
  if (!result.success) throw validationError(result.issues, 'Paramètres invalides');
  return result.output;
}

/**
 * What PostgreSQL cannot store in `text` or `jsonb`: the NUL character, and a UTF-16 surrogate
 * without its pair (not text at all).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what this pattern is for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const invalidText = () => new ApiError(400, 'INVALID_TEXT', 'Le texte envoyé contient des caractères invalides.');

function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) if (UNSTORABLE.test(key) || hasUnstorableText(inner)) return true;
  }
  return false;
}

/**
 * Refuses a query or a JSON body whose strings hold a NUL or an unpaired surrogate (`\u0000`,
 * `\uD800`…): found by the fuzz suite as 500s from PostgreSQL. Runs before every route, and throws
 * the caller's own error (the embedded auth service answers as GoTrue). A body that is not valid
 * JSON is left to the route's own error. `anyBody`: read a body whatever its declared type (the
 * auth service parses every body as JSON), not only an `application/json` one.
 */
export function refuseUnstorableText(refused: () => Error, options: { anyBody?: boolean } = {}): MiddlewareHandler {
  return (c, next) => {
    if (c.req.url.includes('?') && hasUnstorableText(c.req.queries())) {
      throw refused();
    }
    if (
      c.req.method !== 'GET' &&
      c.req.method !== 'HEAD' &&
      (options.anyBody || /^application\/json\b/i.test(c.req.header('content-type') ?? ''))
    ) {
      return refuseMalformedBody(c, next, refused);
    }
    // Not `async`: a request without a body goes on without one more promise in its chain.
    return next();
  };
}

/** The API's refusal: 400 `INVALID_TEXT`, in French. */
export const refuseMalformedText = refuseUnstorableText(invalidText);

async function refuseMalformedBody(c: Context, next: Next, refused: () => Error) {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    return next();
  }
  if (hasUnstorableText(body)) {
    throw refused();
  }
  return next();
}
