// The auth service's sessions and their refresh tokens (embedded_auth.sessions, embedded_auth.refresh_tokens).
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import {
  identities,
  type RefreshTokenRow,
  refreshTokens,
  type SessionRow,
  sessions,
  users,
} from '#bff/stand-ins/auth-service/store/schema.ts';

export async function sessionById(exec: Executor, id: string): Promise<SessionRow | undefined> {
  const [session] = await exec.select().from(sessions).where(eq(sessions.id, id));
  return session;
}

export async function sessionByIdForUpdate(exec: Executor, id: string): Promise<SessionRow | undefined> {
  const [session] = await exec.select().from(sessions).where(eq(sessions.id, id)).for('update');
  return session;
}

export async function insertSession(exec: Executor, row: typeof sessions.$inferInsert): Promise<SessionRow | undefined> {
  const [session] = await exec.insert(sessions).values(row).returning();
  return session;
}

/** Updates a session and returns it (undefined for a session gone). */
export async function updateSession(exec: Executor, id: string, set: Partial<SessionRow>): Promise<SessionRow | undefined> {
  const [updated] = await exec.update(sessions).set(set).where(eq(sessions.id, id)).returning();
  return updated;
}

/** Updates a session, returning nothing. */
export async function setSessionFields(exec: Executor, id: string, set: Partial<SessionRow>): Promise<void> {
  await exec.update(sessions).set(set).where(eq(sessions.id, id));
}

/** The sessions a factor raised to aal2. */
export async function sessionsRaisedBy(exec: Executor, factorId: string): Promise<SessionRow[]> {
  return exec.select().from(sessions).where(eq(sessions.factorId, factorId));
}

export async function deleteSession(exec: Executor, id: string): Promise<void> {
  await exec.delete(sessions).where(eq(sessions.id, id));
}

export async function deleteUserSessions(exec: Executor, userId: string): Promise<void> {
  await exec.delete(sessions).where(eq(sessions.userId, userId));
}

/** Every session of the user but `keep`. */
export async function deleteOtherSessions(exec: Executor, userId: string, keep: string): Promise<void> {
  await exec.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.id, keep)));
}

/** Every session of the user below aal2. */
export async function deleteSessionsBelowAal2(exec: Executor, userId: string): Promise<void> {
  await exec.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.aal, 'aal2')));
}

/** Notes a sign-in on the user and on its email identity. */
export async function recordSignIn(exec: Executor, userId: string, now: Date): Promise<void> {
  await exec.update(users).set({ lastSignInAt: now }).where(eq(users.id, userId));
  await exec
    .update(identities)
    .set({ lastSignInAt: now })
    .where(and(eq(identities.userId, userId), eq(identities.provider, 'email')));
}

export async function insertRefreshTokenRow(exec: Executor, row: typeof refreshTokens.$inferInsert): Promise<void> {
  await exec.insert(refreshTokens).values(row);
}

export async function refreshTokenByHashForUpdate(exec: Executor, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const [token] = await exec.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).for('update');
  return token;
}

/** The session's live refresh token, the latest issued. */
export async function activeRefreshToken(exec: Executor, sessionId: string): Promise<RefreshTokenRow | undefined> {
  const [active] = await exec
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.sessionId, sessionId), eq(refreshTokens.revoked, false)))
    .orderBy(desc(refreshTokens.id))
    .limit(1);
  return active;
}

/** Revokes every live refresh token of the session. */
export async function revokeSessionRefreshTokens(exec: Executor, sessionId: string, now: Date): Promise<void> {
  await exec
    .update(refreshTokens)
    .set({ revoked: true, updatedAt: now })
    .where(and(eq(refreshTokens.sessionId, sessionId), eq(refreshTokens.revoked, false)));
}

export async function revokeRefreshToken(exec: Executor, id: number, now: Date): Promise<void> {
  await exec.update(refreshTokens).set({ revoked: true, updatedAt: now }).where(eq(refreshTokens.id, id));
}
