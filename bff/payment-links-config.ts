import * as v from 'valibot';
import { type OfferId, offerIds } from '#machines/onboarding/plans.ts';

/**
 * `STRIPE_PAYMENT_LINKS`: one Stripe Payment Link per offer (file fee + the six plans), as JSON.
 * Each value is the link's URL, or `{ "url": "…", "id": "plink_…" }` so that a checkout session
 * can be traced back to its offer by its `payment_link` id (otherwise by `metadata.offer_id`, which
 * Stripe copies from the link to its sessions). Validated at start (bff/config.ts).
 */

interface PaymentLink {
  url: string;
  /** The Payment Link's id (`plink_…`), when given. */
  id: string | null;
}
export type PaymentLinks = Record<OfferId, PaymentLink>;
export type StripeMode = 'test' | 'live';

const linkUrl = v.pipe(v.string('une URL https://…'), v.trim(), v.url('une URL https://…'), v.startsWith('https://', 'une URL https://…'));
const linkEntry = v.union(
  [
    v.pipe(
      linkUrl,
      v.transform((url): PaymentLink => ({ url, id: null })),
    ),
    v.pipe(
      v.strictObject({ url: linkUrl, id: v.pipe(v.string(), v.regex(/^plink_[A-Za-z0-9_]+$/, 'un identifiant plink_…')) }),
      v.transform((entry): PaymentLink => ({ url: entry.url, id: entry.id })),
    ),
  ],
  'une URL https://… ou { "url": "https://…", "id": "plink_…" }',
);

const entries = Object.fromEntries(offerIds.map((id) => [id, linkEntry])) as Record<OfferId, typeof linkEntry>;

export const paymentLinksEnvSchema = v.pipe(
  v.string(),
  v.trim(),
  v.parseJson(undefined, `un objet JSON { "${offerIds.join('": "https://…", "')}": "https://…" }`),
  v.strictObject(entries, (issue) =>
    issue.expected === 'never'
      ? `un objet JSON sans clé inconnue (clés : ${offerIds.join(', ')})`
      : 'un lien de paiement pour chaque offre',
  ),
);

/** Test-mode Payment Links live at `https://buy.stripe.com/test_…`; live ones never do. */
function isTestLink(url: string): boolean {
  return new URL(url).pathname.startsWith('/test_');
}

/** The first link whose mode disagrees with STRIPE_MODE, or null. */
export function linkInWrongMode(links: PaymentLinks, mode: StripeMode): OfferId | null {
  return offerIds.find((id) => isTestLink(links[id].url) !== (mode === 'test')) ?? null;
}
