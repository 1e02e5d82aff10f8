import * as v from 'valibot';
import type { FieldErrors } from '#src/lib/api-client.ts';

/** valibot issues → `{ field: message }`, first message per field (dot path); `rename` maps paths. */
function fieldErrorsOf(issues: readonly v.BaseIssue<unknown>[], rename: Record<string, string> = {}): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '';
    const field = rename[path] ?? path;
    if (field && !(field in errors)) errors[field] = issue.message;
  }
  return errors;
}

/** Renames the server's field paths to the form's field names (e.g. `role` → `gender`). */
export function renameFields(errors: FieldErrors, rename: Record<string, string>): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = rename[path] ?? path;
    if (!(field in out)) out[field] = message;
  }
  return out;
}

export type Validation<T> = { success: true; output: T } | { success: false; fieldErrors: FieldErrors };

/** Validates form input with a shared schema; failures come back as field errors. */
export function validate<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  rename?: Record<string, string>,
): Validation<v.InferOutput<S>> {
  const result = v.safeParse(schema, input);
  if (result.success) return { success: true, output: result.output };
  return { success: false, fieldErrors: fieldErrorsOf(result.issues, rename) };
}

export { textOf } from '#src/lib/form-data.ts';
