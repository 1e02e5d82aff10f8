import type { Transporter } from 'nodemailer';
import type { Clock } from '#bff/clock.ts';
import type { Db } from '#bff/db/database.ts';
import { log } from '#bff/logger.ts';
import { claimNextMail, markMailDropped, markMailFailed, markMailSent } from '#bff/mail/store/outbox.ts';

const MAX_ATTEMPTS = 8;

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
    const row = await claimNextMail(options.db, { now, claimedUntil: new Date(now.getTime() + LEASE_MS), maxAttempts: MAX_ATTEMPTS });
    if (!row) return false;
    try {
      const drop = options.dropReason
        ? await options.dropReason({ kind: row.kind, dedupeKey: row.dedupe_key, to: row.to_address }, options.clock.now())
        : null;
      if (drop !== null) {
        await markMailDropped(options.db, row.id, drop);
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
      await markMailSent(options.db, row.id, options.clock.now());
      return true;
    } catch (error) {
      await markMailFailed(options.db, row.id, {
        status: row.attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        lastError: error instanceof Error ? error.message : String(error),
      });
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
