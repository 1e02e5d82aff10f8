import { and, asc, eq, lt, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from '#bff/clock.ts';
import type { Db } from '#bff/db/database.ts';
import { mailOutbox } from '#bff/db/schema.ts';

const MAX_ATTEMPTS = 8;

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
export function createMailDispatcher(options: { db: Db; smtpUrl: string; from: string; clock: Clock }): MailDispatcher {
  const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;

  async function sendOne(): Promise<boolean> {
    return options.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'pending'), lt(mailOutbox.attempts, MAX_ATTEMPTS)))
        .orderBy(asc(mailOutbox.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return false;
      try {
        await transport.sendMail({ from: options.from, to: row.toAddress, subject: row.subject, text: row.textBody, html: row.htmlBody ?? undefined });
        await tx.update(mailOutbox).set({ status: 'sent', sentAt: options.clock.now(), attempts: row.attempts + 1 }).where(eq(mailOutbox.id, row.id));
      } catch (error) {
        const attempts = row.attempts + 1;
        await tx
          .update(mailOutbox)
          .set({ attempts, lastError: error instanceof Error ? error.message : String(error), status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending' })
          .where(eq(mailOutbox.id, row.id));
        // Stop this round on failure: the next tick retries.
        return false;
      }
      return true;
    });
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
      dispatcher.flush().catch((error) => console.error('[mail] envoi différé :', error instanceof Error ? error.message : error));
    },
    start(intervalMs = 2_000) {
      timer = setInterval(() => dispatcher.poke(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
      transport.close();
    },
  };
  return dispatcher;
}

/** Counts mails not yet sent (for health and tests). */
export async function pendingMailCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
  return row?.n ?? 0;
}
