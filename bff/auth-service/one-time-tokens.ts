import { createHmac, randomInt, randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '#bff/auth-service/deps.ts';
import { type OneTimeTokenType, oneTimeTokens } from '#bff/auth-service/schema.ts';

const OTP_LENGTH = 6;

/** A six-digit code, uniformly drawn. */
export function generateOtp(): string {
  return String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
}

/**
 * The hash of an e-mail link: HMAC-SHA224 of e-mail + code under the service's secret, in hex.
 * GoTrue's is a bare sha224 of e-mail + code (crypto.GenerateTokenHash), which anyone can compute
 * for each of the million codes: guessing a link was then as easy as guessing the code, with no
 * account to count the failures against (issue 19, decision 101). Clients never compute it: they
 * pass on `hashed_token` or the link's `token_hash`, so the keyed form changes nothing for them.
 */
export function tokenHashOf(key: Uint8Array, email: string, otp: string): string {
  return createHmac('sha224', key)
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
