import { eq, sql } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Clock } from '#bff/clock.ts';
import type { Db } from '#bff/db/database.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { log } from '#bff/logger.ts';
import type { MailAttachment } from '#bff/mail/outbox.ts';

const MAX_ATTEMPTS = 8;

type ClaimedMail = {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  reply_to: string | null;
  attachments: MailAttachment[] | null;
  attempts: number;
  kind: string;
  dedupe_key: string | null;
};
const LEASE_MS = 2 * 60 * 1000;

export interface MailDispatcher {
  /** Sends every pending mail now (also called on a timer). Returns how many were sent. */
  flush(): Promise<number>;
  /** Asks for a flush soon, without waiting for it. */
  poke(): void;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

/**
 * Sends the outbox through SMTP with nodemailer. Each row is claimed with `FOR UPDATE SKIP LOCKED`
 * so that several instances never send the same mail twice; a failure is retried later.
 */
export function createMailDispatcher(options: {
  db: Db;
  smtpUrl: string;
  from: string;
  clock: Clock;
  /**
   * Asked for each mail at the moment it is sent (decision 191): a reason to drop it (it no longer
   * applies), or null to send it. A dropped mail stays in the outbox as `dropped`, with its reason,
   * and frees its de-duplication key (the mail may be queued again once it applies again).
   */
  dropReason?: (mail: { kind: string; dedupeKey: string | null; to: string }, now: Date) => Promise<string | null>;
}): MailDispatcher {
  // nodemailer is loaded with the first mail to send, not at start (start-up target, decision 080).
  let transport: Promise<Transporter> | undefined;
  const transporter = () => {
    transport ??= import('nodemailer').then((module) => module.default.createTransport(options.smtpUrl));
    return transport;
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;

  /**
   * Claims the oldest sendable mail with a lease (a short transaction, `SKIP LOCKED` so that
   * instances never claim the same row), sends it outside any transaction — the embedded SMTP
   * server writes to the same database, and PGlite has a single connection — then records the
   * outcome. A crash while sending leaves a lease that expires, and the mail is sent again.
   */
  async function sendOne(): Promise<boolean> {
    const now = options.clock.now();
    const claimed = await options.db.execute<ClaimedMail>(sql`
      UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, claimed_until = ${new Date(now.getTime() + LEASE_MS)}
      WHERE id = (
        SELECT id FROM mail_outbox
        WHERE attempts < ${MAX_ATTEMPTS}
          AND (status = 'pending' OR (status = 'sending' AND claimed_until < ${now}))
        ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED
      )
      RETURNING id, to_address, subject, text_body, html_body, reply_to, attachments, attempts, kind, dedupe_key`);
    const row = (claimed as unknown as { rows: ClaimedMail[] }).rows[0];
    if (!row) return false;
    try {
      const drop = options.dropReason
        ? await options.dropReason({ kind: row.kind, dedupeKey: row.dedupe_key, to: row.to_address }, options.clock.now())
        : null;
      if (drop !== null) {
        await options.db
          .update(mailOutbox)
          .set({ status: 'dropped', claimedUntil: null, lastError: drop, dedupeKey: null })
          .where(eq(mailOutbox.id, row.id));
        log.info('e-mail non envoyé\u00a0: il ne s’applique plus', { mailId: row.id, kind: row.kind, reason: drop });
        return true;
      }
      await (await transporter()).sendMail({
        from: options.from,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body ?? undefined,
        ...(row.reply_to ? { replyTo: row.reply_to } : {}),
        attachments: (row.attachments ?? []).map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.contentBase64,
          encoding: 'base64',
        })),
      });
      await options.db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: options.clock.now(), claimedUntil: null })
        .where(eq(mailOutbox.id, row.id));
      return true;
    } catch (error) {
      await options.db
        .update(mailOutbox)
        .set({
          status: row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          claimedUntil: null,
          lastError: error instanceof Error ? error.message : String(error),
        })
        .where(eq(mailOutbox.id, row.id));
      // Stop this round on failure: the next tick retries.
      return false;
    }
  }

  async function drain(): Promise<number> {
    let sent = 0;
    do {
      again = false;
      while (await sendOne()) sent += 1;
    } while (again);
    return sent;
  }

  const dispatcher: MailDispatcher = {
    flush() {
      if (running) {
        again = true;
        return running;
      }
      running = drain().finally(() => {
        running = undefined;
      });
      return running;
    },
    poke() {
      dispatcher.flush().catch((error) => log.error('e-mails : envoi différé', { err: error }));
    },
    start(intervalMs = 2_000) {
      timer = setInterval(() => dispatcher.poke(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
      if (transport) (await transport.catch(() => undefined))?.close();
    },
  };
  return dispatcher;
}
