import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '#bff/db/database.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import type { TestAgent } from '#tests/support/test-product.ts';

/**
 * Registering as a visitor does it since decision 187: the registration (202, a mail), then the
 * confirmation mail's link opened in the same browser (the agent keeps the registration's cookie),
 * which creates the member and signs them in: the answer of that last step (201 and the settings
 * on success). A registration refused at once (400, 429…) is returned as it is.
 */
export async function signUp(
  agent: TestAgent,
  body: { context?: 'init'; email: string; password: string; role?: 'homme' | 'femme'; invitation?: string; passwordRepeat?: string },
): Promise<Response> {
  const registered = await agent.post('/api/v1/dashboard/subscription', { context: 'init', ...body });
  if (registered.status !== 202) return registered;
  if (!agent.database) throw new Error('this agent has no product database to read the confirmation mail from');
  const tokenHash = await confirmationTokenIn(agent.database.db, body.email);
  return agent.post('/api/v1/auth/confirmation', { tokenHash });
}

/** The mails queued for `email` of `kind`, newest first, read from the outbox as the person would read them. */
export async function mailsTo(db: Database['db'], email: string, kind?: string) {
  return db
    .select()
    .from(mailOutbox)
    .where(
      kind ? and(eq(mailOutbox.toAddress, email.toLowerCase()), eq(mailOutbox.kind, kind)) : eq(mailOutbox.toAddress, email.toLowerCase()),
    )
    .orderBy(desc(mailOutbox.id));
}

/** The `token_hash` of the last sign-up confirmation mailed to `email`. */
export async function confirmationTokenIn(db: Database['db'], email: string): Promise<string> {
  const [mail] = await mailsTo(db, email, 'auth-signup-confirmation');
  const token = /[?&]token_hash=([0-9a-f]+)/.exec(mail?.textBody ?? '')?.[1];
  if (!token) throw new Error(`no confirmation mail for ${email}`);
  return token;
}
