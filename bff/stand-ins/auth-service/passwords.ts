import { hash, verify } from '@node-rs/argon2';
import { passwordWeakness } from '#bff/auth/password-strength.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { PASSWORD_MIN_LENGTH } from '#machines/auth/credentials.ts';

/** GoTrue's floor (GOTRUE_PASSWORD_MIN_LENGTH cannot go lower) and its bcrypt-era ceiling. */
const MIN_PASSWORD_LENGTH = 6;
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
function weakPasswordReasons(password: string): string[] {
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

/**
 * The product's policy for a password a user chooses on the public API (`PUT /user`, `/signup`):
 * the length of `assertAcceptablePassword`, then 12 characters at least and no common password nor
 * one built on the person's details, checked by the same zxcvbn-ts code as the BFF's pages
 * (decision 180). GoTrue's 422 `weak_password` with its reasons (`length`; `pwned` for a common
 * one, as GoTrue names a known password; `personal`), its message in French. The admin API keeps
 * GoTrue's floor: it is the product's own (demo accounts, staff command).
 */
export async function assertPolicyPassword(password: string, details: (string | null | undefined)[]): Promise<void> {
  assertAcceptablePassword(password);
  if (length(password) < PASSWORD_MIN_LENGTH) {
    throw new AuthApiError(422, 'weak_password', `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères.`, ['length']);
  }
  const weakness = await passwordWeakness(password, details);
  if (weakness) {
    throw new AuthApiError(422, 'weak_password', weakness.message, [weakness.reason === 'PASSWORD_PERSONAL' ? 'personal' : 'pwned']);
  }
}

/** What a password sign-in adds when the (valid) password no longer meets the policy. */
export function weakPasswordNotice(password: string): { message: string; reasons: string[] } | undefined {
  const reasons = weakPasswordReasons(password);
  return reasons.length > 0 ? { message: WEAK_LENGTH_MESSAGE, reasons } : undefined;
}
