import { refreshStaleStages } from '#bff/members/stage.ts';
import { refreshExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import type { Server as HttpServer } from 'node:http';
import type { SupabaseClient } from '@supabase/supabase-js';
import { join } from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { DestinationStream } from 'pino';
import { appSecurityHeaders, createApp, siteFilesOf } from '#bff/app.ts';
import { createAuthService } from '#bff/stand-ins/auth-service/auth-service.ts';
import { databaseCodeCounter, recordCodeCapReached } from '#bff/auth/code-caps.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { migrationSetsOf, sessionsTableOf } from '#bff/auth/sessions-table.ts';
import { adminClient, type AuthConnection } from '#bff/auth/supabase.ts';
import { type Clock, systemClock } from '#bff/clock.ts';
import type { Config } from '#bff/config.ts';
import { type Database, type Db, openDatabase } from '#bff/db/database.ts';
import { migrate } from '#bff/db/migrate.ts';
import { createLogger, log, setLogger } from '#bff/logger.ts';
import { seedDemoAgency } from '#bff/demo/agency.ts';
import { DEMO_AGENCY_ACCOUNTS } from '#bff/demo/cast.ts';
import { DEMO_ACCOUNTS, type DemoAccount, seedDemo } from '#bff/demo/seed.ts';
import { gatewayNamedClient, inProcessAuthGateway, publicAuthGateway } from '#bff/http/auth-gateway.ts';
import { clientAddress, createRateLimiter } from '#bff/http/rate-limit.ts';
import type { SecurityHeaderEntries } from '#bff/http/security-headers.ts';
import type { SiteFiles } from '#bff/site/site-files.ts';
import { startingGate } from '#bff/site/starting-gate.ts';
import { introductionMailDropReason } from '#bff/introductions/introduction-mail-drops.ts';
import { memberFirstName, scheduledMailDropReason } from '#bff/mail/agency-mail-triggers.ts';
import { createMailDispatcher } from '#bff/mail/dispatcher.ts';
import { startEmbeddedSmtp } from '#bff/mail/embedded-smtp.ts';
import { verifyRecordedPayment } from '#bff/payments/verify-payment.ts';
import { watchPayInFull } from '#bff/onboarding/plan-settings.ts';
import { agencyJobs } from '#bff/agency-jobs.ts';
import { refundGateway } from '#bff/payments/refunds.ts';
import { subscriptionGateway } from '#bff/payments/subscription-gateway.ts';
import { jobRegistry } from '#bff/scheduled-jobs.ts';
import { type AgencyClock, loadAgencyClock } from '#bff/stand-ins/agency-clock.ts';

export interface Product {
  app: ReturnType<typeof createApp>;
  database: Database;
  auth: AuthConnection;
  url: string;
  port: number;
  demoAccounts: DemoAccount[];
  embedded: { auth: boolean; mail: boolean };
  /** Sends pending mails now (tests use it to avoid waiting for the timer). */
  flushMail(): Promise<number>;
  /** The clock the agency's rules run on: outside production, the movable one of `/_local/clock` (decision 170). */
  clock: Clock;
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
  /** Where the log lines go (default stdout); tests capture them here (decision 107). */
  logDestination?: DestinationStream;
}

/**
 * Listens (by default), then opens the database, applies migrations, starts the embedded stand-ins
 * the configuration asks for and builds the app. Until the app is built, the starting gate answers
 * the prerendered pages from memory and holds every other request (`startingGate`, decisions 091
 * and 104). Shared by `server.ts`, the tests and the scripts.
 */
export async function startProduct(config: Config, options: StartOptions = {}): Promise<Product> {
  const clock = options.clock ?? systemClock;
  const clientDir = options.clientDir ?? join(import.meta.dirname, '..', 'dist', 'client');
  // Listen first (decision 091): the public pages are answered from memory while the database
  // opens; every other request is held until the product is ready.
  const site = siteFilesOf(clientDir, config);
  const security = await appSecurityHeaders(config);
  const listening = options.listen === false ? undefined : await listenEarly(config, site, security);
  // The logger (pino) is loaded once the server listens: the pages are answered meanwhile.
  setLogger(createLogger(config.logLevel, options.logDestination));
  if (listening) options.onListening?.(listening.port);
  try {
    return await startOn(config, options, { clock, clientDir, site, security, listening });
  } catch (error) {
    if (listening) {
      listening.gate.fail();
      await new Promise<void>((resolve) => listening.server.close(() => resolve()));
    }
    throw error;
  }
}

/** How long a stop waits for the answers in flight before it cuts the connections still open. */
const CLOSE_GRACE_MS = 5_000;

interface Listening {
  server: ServerType;
  port: number;
  gate: ReturnType<typeof startingGate>;
}

/** How long an idle keep-alive connection stays open (decision 104). */
const KEEP_ALIVE_MS = 65_000;

async function listenEarly(config: Config, site: SiteFiles | undefined, security: SecurityHeaderEntries): Promise<Listening> {
  const gate = startingGate({ securityHeaders: security, site });
  const { server, port } = await new Promise<{ server: ServerType; port: number }>((resolve, reject) => {
    const s = serve({ fetch: gate.fetch, port: config.port, hostname: config.host }, (info) => resolve({ server: s, port: info.port }));
    s.once('error', reject);
  });
  // Idle keep-alive connections stay open longer than a client or a reverse proxy keeps them
  // (nginx: 60 s): with Node's 5 s, a client reusing a connection as the server closes it gets
  // ECONNRESET (a red CI run: Playwright's request context, after 5 s of browser steps).
  const http = server as HttpServer; // `serve` without createServer: Node's HTTP/1.1 server
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  http.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return { server, port, gate };
}

async function startOn(
  config: Config,
  options: StartOptions,
  start: {
    clock: Clock;
    clientDir: string;
    site: SiteFiles | undefined;
    security: SecurityHeaderEntries;
    listening: Listening | undefined;
  },
): Promise<Product> {
  const { clientDir, site, security, listening } = start;
  await options.beforeDatabase;
  const database =
    options.database ??
    (await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : join(config.dataDir, 'pglite') }));
  await migrate(database, migrationSetsOf(config, authMigrations));
  // Migration 0045's companion: the stage of rows written before it (or without it), from their records.
  const staged = await refreshStaleStages(database.db);
  if (staged > 0) log.info('étapes des membres calculées', { members: staged });
  // Migration 0052's companion: the expected instalments of members marked by a write that did not store them.
  const expected = await refreshExpectedInstalments(database.db);
  if (expected > 0) log.info('mensualités attendues calculées', { members: expected });
  // Live payments with no way to refund or cancel them stop the start (issue 59); config.ts says it first.
  refundGateway(config);
  subscriptionGateway(config);
  // Outside production the agency's rules run on a clock a person or a test can move forward
  // (`/_local/clock`, decision 170); the embedded auth service (sessions, codes, links) keeps
  // the base clock, so that moving the agency's date signs nobody out.
  const baseClock = start.clock;
  const agencyClock: AgencyClock | undefined = config.nodeEnv === 'production' ? undefined : await loadAgencyClock(database.db, baseClock);
  const clock = agencyClock ?? baseClock;

  const embeddedSmtp = config.smtpUrl ? undefined : await startEmbeddedSmtp(database.db);
  const mail = createMailDispatcher({
    db: database.db,
    smtpUrl: config.smtpUrl ?? (embeddedSmtp?.url as string),
    from: config.mailFrom,
    clock,
    // A scheduled mail is sent only if it still applies when it goes (decision 191).
    dropReason: (queued, now) => introductionMailDropReason(database.db, queued) ?? scheduledMailDropReason(database.db, queued, now),
  });

  const rateLimit = createRateLimiter(database.db);
  let embeddedAuth: Hono | undefined;
  let auth: AuthConnection;
  if (config.supabase) {
    auth = { ...config.supabase, secureCookies: config.secureCookies, sessionsTable: sessionsTableOf(config) };
  } else {
    const service = await createAuthService({
      database,
      clock: baseClock,
      siteUrl: config.publicSiteUrl,
      // Its mails are the agency's: signed with its legal name, greeting the member by first name (decision 198).
      agency: config.agency,
      firstNameOf: memberFirstName,
      onMailQueued: () => mail.poke(),
      // The product is the service's gateway: it names every client (decision 101).
      clientAddress: gatewayNamedClient,
      // The day's six-digit codes counted in the database; a ceiling reached shows in the
      // member's history (decision 188).
      codeCaps: {
        counter: databaseCodeCounter(rateLimit),
        reached: (event) => recordCodeCapReached(database.db, clock, event),
      },
    });
    embeddedAuth = publicAuthGateway(service.app, config.trustProxy);
    // supabase-js reaches the embedded service in-process: same HTTP requests, no socket hop.
    const authHost = new Hono().route('/auth/v1', inProcessAuthGateway(service.app));
    auth = {
      url: config.publicSiteUrl,
      anonKey: service.anonKey,
      serviceRoleKey: service.serviceRoleKey,
      fetch: async (input, init) => authHost.fetch(new Request(input, init)),
      secureCookies: config.secureCookies,
      sessionsTable: sessionsTableOf(config),
      // The member's own address, so the service's per-address limits apply to them too.
      clientHeaders: (c) => ({ 'sb-forwarded-for': clientAddress(c, config.trustProxy) }),
    };
  }

  // The public pages follow the staff's pay-in-full setting (decision 106).
  const offers = site ? watchPayInFull(database.db, site) : undefined;
  // Every time-driven job in one registry (decision 170): on timers in real time, and all of
  // them, in order, on each move of the agency's clock.
  const jobs = jobRegistry(
    agencyJobs({
      config,
      db: database.db,
      clock,
      authClock: baseClock,
      auth,
      dispatch: (request: Request) => app.fetch(request),
      mailQueued: () => mail.poke(),
    }),
  );
  const app = createApp({
    config,
    securityHeaders: security,
    database,
    clock,
    auth,
    rateLimit,
    verifyPayment: verifyRecordedPayment,
    mailQueued: () => mail.poke(),
    payInFullChanged: (setting) => offers?.set(setting),
    embeddedAuth,
    localMailbox: !config.smtpUrl,
    agencyClock: agencyClock && { publicSiteUrl: config.publicSiteUrl, clock: agencyClock, jobs, flushMail: () => mail.flush() },
    clientDir,
    site,
  });

  // Independent of serving the site: the demo accounts are created while the server already
  // answers (start-up target, decisions 080 and 091); startProduct resolves once they are.
  // Then, once per data folder, the demo agency (issue 63, decision 207).
  const seeding: Promise<Product['demoAccounts']> =
    config.demoData && !config.supabase ? seedDemoData(config, adminClient(auth), database.db, clock) : Promise.resolve([]);

  const server = listening?.server;
  const port = listening?.port ?? config.port;
  // From now on every request goes through the product's app (decision 104).
  listening?.gate.ready(app);
  const demoAccounts = await seeding; // on failure, startProduct closes the server
  mail.start();
  // Under NODE_ENV=test time moves only when a test moves it, and the jobs with it (through
  // `/_local/clock`, or a test calling a job itself): no timer fires in the middle of a test.
  if (config.nodeEnv !== 'test') jobs.startTimers();

  return {
    app,
    database,
    auth,
    url: config.port === 0 ? `http://localhost:${port}` : config.publicSiteUrl,
    port,
    demoAccounts,
    embedded: { auth: !config.supabase, mail: !config.smtpUrl },
    flushMail: () => mail.flush(),
    clock,
    async close() {
      if (server) {
        // In-flight answers get a few seconds to finish; a connection still open then (a client
        // that stopped sending a body half-way) is cut, so a stop never hangs on a stranger.
        const cut = setTimeout(() => (server as HttpServer).closeAllConnections?.(), CLOSE_GRACE_MS);
        await new Promise<void>((resolve) => server?.close(() => resolve()));
        clearTimeout(cut);
      }
      offers?.stop();
      await jobs.stop();
      await mail.stop();
      await embeddedSmtp?.close();
      if (!options.database) await database.close();
    },
  };
}

/** The demo accounts, then the demo agency (once per data folder); answers what the start prints. */
async function seedDemoData(config: Config, admin: SupabaseClient, db: Db, clock: Clock): Promise<DemoAccount[]> {
  const accounts = await seedDemo(admin, db);
  if (!config.demoAgency) return accounts;
  const staff = DEMO_ACCOUNTS.filter((a) => a.kind === 'staff');
  const report = await seedDemoAgency(admin, db, config, {
    now: clock.now(),
    staffEmail: staff[0]?.email ?? '',
    counsellorEmail: staff[1]?.email ?? '',
  });
  if (report.seeded) log.info('Agence de démonstration créée', { membres: report.members, ms: report.ms });
  return [...accounts, ...DEMO_AGENCY_ACCOUNTS];
}
