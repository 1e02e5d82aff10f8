import { type Context, Hono } from 'hono';
import { declaredBodyLimit } from '#bff/http/body-limit.ts';
import { refuseUnstorableText } from '#bff/http/validate.ts';
import type { JWK } from 'jose';
import type { Clock } from '#bff/clock.ts';
import type { Database } from '#bff/db/database.ts';
import { adminFactorRoutes } from '#bff/stand-ins/auth-service/admin-factor-routes.ts';
import { adminRoutes } from '#bff/stand-ins/auth-service/admin-routes.ts';
import type { AuthDeps, Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { type AgencyIdentity, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { discoveryRoutes } from '#bff/stand-ins/auth-service/discovery-routes.ts';
import { AuthApiError, errors, renderAuthError } from '#bff/stand-ins/auth-service/errors.ts';
import { loadSigningKey } from '#bff/stand-ins/auth-service/keys.ts';
import { mfaRoutes } from '#bff/stand-ins/auth-service/mfa-routes.ts';
import { createRateLimits, type LimitName, type WindowSpec } from '#bff/stand-ins/auth-service/rate-limit.ts';
import { tokenRoutes } from '#bff/stand-ins/auth-service/token-routes.ts';
import { type CodeCapOptions, createCodeCaps } from '#bff/stand-ins/auth-service/code-caps.ts';
import { userRoutes } from '#bff/stand-ins/auth-service/user-routes.ts';
import { log } from '#bff/logger.ts';

/** The largest request body the service reads (GoTrue's own limit is of the same order). */
const MAX_BODY_BYTES = 64 * 1024;

/** GoTrue's default naming of the client: the first value of the gateway's `sb-forwarded-for`. */
function forwardedFor(c: Context): string | undefined {
  const value = c.req.header('sb-forwarded-for')?.split(',')[0]?.trim();
  return value ? value : undefined;
}

export interface AuthServiceOptions {
  database: Database;
  clock: Clock;
  /** Public site address, e.g. http://localhost:3000 (issuer host, redirects, mail links). */
  siteUrl: string;
  /** JWT `iss`, default `${siteUrl}/auth/v1`. */
  issuer?: string;
  /** Access-token lifetime, default 3600. */
  jwtExpirySeconds?: number;
  /** Called after a mail was committed to the outbox (to poke the dispatcher). */
  onMailQueued?: () => void;
  /**
   * Names the client for the per-IP limits, as GoTrue's gateway does with its rate-limit header.
   * Default: the first value of `sb-forwarded-for`, trusted as sent — right only behind a gateway
   * that sets it. The product is that gateway (`gatewayClientAddress` in bff/start.ts): it takes
   * the address from the connection, so no client can name itself (decision 101).
   */
  clientAddress?: (c: Context) => string | undefined;
  /** GoTrue's DISABLE_SIGNUP (default true): members are created by the BFF through the admin API. */
  disableSignup?: boolean;
  /** Lifetime of e-mail links and codes, default 3600 s. */
  otpExpirySeconds?: number;
  /** Origins besides the site's that `redirect_to` may name (otherwise the default is used). */
  redirectOrigins?: string[];
  /** Name used in the mails, default 'Union Sincère'. */
  siteName?: string;
  /** The agency whose legal name signs the mails and whose identity is their footer (default: the demo identity). */
  agency?: AgencyIdentity;
  /** The first name the product holds for an account, for the mails' greeting (decision 198). */
  firstNameOf?: (exec: Executor, userId: string) => Promise<string | null>;
  /** Overrides of the rate limits (tests, or a deployment that needs other numbers). */
  rateLimits?: Partial<Record<LimitName, WindowSpec>>;
  /**
   * The daily ceiling of six-digit codes per account (decision 188): its numbers, where the counts
   * are kept (in memory by default) and who is told when one is reached.
   */
  codeCaps?: CodeCapOptions;
}

export interface AuthService {
  /** Mount at `/auth/v1`: `app.route('/auth/v1', service.app)`. */
  app: Hono;
  /** JWT with role `anon`, the key supabase-js is created with. */
  anonKey: string;
  /** JWT with role `service_role`, for `auth.admin`. Server-side only. */
  serviceRoleKey: string;
  /** The public signing key set (also served at `/auth/v1/.well-known/jwks.json`). */
  jwks: { keys: JWK[] };
}

/**
 * The embedded auth service: a faithful subset of the Supabase Auth (GoTrue) HTTP API that the
 * real supabase-js client drives unchanged. Loads (or creates, once) the ES256 signing key kept
 * in the database, so every instance sharing the database signs and verifies alike.
 */
export async function createAuthService(options: AuthServiceOptions): Promise<AuthService> {
  const siteUrl = options.siteUrl.replace(/\/+$/, '');
  const issuer = options.issuer ?? `${siteUrl}/auth/v1`;
  const key = await loadSigningKey(options.database.db, options.clock, issuer);
  const deps: AuthDeps = {
    db: options.database.db,
    clock: options.clock,
    key,
    limits: createRateLimits(options.clock, options.rateLimits),
    codeCaps: createCodeCaps(options.clock, options.codeCaps),
    config: {
      siteUrl,
      apiUrl: `${siteUrl}/auth/v1`,
      issuer,
      jwtExpirySeconds: options.jwtExpirySeconds ?? 3600,
      otpExpirySeconds: options.otpExpirySeconds ?? 3600,
      clientAddress: options.clientAddress ?? forwardedFor,
      disableSignup: options.disableSignup ?? true,
      redirectOrigins: (options.redirectOrigins ?? []).map((origin) => new URL(origin).origin),
      siteName: options.siteName ?? 'Union Sincère',
      mailSite: { siteUrl, agency: options.agency ?? DEMO_AGENCY_IDENTITY },
    },
    firstNameOf: options.firstNameOf,
    mailQueued: () => {
      try {
        options.onMailQueued?.();
      } catch (error) {
        log.error('service d’authentification : onMailQueued a échoué', { err: error });
      }
    },
  };

  const app = new Hono();
  app.onError((error, c) => renderAuthError(error, c));
  // Refused while it streams, by its Content-Length or by the bytes counted: never read whole.
  app.use(
    declaredBodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AuthApiError(413, 'request_entity_too_large', 'Request body too large');
      },
    }),
  );
  // A NUL or a lone surrogate in a query or a body would reach PostgreSQL (a token hash, a refresh
  // token, an auth code are looked up as given) and fail there: refused first, as GoTrue's 400.
  app.use(
    refuseUnstorableText(() => errors.validation('Invalid request: text holds characters that cannot be stored (NUL or lone surrogate)'), {
      anyBody: true,
    }),
  );
  app.route('/', discoveryRoutes(deps));
  app.route('/', tokenRoutes(deps));
  app.route('/', userRoutes(deps));
  app.route('/', mfaRoutes(deps));
  app.route('/', adminFactorRoutes(deps));
  app.route('/', adminRoutes(deps));
  app.all('*', () => {
    throw new AuthApiError(404, 'not_found', 'Not Found');
  });

  return { app, anonKey: key.anonKey, serviceRoleKey: key.serviceRoleKey, jwks: { keys: [key.publicJwk] } };
}
