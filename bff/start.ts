import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '#bff/app.ts';
import { createAuthService } from '#bff/auth-service/auth-service.ts';
import { authMigrations } from '#bff/auth-service/migrations.ts';
import { adminClient, type AuthConnection } from '#bff/auth/supabase.ts';
import { type Clock, systemClock } from '#bff/clock.ts';
import type { Config } from '#bff/config.ts';
import { type Database, openDatabase } from '#bff/db/database.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import { type DEMO_ACCOUNTS, seedDemo } from '#bff/demo/seed.ts';
import { createRateLimiter } from '#bff/http/rate-limit.ts';
import { createMailDispatcher } from '#bff/mail/dispatcher.ts';
import { startEmbeddedSmtp } from '#bff/mail/embedded-smtp.ts';
import { verifyRecordedPayment } from '#bff/payments/verify-payment.ts';
import { startRetentionJob } from '#bff/retention/retention-job.ts';

export interface Product {
  app: ReturnType<typeof createApp>;
  database: Database;
  auth: AuthConnection;
  url: string;
  port: number;
  demoAccounts: typeof DEMO_ACCOUNTS | [];
  embedded: { auth: boolean; mail: boolean };
  /** Sends pending mails now (tests use it to avoid waiting for the timer). */
  flushMail(): Promise<number>;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  /** Listen on a socket (default true); false keeps the app in-process only. */
  listen?: boolean;
  clientDir?: string;
  database?: Database;
}

/**
 * Opens the database, applies migrations, starts the embedded stand-ins the configuration asks
 * for, builds the app and (by default) listens. Shared by `server.ts`, the tests and the scripts.
 */
export async function startProduct(config: Config, options: StartOptions = {}): Promise<Product> {
  const clock = options.clock ?? systemClock;
  const database =
    options.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite') }));
  await migrate(database, config.supabase ? [appMigrations] : [appMigrations, authMigrations]);

  const embeddedSmtp = config.smtpUrl ? undefined : await startEmbeddedSmtp(database.db);
  const mail = createMailDispatcher({
    db: database.db,
    smtpUrl: config.smtpUrl ?? (embeddedSmtp?.url as string),
    from: config.mailFrom,
    clock,
  });

  let embeddedAuth: Hono | undefined;
  let auth: AuthConnection;
  if (config.supabase) {
    auth = { ...config.supabase, secureCookies: config.secureCookies };
  } else {
    const service = await createAuthService({ database, clock, siteUrl: config.publicSiteUrl, onMailQueued: () => mail.poke() });
    embeddedAuth = service.app;
    // supabase-js reaches the embedded service in-process: same HTTP requests, no socket hop.
    const authHost = new Hono().route('/auth/v1', service.app);
    auth = {
      url: config.publicSiteUrl,
      anonKey: service.anonKey,
      serviceRoleKey: service.serviceRoleKey,
      fetch: async (input, init) => authHost.fetch(new Request(input, init)),
      secureCookies: config.secureCookies,
    };
  }

  const app = createApp({
    config,
    database,
    clock,
    auth,
    rateLimit: createRateLimiter(database.db),
    verifyPayment: verifyRecordedPayment,
    mailQueued: () => mail.poke(),
    embeddedAuth,
    localMailbox: !config.smtpUrl,
    clientDir: options.clientDir ?? join(import.meta.dirname, '..', 'dist', 'client'),
  });

  // Independent of serving the site: the demo accounts are created while the server starts to
  // listen (start-up target, decision 080); startProduct resolves once both are done.
  const seeding: Promise<Product['demoAccounts']> =
    config.demoData && !config.supabase ? seedDemo(adminClient(auth), database.db) : Promise.resolve([]);
  seeding.catch(() => {}); // awaited below; must not be reported unhandled if listening fails first

  let server: ServerType | undefined;
  let port = config.port;
  if (options.listen !== false) {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve(
        {
          fetch: app.fetch,
          port: config.port,
          hostname: config.host,
          // Security headers and prerendered pages answered by Node itself (decision 090).
          createServer: ((serverOptions: ServerOptions, listener: RequestListener) =>
            createServer(serverOptions, app.nodeListener(listener))) as typeof createServer,
        },
        (info) => {
          port = info.port;
          resolve(s);
        },
      );
      s.once('error', reject);
    });
  }
  let demoAccounts: Product['demoAccounts'];
  try {
    demoAccounts = await seeding;
  } catch (error) {
    if (server) await new Promise<void>((resolve) => server?.close(() => resolve()));
    throw error;
  }
  mail.start();
  const retention = startRetentionJob({ db: database.db, clock, auth });

  return {
    app,
    database,
    auth,
    url: config.port === 0 ? `http://localhost:${port}` : config.publicSiteUrl,
    port,
    demoAccounts,
    embedded: { auth: !config.supabase, mail: !config.smtpUrl },
    flushMail: () => mail.flush(),
    async close() {
      if (server) await new Promise<void>((resolve) => server?.close(() => resolve()));
      await retention.stop();
      await mail.stop();
      await embeddedSmtp?.close();
      if (!options.database) await database.close();
    },
  };
}
