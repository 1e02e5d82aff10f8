import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { mailOutbox } from '#bff/db/schema.ts';

export const OutgoingMailSchema = v.object({
  to: v.pipe(v.string(), v.email()),
  subject: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  text: v.pipe(v.string(), v.minLength(1)),
  html: v.optional(v.string()),
  /** What the mail is for (recovery, contact, direct-message…), for the log and retention. */
  kind: v.pipe(v.string(), v.minLength(1)),
});
export type OutgoingMail = v.InferOutput<typeof OutgoingMailSchema>;

/** Anything that can run drizzle queries: the database or an open transaction. */
export type Executor = Pick<Db, 'insert' | 'select' | 'update' | 'delete' | 'execute'>;

/**
 * Writes a mail to the outbox, in the caller's transaction when given one, so that a mail exists
 * if and only if what caused it was committed. The dispatcher sends it afterwards.
 */
export async function enqueueMail(executor: Executor, mail: OutgoingMail): Promise<number> {
  const parsed = v.parse(OutgoingMailSchema, mail);
  const [row] = await executor
    .insert(mailOutbox)
    .values({ toAddress: parsed.to, subject: parsed.subject, textBody: parsed.text, htmlBody: parsed.html ?? null, kind: parsed.kind })
    .returning({ id: mailOutbox.id });
  if (!row) throw new Error('mail_outbox insert returned nothing');
  return row.id;
}
