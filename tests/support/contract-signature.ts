import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { mailOutbox } from '#bff/db/schema.ts';
import type { Database } from '#bff/db/database.ts';
import type { TestAgent } from '#tests/support/test-product.ts';

/** The code in the last signature-code mail queued for `email`, read from the outbox as the member would read the mail. */
async function lastSignatureCode(agent: TestAgent, email: string): Promise<string> {
  if (!agent.database) throw new Error('this agent has no product database');
  return lastSignatureCodeIn(agent.database.db, email);
}

/** The same, read from the outbox of the product database `db`. */
export async function lastSignatureCodeIn(db: Database['db'], email: string): Promise<string> {
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.id)).limit(1);
  expect(mail?.kind).toBe('contract-signature-code');
  const code = /: (\d{6})\n/.exec(mail?.textBody ?? '')?.[1];
  if (!code) throw new Error('no code in the signature mail');
  return code;
}

/**
 * Signs the contract as a member does (decision 109): asks for the code, reads it in the mail,
 * sends it; the BFF then sends the chart's `sub_date`. Returns the answer of the signature.
 */
export async function signContract(member: { agent: TestAgent; email: string }): Promise<{ signedAt: string; sha256: string }> {
  const asked = await member.agent.post('/api/v1/user/contract/signature-code', {});
  expect(asked.status, await asked.clone().text()).toBe(200);
  const code = await lastSignatureCode(member.agent, member.email);
  const signed = await member.agent.post('/api/v1/user/contract/sign', { code });
  const body = (await signed.json()) as { signedAt: string; sha256: string };
  expect(signed.status, JSON.stringify(body)).toBe(200);
  return body;
}
