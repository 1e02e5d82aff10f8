import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '#bff/auth-service/deps.ts';
import { EMAIL_MAX_LENGTH, hasGoTrueEmailFormat } from '#machines/auth/email-address.ts';
import { errors } from '#bff/auth-service/errors.ts';
import { identities, mfaFactors, type UserRow, users } from '#bff/auth-service/schema.ts';
import type { UserRecord } from '#bff/auth-service/serialize.ts';

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
  const [row] = await exec.select().from(users).where(eq(users.id, id));
  return row;
}

/** A live (not soft-deleted) user by e-mail address. */
export async function findUserByEmail(exec: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await exec
    .select()
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.deletedAt)));
  return row;
}

/** The user with its identities and factors, as its JSON needs them. */
export async function recordOf(exec: Executor, row: UserRow): Promise<UserRecord> {
  const [ids, factors] = await Promise.all([
    exec.select().from(identities).where(eq(identities.userId, row.id)).orderBy(asc(identities.createdAt)),
    exec.select().from(mfaFactors).where(eq(mfaFactors.userId, row.id)).orderBy(asc(mfaFactors.createdAt)),
  ]);
  return { row, identities: ids, factors };
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
    [row] = await exec
      .insert(users)
      .values({
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
      })
      .returning();
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.emailExists();
    throw error;
  }
  if (!row) throw new Error('embedded_auth.users insert returned nothing');
  await exec.insert(identities).values({
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

/** Keeps the email identity in step with the user's address and confirmation. */
export async function syncEmailIdentity(exec: Executor, row: UserRow, now: Date): Promise<void> {
  if (!row.email) return;
  const [identity] = await exec
    .select()
    .from(identities)
    .where(and(eq(identities.userId, row.id), eq(identities.provider, 'email')));
  const data = { email: row.email, email_verified: row.emailConfirmedAt !== null };
  if (!identity) {
    await exec.insert(identities).values({
      id: randomUUID(),
      providerId: row.id,
      userId: row.id,
      provider: 'email',
      email: row.email,
      identityData: { sub: row.id, phone_verified: false, ...data },
      createdAt: now,
      updatedAt: now,
    });
    return;
  }
  await exec
    .update(identities)
    .set({ email: row.email, identityData: { ...identity.identityData, ...data }, updatedAt: now })
    .where(eq(identities.id, identity.id));
}

/** A unique-constraint failure, whether the driver's error is bare or wrapped by drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
