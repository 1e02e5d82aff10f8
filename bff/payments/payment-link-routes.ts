import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireCaller } from '#bff/auth/guards.ts';
import { ApiError } from '#bff/http/errors.ts';
import { readQuery } from '#bff/http/validate.ts';
import { recordOf } from '#bff/members/members.ts';
import { offerLinkBase } from '#bff/payments/stripe-settings.ts';
import { paymentLinkUrl } from '#machines/onboarding/payment-links.ts';
import { offerIdSchema } from '#machines/onboarding/plans.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { expectedPayment } from '#machines/onboarding/update-contexts.ts';

const PaymentLinkQuery = v.object({ offer: offerIdSchema });

/**
 * `GET /api/v1/user/payment-link?offer=<offerId>`: the payment link of the offer the member's
 * current step expects (file fee on `frais-de-dossier`, the chosen plan once the subscription
 * payment is open), with `client_reference_id`, `prefilled_email`, `locale=fr` and, for the
 * file fee with the coupon, `prefilled_promo_code`. Any other offer is refused.
 */
export function paymentLinkRoutes(deps: ApiDeps) {
  const guardDeps = { database: deps.database, auth: deps.auth };
  return new Hono().get('/user/payment-link', async (c) => {
    const caller = await requireCaller(c, guardDeps);
    const { offer } = readQuery(c, PaymentLinkQuery);
    if (caller.role === 'staff') throw new ApiError(403, 'FORBIDDEN', 'Réservé aux membres.');
    const record = recordOf(caller.member);
    const state = stateKey(stateFromRecord(record, deps.clock.now().getTime()));
    const context = state === 'frais-de-dossier' ? 'app' : state === 'attente-contrat.paiement' ? 'sub' : null;
    const expected = context ? expectedPayment(record, context) : null;
    if (!expected) throw new ApiError(409, 'PAYMENT_NOT_EXPECTED', 'Aucun paiement n’est attendu à cette étape.', { state });
    if (expected.offerId !== offer) {
      throw new ApiError(409, 'PAYMENT_NOT_EXPECTED', 'Ce paiement ne correspond pas à votre étape.', {
        state,
        expectedOffer: expected.offerId,
      });
    }
    const promoCode = offer === 'file_fee' && record.couponApplied ? deps.config.stripePromoCode : null;
    const url = paymentLinkUrl(offerLinkBase(deps.config, offer), { memberId: caller.id, email: caller.email, promoCode });
    c.header('Cache-Control', 'private, no-store');
    return c.json({ url, offerId: offer, amountCents: expected.amountCents }, 200);
  });
}
