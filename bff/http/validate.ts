import type { Context } from 'hono';
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
