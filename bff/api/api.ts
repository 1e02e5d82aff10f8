import { accessJournalRoutes } from '#bff/api/access-journal.ts';
import { Hono } from 'hono';
import { declaredBodyLimit } from '#bff/http/body-limit.ts';
import { accountRoutes } from '#bff/api/account-routes.ts';
import { agendaRoutes } from '#bff/api/agenda-routes.ts';
import { authRoutes } from '#bff/api/auth-routes.ts';
import { dashboardRoutes } from '#bff/api/dashboard-routes.ts';
import { guardianRoutes } from '#bff/api/guardian-routes.ts';
import { memberAnswersRoutes } from '#bff/api/member-answers-routes.ts';
import { introductionRoutes } from '#bff/api/introduction-routes.ts';
import { leadsRoutes } from '#bff/api/leads-routes.ts';
import { memberFileRoutes } from '#bff/api/member-file-routes.ts';
import { memberFollowUpRoutes } from '#bff/api/member-follow-up-routes.ts';
import { messageRoutes } from '#bff/api/message-routes.ts';
import { limitPhotoBody, PHOTO_UPLOAD_PATH, photoRoutes } from '#bff/api/photo-routes.ts';
import { isProofUploadPath, limitProofBody, terminationRoutes } from '#bff/api/termination-routes.ts';
import type { ApiDeps } from '#bff/api/deps.ts';
import { publicRoutes } from '#bff/api/public-routes.ts';
import { staffRoutes } from '#bff/api/staff-routes.ts';
import { staffInvitationRoutes } from '#bff/api/staff-invitation-routes.ts';
import { teamRoutes } from '#bff/api/team-routes.ts';
import { todayRoutes } from '#bff/api/today-routes.ts';
import { userRoutes } from '#bff/api/user-routes.ts';
import { bookingRoutes } from '#bff/api/booking-routes.ts';
import { calendlyWebhookRoutes } from '#bff/api/calendly-webhook.ts';
import { contractRoutes } from '#bff/api/contract-routes.ts';
import { invoiceRoutes } from '#bff/api/invoice-routes.ts';
import { billingRoutes } from '#bff/api/billing-routes.ts';
import { privacyRoutes } from '#bff/api/privacy-routes.ts';
import { paymentLinkRoutes } from '#bff/api/payment-link-routes.ts';
import { stripeWebhookRoutes } from '#bff/api/stripe-webhook.ts';
import { ApiError, errorBody } from '#bff/http/errors.ts';
import { requestIdOf } from '#bff/http/request-log.ts';
import { log } from '#bff/logger.ts';
import { sameOriginWrites } from '#bff/http/same-origin.ts';
import { refuseMalformedText } from '#bff/http/validate.ts';

const limitBody = declaredBodyLimit({
  maxSize: 256 * 1024,
  onError: () => {
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Requête trop volumineuse');
  },
});

/** How long readiness waits for the database's answer (the health checks time out at 5 s). */
export const READY_TIMEOUT_MS = 2_000;

/** null when the database answers `SELECT 1` in time, else why not. */
async function databaseAnswers(deps: ApiDeps): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pas de réponse en ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([deps.database.query('SELECT 1'), timeout]);
    return null;
  } catch (error) {
    return error ?? new Error('échec');
  } finally {
    clearTimeout(timer);
  }
}

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
          : // A photo upload may be 8 MB (decision 116), a termination's proof 5 MB (decision 189); every other body 256 kB.
            (c.req.method === 'POST' && c.req.path === PHOTO_UPLOAD_PATH
              ? limitPhotoBody
              : c.req.method === 'POST' && isProofUploadPath(c.req.path)
                ? limitProofBody
                : limitBody)(c, async () => {
              // Both only go on or throw: neither answers by itself.
              await refuseMalformedText(c, async () => {
                await sameOrigin(c, next);
              });
            }),
      )
      // Liveness (decision 107): the process answers; no database call, so a database outage does
      // not get a healthy process restarted.
      .get('/health', (c) => {
        c.header('Cache-Control', 'no-store');
        return c.json({ status: 'ok' as const }, 200);
      })
      // Readiness: the database answers a trivial query within READY_TIMEOUT_MS, else 503.
      .get('/ready', async (c) => {
        c.header('Cache-Control', 'no-store');
        const failure = await databaseAnswers(deps);
        if (failure === null) return c.json({ status: 'ready' as const, database: deps.database.kind }, 200);
        log.warn('pas prêt : la base de données ne répond pas', { reqId: requestIdOf(c), err: failure });
        c.header('Retry-After', '5');
        return c.json(
          errorBody('SERVICE_UNAVAILABLE', 'Service pas encore prêt : la base de données ne répond pas. Réessayez dans un instant.', {
            requestId: requestIdOf(c),
          }),
          503,
        );
      })
      .route('/', authRoutes(deps))
      .route('/', userRoutes(deps))
      .route('/', accountRoutes(deps))
      .route('/', staffRoutes(deps))
      .route('/', dashboardRoutes(deps))
      .route('/', messageRoutes(deps))
      .route('/', teamRoutes(deps))
      .route('/', staffInvitationRoutes(deps))
      .route('/', leadsRoutes(deps))
      .route('/', memberFollowUpRoutes(deps))
      .route('/', memberFileRoutes(deps))
      .route('/', introductionRoutes(deps))
      .route('/', guardianRoutes(deps))
      .route('/', memberAnswersRoutes(deps))
      .route('/', photoRoutes(deps))
      .route('/', terminationRoutes(deps))
      .route('/', agendaRoutes(deps))
      .route('/', todayRoutes(deps))
      .route('/', publicRoutes(deps))
      .route('/', paymentLinkRoutes(deps))
      .route('/', stripeWebhookRoutes(deps))
      .route('/', bookingRoutes(deps))
      .route('/', calendlyWebhookRoutes(deps))
      .route('/', contractRoutes(deps))
      .route('/', invoiceRoutes(deps))
      .route('/', billingRoutes(deps))
      .route('/', privacyRoutes(deps))
      .route('/', accessJournalRoutes(deps))
    // No `onError` here: the app's own (`createApp`, the same `onApiError`) answers for these
    // routes. A sub-app with one has every handler wrapped in one more compose and promise.
  );
}
