import { Hono } from 'hono';
import { html } from 'hono/html';
import * as v from 'valibot';
import type { Config } from '#bff/config.ts';
import { isOfferId, offerLabel } from '#bff/contract/offers.ts';
import { NO_PAYMENT_YET_MESSAGE, paymentNotYetAllowed } from '#bff/payments/payment-window.ts';
import { standInPaymentLinkId } from '#bff/payments/stripe-settings.ts';
import { standInDocument } from '#bff/stand-ins/stand-in-layout.ts';
import { deliverStripeEvent, randomId, type StandInDeps, stripeTestEvent } from '#bff/stand-ins/stripe-events.ts';
import { formatEuros, type OfferId, offerById } from '#machines/onboarding/plans.ts';
import { discountOfCode } from '#bff/payments/coupons.ts';
import { log } from '#bff/logger.ts';

/**
 * The embedded Stripe Payment Links stand-in (decisions §2): `/_local/checkout/<offerId>` takes
 * the same URL parameters as a Payment Link, shows the offer and the amount, and on "Payer"
 * builds a genuine `checkout.session.completed` event, signs it with the real `stripe` library
 * and posts it to the product's own webhook endpoint (in-process, the production handler), then
 * redirects to the success URL with the session id, as a link configured with
 * `?csid={CHECKOUT_SESSION_ID}` does.
 */

export type { StandInDeps };

/** Stripe drops an invalid client_reference_id silently (integrations reference §1). */
const CLIENT_REFERENCE_ID = /^[A-Za-z0-9_-]{1,200}$/;

const EmailSchema = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());

function validEmail(value: unknown): string | null {
  const parsed = v.safeParse(EmailSchema, value);
  return parsed.success ? parsed.output : null;
}

interface CheckoutParams {
  clientReferenceId: string | null;
  email: string | null;
  promoCode: string | null;
}

function paramsOf(source: Record<string, unknown>): CheckoutParams {
  const reference = typeof source.client_reference_id === 'string' ? source.client_reference_id : '';
  const promo = typeof source.prefilled_promo_code === 'string' ? source.prefilled_promo_code.trim() : '';
  return {
    clientReferenceId: CLIENT_REFERENCE_ID.test(reference) ? reference : null,
    email: validEmail(source.prefilled_email ?? source.email),
    promoCode: /^[A-Za-z0-9]{1,100}$/.test(promo) ? promo : null,
  };
}

/**
 * The amount of a session: as on Stripe, a promotion code of the same name as a code staff created
 * (decision 195) takes its discount off the file fee; it exists only on the file-fee link.
 */
async function amountOf(deps: StandInDeps, offerId: OfferId, promoCode: string | null): Promise<{ amount: number; promoApplied: boolean }> {
  const full = offerById(offerId).amountCents;
  if (offerId !== 'file_fee' || promoCode === null) return { amount: full, promoApplied: false };
  const discount = await discountOfCode(deps.db, promoCode);
  if (discount === null) return { amount: full, promoApplied: false };
  return { amount: Math.max(0, full - discount), promoApplied: true };
}

/** The member's page after payment: where the Payment Link's redirect sends them. */
function successUrl(config: Config, _offerId: OfferId, sessionId: string): string {
  // Since decision 105 both payments (file fee, subscription) are made on the payment step.
  return `${config.publicSiteUrl}/mon-compte/inscription/frais-de-dossier?csid=${encodeURIComponent(sessionId)}`;
}

/** A Checkout Session and its `checkout.session.completed` event, in Stripe's shape. */
async function completedCheckoutEvent(input: {
  config: Config;
  offerId: OfferId;
  sessionId: string;
  clientReferenceId: string | null;
  email: string;
  amount: number;
  now: Date;
}) {
  const created = Math.floor(input.now.getTime() / 1000);
  const offer = offerById(input.offerId);
  const subtotal = offer.id === 'file_fee' ? offer.amountCents : input.amount;
  const session = {
    id: input.sessionId,
    object: 'checkout.session',
    amount_subtotal: subtotal,
    amount_total: input.amount,
    client_reference_id: input.clientReferenceId,
    created,
    currency: 'eur',
    customer: offer.monthlyPayments ? randomId('cus_', 14) : null,
    customer_details: { email: input.email, name: null, phone: null, address: null, tax_exempt: 'none', tax_ids: [] },
    customer_email: null,
    expires_at: created + 24 * 3600,
    livemode: false,
    locale: 'fr',
    metadata: { offer_id: input.offerId },
    mode: offer.monthlyPayments ? 'subscription' : 'payment',
    payment_link: standInPaymentLinkId(input.offerId),
    payment_status: input.amount === 0 ? 'no_payment_required' : 'paid',
    status: 'complete',
    subscription: offer.monthlyPayments ? randomId('sub_', 14) : null,
    success_url: successUrl(input.config, input.offerId, '{CHECKOUT_SESSION_ID}'),
    total_details: { amount_discount: subtotal - input.amount, amount_shipping: 0, amount_tax: 0 },
    url: null,
  };
  return stripeTestEvent('checkout.session.completed', session, created);
}

async function pageOf(deps: StandInDeps, offerId: OfferId, params: CheckoutParams, error?: string) {
  const { config } = deps;
  const { amount, promoApplied } = await amountOf(deps, offerId, params.promoCode);
  const offer = offerById(offerId);
  const backStep = 'frais-de-dossier';
  return standInDocument(
    'Paiement — Union Sincère',
    html`<main aria-labelledby="title">
<p class="badge">Simulation locale de Stripe : aucune carte n’est débitée.</p>
<h1 id="title">Paiement sécurisé</h1>
<section aria-labelledby="offer" class="card">
<h2 id="offer">${offerLabel(offerId)}</h2>
<p class="amount">${promoApplied ? html`<del>${formatEuros(offer.amountCents)}</del> ` : ''}<strong>${formatEuros(amount)}</strong></p>
${promoApplied ? html`<p>Code promotionnel <strong>${params.promoCode}</strong> appliqué : ${formatEuros(offer.amountCents - amount)} de remise.</p>` : ''}
${offer.monthlyPayments ? html`<p>Puis ${formatEuros(offer.amountCents)} par mois ; les prélèvements s’arrêtent après la ${offer.monthlyPayments}<sup>e</sup> mensualité.</p>` : ''}
</section>
${error ? html`<p role="alert" class="error">${error}</p>` : ''}
<form method="post" class="card">
<input type="hidden" name="client_reference_id" value="${params.clientReferenceId ?? ''}">
<input type="hidden" name="prefilled_promo_code" value="${params.promoCode ?? ''}">
<label for="email">Adresse e-mail</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${params.email ?? ''}">
<p class="hint">Carte de test : 4242 4242 4242 4242, toute date future, tout code.</p>
<button type="submit">Payer ${formatEuros(amount)}</button>
</form>
<p><a href="${config.publicSiteUrl}/mon-compte/inscription/${backStep}">Retour sans payer</a></p>
</main>`,
  );
}

/** The page a checkout gets before signature + 7 days (L224-91): nothing can be paid, nothing is recorded. */
function tooEarlyPage(config: Config, state: string) {
  return standInDocument(
    'Paiement impossible — Union Sincère',
    html`<main aria-labelledby="title">
<p class="badge">Simulation locale de Stripe : aucune carte n’est débitée.</p>
<h1 id="title">Paiement impossible pour le moment</h1>
<p role="alert" class="error" data-state="${state}">${NO_PAYMENT_YET_MESSAGE}</p>
<p><a href="${config.publicSiteUrl}/mon-compte">Retour à mon espace</a></p>
</main>`,
  );
}

export function checkoutStandIn(deps: StandInDeps) {
  const { config } = deps;
  return new Hono()
    .get('/checkout/:offerId', async (c) => {
      const offerId = c.req.param('offerId');
      c.header('Cache-Control', 'no-store');
      if (!isOfferId(offerId))
        return c.html(standInDocument('Lien de paiement inconnu', html`<main><h1>Lien de paiement inconnu</h1></main>`), 404);
      const params = paramsOf(c.req.query());
      const early = await paymentNotYetAllowed(deps.db, params.clientReferenceId, deps.clock.now());
      if (early) return c.html(tooEarlyPage(config, early.state), 409);
      return c.html(await pageOf(deps, offerId, params), 200);
    })
    .post('/checkout/:offerId', async (c) => {
      const offerId = c.req.param('offerId');
      c.header('Cache-Control', 'no-store');
      if (!isOfferId(offerId))
        return c.html(standInDocument('Lien de paiement inconnu', html`<main><h1>Lien de paiement inconnu</h1></main>`), 404);
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const params = paramsOf(form);
      const early = await paymentNotYetAllowed(deps.db, params.clientReferenceId, deps.clock.now());
      if (early) {
        log.warn('paiement local refusé avant signature + 7 jours (L224‑91)', { memberId: early.memberId, state: early.state });
        return c.html(tooEarlyPage(config, early.state), 409);
      }
      if (!params.email) return c.html(await pageOf(deps, offerId, params, 'Saisissez une adresse e-mail valide.'), 400);
      const { amount } = await amountOf(deps, offerId, params.promoCode);
      const sessionId = randomId('cs_test_', 40);
      const event = await completedCheckoutEvent({
        config,
        offerId,
        sessionId,
        clientReferenceId: params.clientReferenceId,
        email: params.email,
        amount,
        now: deps.clock.now(),
      });
      const delivered = await deliverStripeEvent(deps, event);
      if (!delivered.ok) {
        log.warn('paiement embarqué : webhook refusé', { status: delivered.status, answer: await delivered.text() });
        return c.html(await pageOf(deps, offerId, params, 'Le paiement n’a pas pu être confirmé. Réessayez.'), 502);
      }
      return c.redirect(successUrl(config, offerId, sessionId), 303);
    });
}
