import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { accountRoutes } from '#bff/api/account-routes.ts';
import { authRoutes } from '#bff/api/auth-routes.ts';
import { dashboardRoutes } from '#bff/api/dashboard-routes.ts';
import type { ApiDeps } from '#bff/api/deps.ts';
import { publicRoutes } from '#bff/api/public-routes.ts';
import { staffRoutes } from '#bff/api/staff-routes.ts';
import { teamRoutes } from '#bff/api/team-routes.ts';
import { userRoutes } from '#bff/api/user-routes.ts';
import { bookingRoutes } from '#bff/booking/booking-routes.ts';
import { calendlyWebhookRoutes } from '#bff/booking/calendly-webhook.ts';
import { contractRoutes } from '#bff/contract/contract-routes.ts';
import { privacyRoutes } from '#bff/privacy/privacy-routes.ts';
import { paymentLinkRoutes } from '#bff/payments/payment-link-routes.ts';
import { stripeWebhookRoutes } from '#bff/payments/stripe-webhook.ts';
import { ApiError } from '#bff/http/errors.ts';
import { sameOriginWrites } from '#bff/http/same-origin.ts';
import { refuseMalformedText } from '#bff/http/validate.ts';

const limitBody = bodyLimit({
  maxSize: 256 * 1024,
  onError: () => {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Requête trop volumineuse');
  },
});

/** The product API of the spec (§7), mounted at /api/v1. Its type is what the SPA's client sees. */
export function createApi(deps: ApiDeps) {
  const sameOrigin = sameOriginWrites(deps.config.publicSiteUrl, ['/api/v1/webhooks/']);
  return (
    new Hono()
      // One middleware in Hono's chain for the three guards (each level of the chain is one more
      // promise per request). A GET or HEAD carries no body (reading `body` would build a whole
      // WHATWG Request for nothing) and is no write: only its query is checked.
      .use((c, next) =>
        c.req.method === 'GET' || c.req.method === 'HEAD'
          ? refuseMalformedText(c, next)
          : limitBody(c, async () => {
              // Both only go on or throw: neither answers by itself.
              await refuseMalformedText(c, async () => {
                await sameOrigin(c, next);
              });
            }),
      )
      .get('/health', async (c) => {
        await deps.database.query('SELECT 1');
        c.header('Cache-Control', 'no-store');
        return c.json({ status: 'ok' as const, database: deps.database.kind }, 200);
      })
      .route('/', authRoutes(deps))
      .route('/', userRoutes(deps))
      .route('/', accountRoutes(deps))
      .route('/', staffRoutes(deps))
      .route('/', dashboardRoutes(deps))
      .route('/', teamRoutes(deps))
      .route('/', publicRoutes(deps))
      .route('/', paymentLinkRoutes(deps))
      .route('/', stripeWebhookRoutes(deps))
      .route('/', bookingRoutes(deps))
      .route('/', calendlyWebhookRoutes(deps))
      .route('/', contractRoutes(deps))
      .route('/', privacyRoutes(deps))
    // No `onError` here: the app's own (`createApp`, the same `onApiError`) answers for these
    // routes. A sub-app with one has every handler wrapped in one more compose and promise.
  );
}
