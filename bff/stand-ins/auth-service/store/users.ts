// The auth service's users and their identities (embedded_auth.users, embedded_auth.identities).
import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import { identities, mfaFactors, oneTimeTokens, sessions, type UserRow, users } from '#bff/stand-ins/auth-service/store/schema.ts';

export async function userById(exec: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await exec.select().from(users).where(eq(users.id, id));
  return row;
}

/** A live (not soft-deleted) user by e-mail address. */
export async function liveUserByEmail(exec: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await exec
    .select()
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.deletedAt)));
  return row;
}

/** The user's identities and factors, oldest first. */
export async function identitiesAndFactorsOf(exec: Executor, userId: string) {
  const [ids, factors] = await Promise.all([
    exec.select().from(identities).where(eq(identities.userId, userId)).orderBy(asc(identities.createdAt)),
    exec.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).orderBy(asc(mfaFactors.createdAt)),
  ]);
  return { identities: ids, factors };
}

export async function insertUserRow(exec: Executor, row: typeof users.$inferInsert): Promise<UserRow | undefined> {
  const [inserted] = await exec.insert(users).values(row).returning();
  return inserted;
}

export async function insertIdentity(exec: Executor, row: typeof identities.$inferInsert): Promise<void> {
  await exec.insert(identities).values(row);
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

/** Updates the user's row and returns it (undefined for an unknown user). */
export async function updateUserRow(exec: Executor, id: string, patch: Partial<UserRow>): Promise<UserRow | undefined> {
  const [updated] = await exec.update(users).set(patch).where(eq(users.id, id)).returning();
  return updated;
}

/** Updates the user's row, returning nothing. */
export async function setUserFields(exec: Executor, id: string, set: Partial<UserRow>): Promise<void> {
  await exec.update(users).set(set).where(eq(users.id, id));
}

/** How many users there are (soft-deleted ones included, as GoTrue counts them). */
export async function countUsers(exec: Executor): Promise<number> {
  const [{ total } = { total: 0 }] = await exec.select({ total: count() }).from(users);
  return total;
}

/** One page of users, newest first. */
export async function usersPage(exec: Executor, limit: number, offset: number): Promise<UserRow[]> {
  return exec.select().from(users).orderBy(desc(users.createdAt), desc(users.id)).limit(limit).offset(offset);
}

export async function deleteUserRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(users).where(eq(users.id, id));
}

/** Soft delete: keeps the row (deleted_at) but nothing that identifies or signs in. */
export async function softDeleteUserRow(exec: Executor, id: string, now: Date): Promise<void> {
  await exec.delete(sessions).where(eq(sessions.userId, id));
  await exec.delete(identities).where(eq(identities.userId, id));
  await exec.delete(mfaFactors).where(eq(mfaFactors.userId, id));
  await exec.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, id));
  await exec
    .update(users)
    .set({ email: null, phone: null, encryptedPassword: null, deletedAt: now, updatedAt: now })
    .where(eq(users.id, id));
}
