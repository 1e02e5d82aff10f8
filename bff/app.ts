import { existsSync } from 'node:fs';
import { type Context, Hono } from 'hono';
import { authenticate } from '#bff/auth/guards.ts';
import { createApi } from '#bff/api/api.ts';
import { PHOTO_UPLOAD_PATH } from '#bff/api/photo-routes.ts';
import { PROOF_UPLOAD_PATHS } from '#bff/api/termination-routes.ts';
import type { ApiDeps } from '#bff/api/deps.ts';
import { errorBody, onApiError } from '#bff/http/errors.ts';
import { requestIdOf, requestLog } from '#bff/http/request-log.ts';
import { localOnlyInProduction, requestBodyLimit } from '#bff/http/request-limits.ts';
import { type SecurityHeaderEntries, securityHeaderEntries, securityHeaders } from '#bff/http/security-headers.ts';
import { loadSiteFiles, type SiteFiles } from '#bff/site/site-files.ts';
import { prerenderedPages, sitePages } from '#bff/site/site-pages.ts';
import { imageRoutes } from '#bff/images/image-route.ts';
import { clientAddress } from '#bff/http/rate-limit.ts';
import { bookingEmbedded } from '#bff/booking/calendly-settings.ts';
import { paymentsEmbedded } from '#bff/payments/stripe-settings.ts';
import { bookingStandIn } from '#bff/stand-ins/booking-stand-in.ts';
import { checkoutStandIn } from '#bff/stand-ins/checkout-stand-in.ts';
import { type ClockRouteDeps, clockPage } from '#bff/stand-ins/clock-page.ts';
import { instalmentStandIn } from '#bff/stand-ins/instalment-stand-in.ts';
import { mailboxPage } from '#bff/stand-ins/mailbox-page.ts';
import { standInAssets } from '#bff/stand-ins/stand-in-layout.ts';

export interface AppOptions extends ApiDeps {
  /** The embedded auth service's Hono app, mounted at /auth/v1 (absent with a hosted project). */
  embeddedAuth?: Hono | undefined;
  /** Serve the local mailbox page (embedded mail stand-in). */
  localMailbox?: boolean;
  /** The agency's movable clock at /_local/clock (outside production only, decision 170). */
  agencyClock?: ClockRouteDeps | undefined;
  /** Folder of the built SPA (`dist/client`); absent in API-only tests. */
  clientDir?: string | undefined;
  /** The built site already read from `clientDir` (`siteFilesOf`), when the server listened first. */
  site?: SiteFiles | undefined;
  /** The security headers of every answer (`appSecurityHeaders`), made once at start-up. */
  securityHeaders: SecurityHeaderEntries;
}

/** The security headers of every response, from the configuration. */
export function appSecurityHeaders(config: AppOptions['config']): Promise<SecurityHeaderEntries> {
  return securityHeaderEntries({
    gtmId: config.gtmId,
    calendlyOrigin: config.calendlyUrl ? new URL(config.calendlyUrl).origin : undefined,
    https: config.secureCookies,
  });
}

/** The built SPA in `clientDir`, read into memory, or undefined when there is none. */
export function siteFilesOf(clientDir: string | undefined, config: AppOptions['config']): SiteFiles | undefined {
  return clientDir && existsSync(clientDir)
    ? loadSiteFiles({ clientDir, publicSiteUrl: config.publicSiteUrl, agency: config.agency, social: config.social })
    : undefined;
}

/**
 * Assembles the whole product from its dependencies: security headers, the embedded stand-ins,
 * the product API, and the built SPA. `server.ts` only starts it; tests call it in-process.
 */
export function createApp(options: AppOptions) {
  const app = new Hono();
  // One request path (decision 104): every request goes through this chain, from the first.
  // A prerendered public page is answered from memory at once, stored whole with its security
  // headers (as a CDN would, decision 133); every other answer gets them from the next middleware.
  const security = options.securityHeaders;
  const site = options.site ?? siteFilesOf(options.clientDir, options.config);
  if (site) app.use(prerenderedPages(site, security));
  app.use(securityHeaders(security));
  // Then a request id and one log line per request (decision 107).
  app.use(requestLog({ trustProxy: options.config.trustProxy }));
  // One body-size limit in front of every route, stand-ins included (issue 60).
  app.use(requestBodyLimit([PHOTO_UPLOAD_PATH, ...PROOF_UPLOAD_PATHS]));
  app.use('/_local/*', localOnlyInProduction(options.config.nodeEnv === 'production'));
  if (options.embeddedAuth) app.route('/auth/v1', options.embeddedAuth);
  if (options.localMailbox) app.route('/_local/mailbox', mailboxPage(options.database.db));
  // Payment and scheduling stand-ins post their signed webhooks through this same app (in-process).
  const standIn = {
    config: options.config,
    db: options.database.db,
    clock: options.clock,
    dispatch: (request: Request) => app.fetch(request),
  };
  if (paymentsEmbedded(options.config) || bookingEmbedded(options.config) || options.agencyClock) app.route('/_local', standInAssets());
  if (options.agencyClock) app.route('/_local', clockPage(options.agencyClock));
  if (paymentsEmbedded(options.config)) app.route('/_local', checkoutStandIn(standIn));
  if (paymentsEmbedded(options.config)) app.route('/_local', instalmentStandIn(standIn));
  if (bookingEmbedded(options.config)) app.route('/_local', bookingStandIn(standIn));
  app.route('/api/v1', createApi(options));
  app.route(
    '/',
    imageRoutes({
      dataDir: options.config.dataDir,
      clientDir: options.clientDir,
      clientAddress: (c) => clientAddress(c, options.config.trustProxy),
    }),
  );
  app.all('/api/*', (c) => c.json(errorBody('NOT_FOUND', 'Ressource introuvable', { requestId: requestIdOf(c) }), 404));

  // The built SPA: the member/staff shell, files, and HTTP 404 for unknown paths.
  // A member's file names its two staff-only answers in its Link header, to staff at aal2 only (decision 160).
  const staffSession = async (c: Context) => {
    const caller = await authenticate(c, options);
    return caller?.role === 'staff' && caller.aal === 'aal2';
  };
  if (site) app.route('/', sitePages(site, { mayPreloadData: staffSession }));
  app.onError(onApiError);
  return app;
}
