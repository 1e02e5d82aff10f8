import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';
import { isOfferId } from '#bff/contract/offers.ts';
import { stripeStandInSecret } from '#bff/payments/store/stand-in-secrets.ts';
import { type OfferId, offerIds } from '#machines/onboarding/plans.ts';

/**
 * Where each offer is paid and how webhooks are verified. With `STRIPE_PAYMENT_LINKS` the
 * configured Stripe Payment Links; without it (embedded mode) the local checkout stand-in at
 * `/_local/checkout/<offerId>`, which signs its events with a generated secret kept in the database.
 */

export function paymentsEmbedded(config: Config): boolean {
  return config.stripePaymentLinks === undefined;
}

/** What the refund and subscription gateways are chosen from. */
export type GatewayConfig = Pick<Config, 'nodeEnv' | 'stripePaymentLinks' | 'stripeSecretKey'>;

/**
 * Without `STRIPE_SECRET_KEY`, refunds and cancelled subscriptions go to local stand-ins that move
 * no money. In production with live payments (Payment Links) that would record refunds nobody
 * receives: `config.ts` refuses such a configuration, and this throws should one get here anyway,
 * so that no stand-in is ever chosen silently (issue 59). Production on the embedded checkout
 * (`ALLOW_EMBEDDED_IN_PRODUCTION=true`, no real money) keeps its stand-ins.
 */
export function refuseStandInGateway(config: GatewayConfig, what: string): void {
  if (config.nodeEnv === 'production' && config.stripePaymentLinks !== undefined && !config.stripeSecretKey)
    throw new Error(`${what} : STRIPE_SECRET_KEY est requis en production avec STRIPE_PAYMENT_LINKS (aucun remboursement simulé)`);
}

/** The Payment Link (or stand-in page) of an offer, before its query parameters. */
export function offerLinkBase(config: Config, offerId: OfferId): string {
  return config.stripePaymentLinks?.[offerId].url ?? `${config.publicSiteUrl}/_local/checkout/${offerId}`;
}

/** The Payment Link id the embedded stand-in puts on its sessions. */
export function standInPaymentLinkId(offerId: OfferId): string {
  return `plink_local_${offerId}`;
}

/** The secret webhooks are verified with: the configured one, or the stand-in's generated one. */
export function stripeWebhookSecret(config: Config, db: Db): Promise<string> {
  return config.stripeWebhookSecret !== undefined ? Promise.resolve(config.stripeWebhookSecret) : stripeStandInSecret(db);
}

/**
 * The offer a checkout session pays: its `payment_link` id mapped back through the configured
 * links (or the stand-in's ids), else `metadata.offer_id` (set on each link, copied by Stripe).
 */
export function offerOfSession(config: Config, session: { payment_link?: unknown; metadata?: unknown }): OfferId | null {
  const link = typeof session.payment_link === 'string' ? session.payment_link : null;
  if (link !== null) {
    const configured = config.stripePaymentLinks;
    const byLink = offerIds.find((id) => (configured ? configured[id].id === link : standInPaymentLinkId(id) === link));
    if (byLink) return byLink;
  }
  const metadata = session.metadata;
  const fromMetadata = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>).offer_id : undefined;
  return isOfferId(fromMetadata) ? fromMetadata : null;
}
