import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { asc } from 'drizzle-orm';
import { Hono } from 'hono';
import { fakeClock } from '#bff/clock.ts';
import type { Database } from '#bff/db/database.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { type AuthService, type AuthServiceOptions, createAuthService } from '#bff/stand-ins/auth-service/auth-service.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

export const SITE_URL = 'http://localhost:3000';

interface SeenRequest {
  method: string;
  path: string;
}

/**
 * For the service's own tests: a fresh migrated database, the service mounted at `/auth/v1` in
 * a parent app served over a real socket, a fake clock starting now (supabase-js reads the real
 * one), and real supabase-js clients pointed at it that record every request they send.
 */
export interface AuthHarness {
  url: string;
  service: AuthService;
  database: Database;
  clock: ReturnType<typeof fakeClock>;
  /** Every request the clients made, in order. */
  requests: SeenRequest[];
  mailsQueued: number;
  /** A client with the anon key (no session persisted beyond memory, no auto refresh). */
  client(options?: { headers?: Record<string, string>; flowType?: 'implicit' | 'pkce' }): SupabaseClient;
  /** A client with the service-role key, for `auth.admin`. */
  admin(): SupabaseClient;
  /** Raw call to the service, with the given key as Bearer unless `authorization` is given. */
  call(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  outbox(): Promise<(typeof mailOutbox.$inferSelect)[]>;
  close(): Promise<void>;
}

export async function startAuthHarness(options: Partial<Omit<AuthServiceOptions, 'database' | 'clock'>> = {}): Promise<AuthHarness> {
  const database = await openTestDatabase([authMigrations]);
  const clock = fakeClock(new Date());
  const harness = { mailsQueued: 0 } as AuthHarness;
  const service = await createAuthService({
    siteUrl: SITE_URL,
    // The wire tests drive GoTrue's public sign-up; the product keeps it closed (decision 101).
    disableSignup: false,
    ...options,
    database,
    clock,
    onMailQueued: () => {
      harness.mailsQueued += 1;
    },
  });
  const parent = new Hono().route('/auth/v1', service.app);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: parent.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const requests: SeenRequest[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    requests.push({ method: request.method, path: new URL(request.url).pathname });
    return fetch(request);
  };
  const clientWith = (key: string, headers: Record<string, string> = {}, flowType: 'implicit' | 'pkce' = 'implicit') =>
    createClient(url, key, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType },
      global: { fetch: recordingFetch, headers },
      // supabase-js always builds a Realtime client, which wants a WebSocket (Node 20 has none);
      // these tests never open one.
      realtime: { transport: NoWebSocket as unknown as typeof globalThis.WebSocket },
    });

  return Object.assign(harness, {
    url,
    service,
    database,
    clock,
    requests,
    client: (opts: { headers?: Record<string, string>; flowType?: 'implicit' | 'pkce' } = {}) =>
      clientWith(service.anonKey, opts.headers, opts.flowType),
    admin: () => clientWith(service.serviceRoleKey),
    call: (path: string, init: RequestInit & { key?: string } = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization')) headers.set('authorization', `Bearer ${init.key ?? service.anonKey}`);
      if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
      return fetch(`${url}/auth/v1${path}`, { ...init, headers, redirect: 'manual' });
    },
    outbox: () => database.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id)),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database.close();
    },
  });
}

class NoWebSocket {
  constructor() {
    throw new Error('Realtime is not used by the auth service tests');
  }
}

/** A unique address per call, so tests sharing a database never collide. */
let counter = 0;
export function uniqueEmail(prefix = 'membre'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.fr`;
}
