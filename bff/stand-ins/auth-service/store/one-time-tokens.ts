// The one-time tokens of the auth service's e-mail links and codes (embedded_auth.one_time_tokens).
import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import { type OneTimeTokenType, oneTimeTokens } from '#bff/stand-ins/auth-service/store/schema.ts';

/** Replaces the user's token of that type (one live token per user and type). */
export async function storeOneTimeToken(
  exec: Executor,
  input: { userId: string; type: OneTimeTokenType; tokenHash: string; relatesTo: string; flowStateId: string | null; now: Date },
): Promise<void> {
  await exec.delete(oneTimeTokens).where(and(eq(oneTimeTokens.userId, input.userId), eq(oneTimeTokens.tokenType, input.type)));
  await exec.insert(oneTimeTokens).values({
    id: randomUUID(),
    userId: input.userId,
    tokenType: input.type,
    tokenHash: input.tokenHash,
    relatesTo: input.relatesTo,
    flowStateId: input.flowStateId,
    createdAt: input.now,
  });
}

/** Finds and deletes (one-time use) the token with that hash among the given types. */
export async function takeOneTimeToken(exec: Executor, tokenHash: string, types: OneTimeTokenType[]) {
  const [row] = await exec
    .select()
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.tokenHash, tokenHash), inArray(oneTimeTokens.tokenType, types)))
    .for('update');
  if (row) await exec.delete(oneTimeTokens).where(eq(oneTimeTokens.id, row.id));
  return row;
}
