// The auth service's TOTP factors and their challenges (embedded_auth.mfa_factors, embedded_auth.mfa_challenges).
import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import { type FactorRow, mfaChallenges, mfaFactors } from '#bff/stand-ins/auth-service/store/schema.ts';

/** The user's factors, oldest first. */
export async function factorsOfUser(exec: Executor, userId: string): Promise<FactorRow[]> {
  return exec.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).orderBy(asc(mfaFactors.createdAt));
}

/** The user's factors, in no particular order. */
export async function anyFactorsOfUser(exec: Executor, userId: string): Promise<FactorRow[]> {
  return exec.select().from(mfaFactors).where(eq(mfaFactors.userId, userId));
}

/** The user's factor `id`, locked. */
export async function userFactorForUpdate(exec: Executor, id: string, userId: string): Promise<FactorRow | undefined> {
  const [factor] = await exec
    .select()
    .from(mfaFactors)
    .where(and(eq(mfaFactors.id, id), eq(mfaFactors.userId, userId)))
    .for('update');
  return factor;
}

export async function insertFactor(exec: Executor, row: typeof mfaFactors.$inferInsert): Promise<FactorRow | undefined> {
  const [created] = await exec.insert(mfaFactors).values(row).returning();
  return created;
}

/** The user's TOTP enrolments never verified. */
export async function deleteUnverifiedTotpFactors(exec: Executor, userId: string): Promise<void> {
  await exec
    .delete(mfaFactors)
    .where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.status, 'unverified'), eq(mfaFactors.factorType, 'totp')));
}

/** The user's factors never verified, of any type. */
export async function deleteUnverifiedFactors(exec: Executor, userId: string): Promise<void> {
  await exec.delete(mfaFactors).where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.status, 'unverified')));
}

export async function setFactorFields(exec: Executor, id: string, set: Partial<FactorRow>): Promise<void> {
  await exec.update(mfaFactors).set(set).where(eq(mfaFactors.id, id));
}

export async function deleteFactor(exec: Executor, id: string): Promise<void> {
  await exec.delete(mfaFactors).where(eq(mfaFactors.id, id));
}

/** The factor's challenges created before `before`. */
export async function deleteChallengesBefore(exec: Executor, factorId: string, before: Date): Promise<void> {
  await exec.delete(mfaChallenges).where(and(eq(mfaChallenges.factorId, factorId), lt(mfaChallenges.createdAt, before)));
}

export async function insertChallenge(exec: Executor, row: typeof mfaChallenges.$inferInsert): Promise<void> {
  await exec.insert(mfaChallenges).values(row);
}

/** The factor's challenge `id`. */
export async function challengeOf(exec: Executor, id: string, factorId: string) {
  const [challenge] = await exec
    .select()
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.id, id), eq(mfaChallenges.factorId, factorId)));
  return challenge;
}

export async function deleteChallenge(exec: Executor, id: string): Promise<void> {
  await exec.delete(mfaChallenges).where(eq(mfaChallenges.id, id));
}

/** Marks the challenge verified unless it already was; whether this call took it. */
export async function takeChallenge(exec: Executor, id: string, now: Date): Promise<boolean> {
  const [taken] = await exec
    .update(mfaChallenges)
    .set({ verifiedAt: now })
    .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.verifiedAt)))
    .returning({ id: mfaChallenges.id });
  return taken !== undefined;
}
