import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { insertOutboxMail, insertOutboxMailOnce, type OutboxMailRow } from '#bff/mail/store/outbox.ts';

/** At most this many bytes of attachments (decoded) per mail: a contract, an invoice. */
export const MAX_ATTACHMENT_BYTES = 2 * 1024 * 1024;
const MAX_ATTACHMENTS = 5;

/** The decoded size of a base64 string. */
function base64Bytes(value: string): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

const MailAttachmentSchema = v.object({
  /** The file name the recipient sees, without any path. */
  filename: v.pipe(v.string(), v.minLength(1), v.maxLength(120), v.regex(/^[^/\\\r\n"]+$/, 'Nom de pièce jointe invalide')),
  contentType: v.pipe(v.string(), v.regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'Type de pièce jointe invalide')),
  contentBase64: v.pipe(
    v.string(),
    v.minLength(4),
    v.regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'Pièce jointe mal encodée (base64 attendu)'),
  ),
});

export const OutgoingMailSchema = v.object({
  to: v.pipe(v.string(), v.email()),
  subject: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  text: v.pipe(v.string(), v.minLength(1)),
  html: v.optional(v.string()),
  /** Where the recipient's answer goes (the agency's address), when not to the sender. */
  replyTo: v.optional(v.pipe(v.string(), v.email())),
  /** What the mail is for (recovery, contact, direct-message…), for the log and retention. */
  kind: v.pipe(v.string(), v.minLength(1)),
  /** Files sent with the mail (the signed contract, an invoice), at most 2 MiB in all. */
  attachments: v.optional(
    v.pipe(
      v.array(MailAttachmentSchema),
      v.maxLength(MAX_ATTACHMENTS),
      v.check(
        (list) => list.reduce((sum, a) => sum + base64Bytes(a.contentBase64), 0) <= MAX_ATTACHMENT_BYTES,
        'Pièces jointes trop volumineuses',
      ),
    ),
  ),
});
export type OutgoingMail = v.InferOutput<typeof OutgoingMailSchema>;

/** Anything that can run drizzle queries: the database or an open transaction. */
export type Executor = Pick<Db, 'insert' | 'select' | 'update' | 'delete' | 'execute'>;

/**
 * The executors (open transactions, mostly) a mail was queued through: whoever commits one knows
 * from it whether the dispatcher has anything new to send (decision 129), without asking the
 * outbox. Held weakly: a finished transaction is forgotten with it.
 */
const queuedThrough = new WeakSet<object>();

/** A mail was queued through `executor` (by `enqueueMail` or a first `enqueueMailOnce`). */
export function mailQueuedThrough(executor: object): boolean {
  return queuedThrough.has(executor);
}

/** The outbox row of a mail, once its schema accepted it (it throws on a mail it refuses). */
function outboxRow(mail: OutgoingMail): OutboxMailRow {
  const parsed = v.parse(OutgoingMailSchema, mail);
  return {
    toAddress: parsed.to,
    subject: parsed.subject,
    textBody: parsed.text,
    htmlBody: parsed.html ?? null,
    replyTo: parsed.replyTo ?? null,
    kind: parsed.kind,
    attachments: parsed.attachments?.length ? parsed.attachments : null,
  };
}

/**
 * Writes a mail to the outbox, in the caller's transaction when given one, so that a mail exists
 * if and only if what caused it was committed. The dispatcher sends it afterwards.
 */
export async function enqueueMail(executor: Executor, mail: OutgoingMail): Promise<number> {
  const id = await insertOutboxMail(executor, outboxRow(mail));
  if (id === undefined) throw new Error('mail_outbox insert returned nothing');
  queuedThrough.add(executor);
  return id;
}

/**
 * Like `enqueueMail`, but at most once per `dedupeKey` (a unique column, migration 0012): a second
 * call with the same key queues nothing and answers null. Used by the agency's mails (decision 111).
 */
export async function enqueueMailOnce(executor: Executor, mail: OutgoingMail, dedupeKey: string): Promise<number | null> {
  const id = await insertOutboxMailOnce(executor, outboxRow(mail), dedupeKey);
  if (id !== null) queuedThrough.add(executor);
  return id;
}
