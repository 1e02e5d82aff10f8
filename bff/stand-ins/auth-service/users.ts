import { randomUUID } from 'node:crypto';
import { EMAIL_MAX_LENGTH, hasGoTrueEmailFormat } from '#machines/auth/email-address.ts';
import { errors } from '#bff/stand-ins/auth-service/errors.ts';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import type { UserRow } from '#bff/stand-ins/auth-service/store/schema.ts';
import {
  countUsers,
  deleteUserRow,
  identitiesAndFactorsOf,
  insertIdentity,
  insertUserRow,
  liveUserByEmail,
  softDeleteUserRow,
  updateUserRow,
  userById,
  usersPage as usersPageRows,
} from '#bff/stand-ins/auth-service/store/users.ts';
import type { UserRecord } from '#bff/stand-ins/auth-service/serialize.ts';

export type { UserRow };
export { syncEmailIdentity } from '#bff/stand-ins/auth-service/store/users.ts';

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * GoTrue's validateEmail: 400 `validation_failed` for an address too long or not of the format
 * Supabase Auth accepts (machines/auth/email-address.ts), else the address lower-cased.
 */
export function normalizeEmail(raw: string): string {
  const email = raw.trim();
  if (email.length > EMAIL_MAX_LENGTH) throw errors.validation('An email address is too long');
  if (!hasGoTrueEmailFormat(email)) throw errors.invalidEmail();
  return email.toLowerCase();
}

export function isUuid(value: string): boolean {
  return UUID_SHAPE.test(value);
}

export function isBanned(row: UserRow, now: Date): boolean {
  return row.bannedUntil !== null && row.bannedUntil.getTime() > now.getTime();
}

export async function findUserById(exec: Executor, id: string): Promise<UserRow | undefined> {
  if (!isUuid(id)) return undefined;
  return userById(exec, id);
}

/** A live (not soft-deleted) user by e-mail address. */
export async function findUserByEmail(exec: Executor, email: string): Promise<UserRow | undefined> {
  return liveUserByEmail(exec, email);
}

/** The user with its identities and factors, as its JSON needs them. */
export async function recordOf(exec: Executor, row: UserRow): Promise<UserRecord> {
  const { identities, factors } = await identitiesAndFactorsOf(exec, row.id);
  return { row, identities, factors };
}

export interface NewUser {
  id?: string;
  email: string;
  passwordHash: string | null;
  emailConfirmed: boolean;
  role?: string;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  bannedUntil?: Date | null;
  invitedAt?: Date | null;
}

/** Inserts a user and its `email` identity. A taken address (or id) is 422 email_exists. */
export async function insertUser(exec: Executor, now: Date, input: NewUser): Promise<UserRow> {
  const id = input.id ?? randomUUID();
  const appMetadata = { ...(input.appMetadata ?? {}), provider: 'email', providers: ['email'] };
  let row: UserRow | undefined;
  try {
    row = await insertUserRow(exec, {
      id,
      email: input.email,
      encryptedPassword: input.passwordHash,
      emailConfirmedAt: input.emailConfirmed ? now : null,
      role: input.role ?? 'authenticated',
      appMetadata,
      userMetadata: input.userMetadata ?? {},
      bannedUntil: input.bannedUntil ?? null,
      invitedAt: input.invitedAt ?? null,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.emailExists();
    throw error;
  }
  if (!row) throw new Error('embedded_auth.users insert returned nothing');
  await insertIdentity(exec, {
    id: randomUUID(),
    providerId: id,
    userId: id,
    provider: 'email',
    email: input.email,
    identityData: { sub: id, email: input.email, email_verified: input.emailConfirmed, phone_verified: false },
    createdAt: now,
    updatedAt: now,
  });
  return row;
}

/** Updates the user's row and returns it (undefined for an unknown user). */
export async function updateUser(exec: Executor, id: string, patch: Partial<UserRow>): Promise<UserRow | undefined> {
  return updateUserRow(exec, id, patch);
}

/** `updateUser` for a patch that may set the address: one another account holds is 422 email_exists. */
export async function updateUserAddress(exec: Executor, id: string, patch: Partial<UserRow>): Promise<UserRow | undefined> {
  return updateUserRow(exec, id, patch).catch((error: unknown) => {
    throw isUniqueViolation(error) ? errors.emailExists() : error;
  });
}

/** A unique-constraint failure, whether the driver's error is bare or wrapped by drizzle. */
function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** One page of users, newest first, with their identities and factors, and how many there are. */
export async function usersPage(exec: Executor, page: number, perPage: number): Promise<{ total: number; records: UserRecord[] }> {
  const total = await countUsers(exec);
  const rows = await usersPageRows(exec, perPage, (page - 1) * perPage);
  const records = [];
  for (const row of rows) records.push(await recordOf(exec, row));
  return { total, records };
}

/** Deletes the user, or (`softAt`) keeps its row without anything that identifies or signs in. */
export async function deleteUser(exec: Executor, id: string, softAt: Date | null): Promise<void> {
  if (softAt === null) await deleteUserRow(exec, id);
  else await softDeleteUserRow(exec, id, softAt);
}
