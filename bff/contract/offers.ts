import { type OfferId, offerById, offerIds, fileFee, planById } from '#machines/onboarding/plans.ts';

export function isOfferId(value: unknown): value is OfferId {
  return typeof value === 'string' && (offerIds as readonly string[]).includes(value);
}

/** A short French label of an offer, for the checkout stand-in and the contract. */
export function offerLabel(offerId: OfferId): string {
  if (offerId === 'file_fee') return fileFee.title;
  const plan = planById(offerId);
  const cycle = offerById(offerId).monthlyPayments ? `${plan.installments} mensualités` : 'paiement en une fois';
  return `Formule ${plan.title} (${plan.durationMonths} mois, ${cycle})`;
}
