import type { Context, MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { ApiError, validationError } from '#bff/http/errors.ts';

const MAX_JSON_BYTES = 64 * 1024;

/**
 * Reads and validates a JSON body. Wrong content type, malformed JSON, an oversized body or a
 * schema failure all become a 4xx in the API's error shape — never a 500.
 */
export async function readJson<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
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
  if (!result.success) throw validationError(result.issues);
  return result.output;
}

/** Validates query parameters with a valibot schema. */
export function readQuery<S extends v.GenericSchema>(c: Context, schema: S): v.InferOutput<S> {
  const result = v.safeParse(schema, c.req.query());
  if (!result.success) throw validationError(result.issues, 'Paramètres invalides');
  return result.output;
}

/** A UTF-16 surrogate without its pair: not text, and PostgreSQL refuses it (jsonb, text). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasLoneSurrogate);
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) if (LONE_SURROGATE.test(key) || hasLoneSurrogate(inner)) return true;
  }
  return false;
}

/**
 * Refuses a JSON body whose strings hold `\uD800`-style escapes without their pair (found by the
 * fuzz suite: PostgreSQL refused them with a 500). Runs before every route; a body that is not
 * valid JSON is left to the route's own error.
 */
export const refuseMalformedText: MiddlewareHandler = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && /^application\/json\b/i.test(c.req.header('content-type') ?? '')) {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return next();
    }
    if (hasLoneSurrogate(body)) {
      throw new ApiError(400, 'INVALID_TEXT', 'Le texte envoyé contient des caractères invalides.');
    }
  }
  return next();
};
