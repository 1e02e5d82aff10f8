/**
 * Small readers for the routes' `validateSearch`. Route definitions are in the first load of
 * every page, so they do not use valibot: each reader keeps a good value and turns anything else
 * into `undefined` (a malformed link degrades to the default behaviour, never throws).
 */

/** A string, trimmed, not empty, at most `max` characters after trimming. */
export function trimmedText(value: unknown, max = 2048): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text !== '' && text.length <= max ? text : undefined;
}

/** A string matching `pattern` (after trimming when `trim`). */
export function matching(value: unknown, pattern: RegExp, trim = false): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = trim ? value.trim() : value;
  return pattern.test(text) ? text : undefined;
}

/** One of `options`. */
export function oneOf<const T extends string>(value: unknown, options: readonly T[]): T | undefined {
  return typeof value === 'string' && (options as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** An integer ≥ `min`. */
export function integerFrom(value: unknown, min: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= min ? value : undefined;
}
