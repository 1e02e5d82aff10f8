import { randomBytes } from 'node:crypto';
import { stripeLibrary } from '#bff/payments/stripe-library.ts';
import { stripeWebhookSecret } from '#bff/payments/stripe-settings.ts';
import type { Clock } from '#bff/clock.ts';
import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';

/** What the Stripe stand-ins share: ids in Stripe's alphabet, a test-mode event around an object, its signed delivery. */

/** What the stand-ins need of the product. */
export interface StandInDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The product app's own fetch: webhooks reach exactly the production handler. */
  dispatch: (request: Request) => Response | Promise<Response>;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `prefix` and `length` random letters and digits, like Stripe's ids (`evt_…`, `cs_test_…`). */
export function randomId(prefix: string, length = 24): string {
  return prefix + Array.from(randomBytes(length), (b) => ALNUM[b % ALNUM.length]).join('');
}

/** A test-mode Stripe event of `type` carrying `object`, created at `created` (Unix seconds). */
export async function stripeTestEvent(type: string, object: unknown, created: number) {
  return {
    id: randomId('evt_'),
    object: 'event',
    api_version: (await stripeLibrary()).API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** Signs an event with the stand-in's webhook secret and posts it to the product's webhook. */
export async function deliverStripeEvent(deps: StandInDeps, event: unknown): Promise<Response> {
  const payload = JSON.stringify(event, null, 2);
  const secret = await stripeWebhookSecret(deps.config, deps.db);
  const signature = (await stripeLibrary()).webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: Math.floor(deps.clock.now().getTime() / 1000),
  });
  return deps.dispatch(
    new Request(`${deps.config.publicSiteUrl}/api/v1/webhooks/stripe`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
    }),
  );
}
