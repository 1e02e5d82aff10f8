import { Hono } from 'hono';
import * as v from 'valibot';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireMember } from '#bff/auth/guards.ts';
import { ApiError } from '#bff/http/errors.ts';
import { readQuery } from '#bff/http/validate.ts';
import { recordOf } from '#bff/members/members.ts';
import { redeemedCodeOf } from '#bff/payments/coupons.ts';
import { NO_PAYMENT_YET_MESSAGE } from '#bff/payments/payment-window.ts';
import { offerLinkBase } from '#bff/payments/stripe-settings.ts';
import { paymentLinkUrl } from '#machines/onboarding/payment-links.ts';
import { offerIdSchema } from '#machines/onboarding/plans.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { expectedPayment } from '#machines/onboarding/update-contexts.ts';

const PaymentLinkQuery = v.object({ offer: offerIdSchema });

/**
 * `GET /api/v1/user/payment-link?offer=<offerId>`: the payment link of an offer the member's
 * payment step (`frais-de-dossier`, from signature + 7 days: decision 105) still expects (the file
 * fee, the chosen plan), with `client_reference_id`, `prefilled_email`, `locale=fr` and, for the
 * file fee with a code, `prefilled_promo_code` (the code the member typed). Any other offer is refused.
 */
export function paymentLinkRoutes(deps: ApiDeps) {
  return new Hono().get('/user/payment-link', async (c) => {
    const caller = await requireMember(c, deps);
    const { offer } = readQuery(c, PaymentLinkQuery);
    const record = recordOf(caller.member);
    const state = stateKey(stateFromRecord(record, deps.clock.now().getTime()));
    if (state !== 'frais-de-dossier') {
      const message = record.subscriptionFeesPaid ? 'Aucun paiement n’est attendu à cette étape.' : NO_PAYMENT_YET_MESSAGE;
      throw new ApiError(409, 'PAYMENT_NOT_EXPECTED', message, { state });
    }
    // The parts not paid yet, file fee first: the payment screen runs them one after the other.
    const parts = [
      ...(record.applicationFeesPaid ? [] : [expectedPayment(record, 'app')]),
      ...(record.subscriptionFeesPaid ? [] : [expectedPayment(record, 'sub')]),
    ].filter((part) => part !== null);
    const expected = parts.find((part) => part.offerId === offer);
    if (!expected) {
      throw new ApiError(409, 'PAYMENT_NOT_EXPECTED', 'Ce paiement ne correspond pas à votre étape.', {
        state,
        expectedOffer: parts[0]?.offerId ?? null,
      });
    }
    // The code the member typed, as Stripe's promotion code of the same name (decision 195).
    const promoCode = offer === 'file_fee' && record.couponApplied ? await redeemedCodeOf(deps.database.db, caller.id) : null;
    const url = paymentLinkUrl(offerLinkBase(deps.config, offer), { memberId: caller.id, email: caller.email, promoCode });
    c.header('Cache-Control', 'private, no-store');
    return c.json({ url, offerId: offer, amountCents: expected.amountCents }, 200);
  });
}
