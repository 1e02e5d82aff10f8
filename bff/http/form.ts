import type { Context } from 'hono';
import * as v from 'valibot';
import { ApiError, validationError } from '#bff/http/errors.ts';

/**
 * Reads a `multipart/form-data` body: its text fields validated by a valibot schema, and at most
 * one file under a known name, returned as bytes (decision 189). A wrong content type, a body that
 * is not a readable form, a field sent twice, a file where text is expected (or text where the
 * file is), a text the database cannot store, a file over `maxFileBytes`, or a schema failure: a
 * French 4xx in the API's error shape, never a 500. The route checks the session before calling it.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what this pattern is for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const badForm = (message: string, path?: string) =>
  path ? new ApiError(400, 'VALIDATION_FAILED', message, { issues: [{ path, message }] }) : new ApiError(400, 'INVALID_FORM', message);

export interface ReadForm<T> {
  fields: T;
  /** The file's bytes, or null when none was chosen (an empty file input sends an empty, nameless file). */
  file: Uint8Array | null;
}

export async function readForm<S extends v.GenericSchema>(
  c: Context,
  schema: S,
  options: { file: string; maxFileBytes: number; tooLarge: () => ApiError; message?: string },
): Promise<ReadForm<v.InferOutput<S>>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Le corps de la requête doit être un formulaire (multipart/form-data).');
  }
  let form: FormData;
  try {
    form = await c.req.formData();
  } catch {
    throw badForm('Le formulaire envoyé est illisible. Réessayez.');
  }
  const fields: Record<string, string> = {};
  let file: File | null = null;
  const seen = new Set<string>();
  for (const [name, value] of form.entries()) {
    if (UNSTORABLE.test(name)) throw new ApiError(400, 'INVALID_TEXT', 'Le texte envoyé contient des caractères invalides.');
    if (seen.has(name)) throw badForm('Un champ du formulaire est envoyé deux fois.', name);
    seen.add(name);
    if (name === options.file) {
      if (typeof value === 'string') {
        // A form without a chosen file may send the field as an empty text.
        if (value !== '') throw badForm('Joignez un fichier (PDF, JPEG ou PNG).', name);
        continue;
      }
      if (value.size > options.maxFileBytes) throw options.tooLarge();
      if (value.size > 0 || value.name !== '') file = value;
      continue;
    }
    if (typeof value !== 'string') throw badForm('Seul le justificatif peut être un fichier.', name);
    if (UNSTORABLE.test(value)) throw new ApiError(400, 'INVALID_TEXT', 'Le texte envoyé contient des caractères invalides.');
    fields[name] = value;
  }
  const result = v.safeParse(schema, fields);
  if (!result.success) throw validationError(result.issues, options.message);
  return { fields: result.output, file: file ? new Uint8Array(await file.arrayBuffer()) : null };
}
