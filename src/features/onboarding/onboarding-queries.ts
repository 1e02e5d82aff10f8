import type { OfferId } from '#machines/onboarding/plans.ts';
import { api, send } from '#src/lib/api-client.ts';
import { getBooking, getBookingLink, getContract, getPayInFullSetting, getPaymentLink } from '#src/features/onboarding/onboarding-api.ts';
import { unwrap } from '#src/lib/query-client.ts';

/**
 * The onboarding pages' query keys and queries (decisions 214 and 223), under the member's keys
 * (`['member', …]`). The steps' writes go through `useOnboardingUpdate` (the session and the chart
 * follow the server's record); these are the pages' reads of what the record does not carry.
 */
const onboardingKeys = {
  all: ['member', 'onboarding'] as const,
  /** The contract's details and text differ per sub-step (form, then signature): one answer each. */
  contract: (sub: string) => ['member', 'onboarding', 'contract', sub] as const,
  paymentLink: (offer: OfferId) => ['member', 'onboarding', 'payment-link', offer] as const,
  offers: ['member', 'onboarding', 'offers'] as const,
  bookingLink: ['member', 'onboarding', 'booking-link'] as const,
  booking: ['member', 'onboarding', 'booking'] as const,
  prefill: ['member', 'onboarding', 'prefill'] as const,
};

export const contractQuery = (sub: string) => ({ queryKey: onboardingKeys.contract(sub), queryFn: () => unwrap(getContract()) });

/**
 * A link shown as it came, as before: asked at each visit of the page, never again while it is on
 * screen (the booking page's agenda would reload in its frame when the tab comes back).
 */
const oncePerVisit = { staleTime: Number.POSITIVE_INFINITY, refetchOnMount: 'always' } as const;

/** Whether the offer's payment link is ready (`pay()` asks for a fresh one when the member pays). */
export const paymentLinkQuery = (offer: OfferId) => ({
  queryKey: onboardingKeys.paymentLink(offer),
  queryFn: () => unwrap(getPaymentLink(offer)),
  ...oncePerVisit,
});

/** Which pay-in-full plan staff offer (`cashback` when the answer fails, as before). */
export const offersQuery = { queryKey: onboardingKeys.offers, queryFn: getPayInFullSetting };

export const bookingLinkQuery = { queryKey: onboardingKeys.bookingLink, queryFn: () => unwrap(getBookingLink()), ...oncePerVisit };

export const bookingQuery = { queryKey: onboardingKeys.booking, queryFn: async () => (await unwrap(getBooking())).booking };

/** What the member gave before signing up (the pre-registration), to fill the empty fields of step 1. */
export const prefillQuery = {
  queryKey: onboardingKeys.prefill,
  queryFn: async () => (await unwrap(send(api.user.prefill.$get()))).profile,
};
