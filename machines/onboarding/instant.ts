import * as v from 'valibot';

/**
 * Instants are stored as ISO 8601 strings WITH a time zone (`Z` or `±hh:mm`).
 * A string without zone would be read as local time, which differs between the
 * member's browser and the server, so it is refused.
 */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Milliseconds since the epoch, or NaN for anything that is not a zoned ISO instant. */
export function instantMs(iso: string): number {
  return ISO_INSTANT.test(iso) ? Date.parse(iso) : Number.NaN;
}

export function isIsoInstant(value: string): boolean {
  return Number.isFinite(instantMs(value));
}

/** Canonical form of an instant (UTC, milliseconds), e.g. `2025-01-06T09:00:00.000Z`. */
export function toIsoInstant(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoInstantSchema(message = 'Date invalide') {
  return v.pipe(v.string(message), v.check(isIsoInstant, message));
}
