/**
 * Stripe Payment Link URLs (decisions §3; integrations reference §1). The base URL
 * of each offer comes from configuration (test links in development, live links
 * in production); this only adds the query parameters.
 */

/** What Stripe accepts as client_reference_id (anything else is silently dropped). */
const CLIENT_REFERENCE_ID = /^[A-Za-z0-9_-]{1,200}$/;
/** Promotion codes are alphanumeric. */
const PROMO_CODE = /^[A-Za-z0-9]{1,100}$/;

export interface PaymentLinkParams {
  /** The member's id, echoed by Stripe on the checkout session. */
  memberId: string;
  email: string;
  /** The coupon's promotion code, only on the file-fee link when the coupon is applied. */
  promoCode?: string | null;
}

export function paymentLinkUrl(baseUrl: string, params: PaymentLinkParams): string {
  if (!CLIENT_REFERENCE_ID.test(params.memberId)) {
    throw new Error('memberId cannot be used as a Stripe client_reference_id');
  }
  const url = new URL(baseUrl);
  url.searchParams.set('client_reference_id', params.memberId);
  url.searchParams.set('prefilled_email', params.email);
  url.searchParams.set('locale', 'fr');
  if (params.promoCode != null) {
    if (!PROMO_CODE.test(params.promoCode)) throw new Error('Promotion codes are alphanumeric');
    url.searchParams.set('prefilled_promo_code', params.promoCode);
  }
  return url.toString();
}
