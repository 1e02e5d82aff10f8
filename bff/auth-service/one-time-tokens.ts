import { createHash, randomInt, randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '#bff/auth-service/deps.ts';
import { type OneTimeTokenType, oneTimeTokens } from '#bff/auth-service/schema.ts';

export const OTP_LENGTH = 6;

/** A six-digit code, uniformly drawn. */
export function generateOtp(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/** GoTrue's token hash (crypto.GenerateTokenHash): sha224 of e-mail + code, in hex. */
export function tokenHashOf(email: string, otp: string): string {
  return createHash('sha224')
    .update(email + otp)
    .digest('hex');
}

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
