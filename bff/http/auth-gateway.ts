import type { Context, Hono } from 'hono';
import { Hono as HonoApp } from 'hono';
import { clientAddress } from '#bff/http/rate-limit.ts';

/**
 * The product is the gateway of its embedded auth service (issue 19, decision 101). GoTrue keys
 * its per-address limits on the client its gateway names; with nothing playing that gateway, a
 * direct caller had no limit at all, and could name itself with `sb-forwarded-for`.
 *
 * - From outside (`/auth/v1` on the product's socket), the client is the connection's address,
 *   or the first `X-Forwarded-For` hop only with TRUST_PROXY; any `sb-forwarded-for` it sends is
 *   ignored.
 * - In-process, the BFF's own supabase-js calls name the member they act for in
 *   `sb-forwarded-for` (`AuthConnection.clientHeaders`); that path has no socket and no outside
 *   caller can reach it.
 */
const CLIENT = 'authClientAddress';

/** The service option that reads the name the gateway gave (`createAuthService({ clientAddress })`). */
export function gatewayNamedClient(c: Context): string | undefined {
  const value: unknown = c.get(CLIENT as never);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function behindGateway(service: Hono, nameClient: (c: Context) => string | undefined): Hono {
  return new HonoApp()
    .use(async (c, next) => {
      c.set(CLIENT as never, nameClient(c) as never);
      await next();
    })
    .route('/', service);
}

/** What the product mounts at `/auth/v1` for outside callers. */
export function publicAuthGateway(service: Hono, trustProxy: number): Hono {
  return behindGateway(service, (c) => clientAddress(c, trustProxy));
}

/** What the BFF's supabase-js reaches in-process: the member's address, as the BFF names it. */
export function inProcessAuthGateway(service: Hono): Hono {
  return behindGateway(service, (c) => c.req.header('sb-forwarded-for')?.split(',')[0]?.trim());
}
