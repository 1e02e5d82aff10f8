import { hash, verify } from '@node-rs/argon2';
import { AuthApiError, errors } from '#bff/auth-service/errors.ts';

/** GoTrue's floor (GOTRUE_PASSWORD_MIN_LENGTH cannot go lower) and its bcrypt-era ceiling. */
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 72;

const WEAK_LENGTH_MESSAGE = `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`;

/** argon2id with the library defaults (19 MiB, t=2, p=1: OWASP's recommendation). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A hash of nothing anyone knows, verified when the account does not exist so that a sign-in
// attempt takes as long for an unknown address as for a known one.
let decoy: Promise<string> | undefined;

/** Checks a password against a stored hash; a missing hash fails after the same work. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    decoy ??= hash(`decoy-${Math.random()}`);
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

export function isSupportedPasswordHash(value: string): boolean {
  return /^\$argon2(id|i|d)\$/.test(value);
}

function length(password: string): number {
  return [...password].length;
}

/** The weak-password reasons of the current policy, or none. */
export function weakPasswordReasons(password: string): string[] {
  return length(password) < MIN_PASSWORD_LENGTH ? ['length'] : [];
}

/** Refuses a new password: over 72 characters (400 validation_failed) or weak (422 weak_password). */
export function assertAcceptablePassword(password: string): void {
  if (length(password) > MAX_PASSWORD_LENGTH) {
    throw errors.validation(`Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`);
  }
  const reasons = weakPasswordReasons(password);
  if (reasons.length > 0) throw new AuthApiError(422, 'weak_password', WEAK_LENGTH_MESSAGE, reasons);
}

/** What a password sign-in adds when the (valid) password no longer meets the policy. */
export function weakPasswordNotice(password: string): { message: string; reasons: string[] } | undefined {
  const reasons = weakPasswordReasons(password);
  return reasons.length > 0 ? { message: WEAK_LENGTH_MESSAGE, reasons } : undefined;
}
