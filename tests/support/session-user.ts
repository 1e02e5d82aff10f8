import type { SubscriptionSettings } from '#src/lib/session-types.ts';

/** The `subscription` settings of an account that has done nothing yet (and of every staff account). */
export const SUBSCRIPTION_NOT_STARTED: SubscriptionSettings = {
  renouncedWithdrawalRight: null,
  applicationFeesPaid: false,
  subscriptionFeesPaid: false,
  formPersonnalInfoCompleted: false,
  subscriptionDate: null,
  subscriptionContractFormCompleted: false,
  onboardingMeetingDateSelected: false,
  onboardingMeetingDone: false,
  onboardingMeetingDate: null,
};
