import { createServerClient, parseCookieHeader, serializeCookieHeader } from '@supabase/ssr';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Context } from 'hono';
import type { SessionsTable } from '#bff/auth/sessions-table.ts';
import WebSocket from 'ws';

/** How the BFF reaches Supabase Auth: the hosted project, or the embedded service in-process. */
export interface AuthConnection {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Routes supabase-js requests; the embedded service is called in-process through its Hono app. */
  fetch?: typeof fetch;
  secureCookies: boolean;
  /** Where this Supabase Auth keeps its sessions, checked on every request (decision 100). */
  sessionsTable: SessionsTable;
  /**
   * Headers naming the member a request acts for, sent with each of the BFF's calls on their
   * behalf (embedded service: `sb-forwarded-for`, which only its in-process gateway trusts).
   */
  clientHeaders?: (c: Context) => Record<string, string>;
}

/**
 * supabase-js always builds a Realtime client, which needs a WebSocket; Node 20 has none built in.
 * The BFF never opens a Realtime channel: `ws` only satisfies the constructor.
 */
const realtime = { transport: WebSocket as unknown as typeof globalThis.WebSocket };

/** @supabase/ssr options of decisions §1: path /, SameSite lax, 400 days, HttpOnly, Secure off localhost. */
function cookieOptions(connection: AuthConnection) {
  return { path: '/', sameSite: 'lax' as const, httpOnly: true, secure: connection.secureCookies, maxAge: 400 * 24 * 60 * 60 };
}

/**
 * A supabase-js client bound to one request: it reads the session from the request's cookies and
 * writes refreshed or cleared sessions back as Set-Cookie headers (chunked at 3180 characters by
 * @supabase/ssr). Never shared between requests.
 */
export function requestClient(c: Context, connection: AuthConnection): SupabaseClient {
  return createServerClient(connection.url, connection.anonKey, {
    cookieOptions: cookieOptions(connection),
    global: { ...(connection.fetch ? { fetch: connection.fetch } : {}), headers: connection.clientHeaders?.(c) ?? {} },
    realtime,
    cookies: {
      getAll: () => parseCookieHeader(c.req.header('cookie') ?? '').map(({ name, value }) => ({ name, value: value ?? '' })),
      setAll: (cookies, headers) => {
        for (const { name, value, options } of cookies) {
          c.header('Set-Cookie', serializeCookieHeader(name, value, options), { append: true });
        }
        for (const [key, value] of Object.entries(headers ?? {})) c.header(key, value);
      },
    },
  });
}

/** A client that keeps nothing: recovery requests and one-off verifications, for the request `c`. */
export function statelessClient(connection: AuthConnection, c?: Context): SupabaseClient {
  return createClient(connection.url, connection.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false, flowType: 'implicit' },
    global: {
      ...(connection.fetch ? { fetch: connection.fetch } : {}),
      headers: (c && connection.clientHeaders?.(c)) ?? {},
    },
    realtime,
  });
}

/** The service-role client for admin calls (create, ban, delete users). Server-side only. */
export function adminClient(connection: AuthConnection): SupabaseClient {
  return createClient(connection.url, connection.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: connection.fetch ? { fetch: connection.fetch } : {},
    realtime,
  });
}
