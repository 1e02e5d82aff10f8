import { log } from '#bff/logger.ts';
import { lazyStripeClient } from '#bff/payments/stripe-library.ts';
import { type GatewayConfig, refuseStandInGateway } from '#bff/payments/stripe-settings.ts';

/**
 * Stopping a monthly plan's subscription at the provider (decisions 120, 175): after the N-th
 * payment it cancels itself; a stopped contract cancels it at once.
 */

export interface SubscriptionGateway {
  provider: 'stripe' | 'stand-in';
  /** After the N-th payment the subscription cancels itself: `cancel_at` at the end of the N-th period, no proration. */
  scheduleEnd(subscriptionId: string, instalmentCount: number): Promise<{ cancelAt: number } | null>;
  /** The contract stopped (withdrawal, renunciation, termination): nothing more is taken. */
  cancelNow(subscriptionId: string): Promise<void>;
}

/** `seconds` + `months` calendar months in UTC, the day clamped to the month's end (how Stripe bills a monthly anchor). */
export function addMonthsUtcSeconds(seconds: number, months: number): number {
  const d = new Date(seconds * 1000);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return Math.floor(target.getTime() / 1000);
}

export function stripeSubscriptionGateway(secretKey: string, options: { fetch?: typeof fetch } = {}): SubscriptionGateway {
  const stripe = lazyStripeClient(secretKey, options);
  return {
    provider: 'stripe',
    async scheduleEnd(subscriptionId, instalmentCount) {
      const api = await stripe();
      const subscription = await api.subscriptions.retrieve(subscriptionId);
      if (subscription.status === 'canceled') return null;
      const cancelAt = addMonthsUtcSeconds(subscription.billing_cycle_anchor, instalmentCount);
      if (subscription.cancel_at === cancelAt) return { cancelAt };
      await api.subscriptions.update(
        subscriptionId,
        { cancel_at: cancelAt, proration_behavior: 'none' },
        { idempotencyKey: `cancel-at-${subscriptionId}-${cancelAt}` },
      );
      return { cancelAt };
    },
    async cancelNow(subscriptionId) {
      const api = await stripe();
      await api.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `cancel-${subscriptionId}` });
    },
  };
}

/** The local stand-in charges from the schedule (bff/stand-ins/instalment-stand-in.ts): it stops by itself. */
export const standInSubscriptionGateway: SubscriptionGateway = {
  provider: 'stand-in',
  scheduleEnd: async () => null,
  cancelNow: async () => {},
};

/** Stripe with `STRIPE_SECRET_KEY`; the stand-in otherwise, never in production with live payments. */
export function subscriptionGateway(config: GatewayConfig): SubscriptionGateway {
  if (config.stripeSecretKey) return stripeSubscriptionGateway(config.stripeSecretKey);
  refuseStandInGateway(config, 'Abonnements');
  return standInSubscriptionGateway;
}

/** Never fails the caller: a provider error is logged (the next instalment event tries again). */
export async function safelyStopping(what: string, subscriptionId: string, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    log.error(`abonnement Stripe : ${what} impossible, nouvel essai au prochain événement`, {
      subscriptionId,
      err: error instanceof Error ? error.message.slice(0, 300) : 'erreur inconnue',
    });
  }
}
