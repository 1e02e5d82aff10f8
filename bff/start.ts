import { createServer, type RequestListener, type ServerOptions } from 'node:http';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { appSecurityHeaders, createApp, siteFilesOf } from '#bff/app.ts';
import { createAuthService } from '#bff/auth-service/auth-service.ts';
import { authMigrations } from '#bff/auth-service/migrations.ts';
import { adminClient, type AuthConnection } from '#bff/auth/supabase.ts';
import { type Clock, systemClock } from '#bff/clock.ts';
import type { Config } from '#bff/config.ts';
import { type Database, openDatabase } from '#bff/db/database.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import { type DEMO_ACCOUNTS, seedDemo } from '#bff/demo/seed.ts';
import { keepTickShape } from '#bff/http/keep-tick-shape.ts';
import { createRateLimiter } from '#bff/http/rate-limit.ts';
import type { SiteFiles } from '#bff/http/site-pages.ts';
import { startingListener } from '#bff/http/starting-listener.ts';
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
  /** Awaited after the server listens and before the database opens (server.ts: the PGlite template copy). */
  beforeDatabase?: Promise<unknown>;
  /** Called once the server listens, before the database opens (tests and the start-up log). */
  onListening?: (port: number) => void;
}

/**
 * Listens (by default), then opens the database, applies migrations, starts the embedded stand-ins
 * the configuration asks for and builds the app. Until the app is built, Node's listener answers
 * the prerendered pages from memory and holds every other request (`startingListener`, decision
 * 095). Shared by `server.ts`, the tests and the scripts.
 */
export async function startProduct(config: Config, options: StartOptions = {}): Promise<Product> {
  const clock = options.clock ?? systemClock;
  const clientDir = options.clientDir ?? join(import.meta.dirname, '..', 'dist', 'client');
  // Node 20's tick objects keep their hidden classes, or every nextTick turns slow (decision 099).
  keepTickShape();
  // Listen first (decision 095): the public pages are answered from memory while the database
  // opens; every other request is held until the product is ready.
  const site = siteFilesOf(clientDir, config);
  const listening = options.listen === false ? undefined : await listenEarly(config, site);
  if (listening) options.onListening?.(listening.port);
  try {
    return await startOn(config, options, { clock, clientDir, site, listening });
  } catch (error) {
    if (listening) {
      listening.gate.fail();
      await new Promise<void>((resolve) => listening.server.close(() => resolve()));
    }
    throw error;
  }
}

interface Listening {
  server: ServerType;
  port: number;
  gate: ReturnType<typeof startingListener>;
  /** Hono's own request listener (from `serve`), for the product's listener once it is built. */
  honoListener: RequestListener;
  /** The app `serve`'s fetch reaches, once built. */
  setApp(app: ReturnType<typeof createApp>): void;
}

async function listenEarly(config: Config, site: SiteFiles | undefined): Promise<Listening> {
  const gate = startingListener({ securityHeaders: appSecurityHeaders(config), site });
  let app: ReturnType<typeof createApp> | undefined;
  let honoListener: RequestListener | undefined;
  const { server, port } = await new Promise<{ server: ServerType; port: number }>((resolve, reject) => {
    const s = serve(
      {
        // Reached only through the gate's `ready` listener, so never before the app exists.
        fetch: (request, env) => (app as ReturnType<typeof createApp>).fetch(request, env),
        port: config.port,
        hostname: config.host,
        // Security headers and prerendered pages answered by Node itself (decision 090).
        createServer: ((serverOptions: ServerOptions, listener: RequestListener) => {
          honoListener = listener;
          return createServer(serverOptions, gate.listener);
        }) as typeof createServer,
      },
      (info) => resolve({ server: s, port: info.port }),
    );
    s.once('error', reject);
  });
  return {
    server,
    port,
    gate,
    honoListener: honoListener as RequestListener,
    setApp(built) {
      app = built;
    },
  };
}

async function startOn(
  config: Config,
  options: StartOptions,
  { clock, clientDir, site, listening }: { clock: Clock; clientDir: string; site: SiteFiles | undefined; listening: Listening | undefined },
): Promise<Product> {
  await options.beforeDatabase;
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
    clientDir,
    site,
  });

  // Independent of serving the site: the demo accounts are created while the server already
  // answers (start-up target, decisions 080 and 095); startProduct resolves once they are.
  const seeding: Promise<Product['demoAccounts']> =
    config.demoData && !config.supabase ? seedDemo(adminClient(auth), database.db) : Promise.resolve([]);

  const server = listening?.server;
  const port = listening?.port ?? config.port;
  if (listening) {
    listening.setApp(app);
    const productListener = app.nodeListener(listening.honoListener);
    listening.gate.ready(productListener);
    // From now on Node calls the product's listener itself: no start-up indirection per request.
    listening.server.off('request', listening.gate.listener).on('request', productListener);
  }
  const demoAccounts = await seeding; // on failure, startProduct closes the server
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
