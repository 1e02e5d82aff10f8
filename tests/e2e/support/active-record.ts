import { emptyRecord, type Gender, type OnboardingRecord } from '#machines/onboarding/record.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The onboarding record of a member who finished signing up: signed 40 days ago, paid, both
 * meetings held — an active member, written straight into the database by the specs that need
 * two of them (the screens of the onboarding are walked elsewhere).
 */
export function activeRecord(id: string, email: string, gender: Gender, now: number): OnboardingRecord {
  const signedAt = now - 40 * DAY;
  return {
    ...emptyRecord(id, email, gender),
    selectedPlanId: 'plan_horizon_month',
    renouncedWithdrawalRight: false,
    profileCompleted: true,
    sensitiveDataConsentAt: new Date(signedAt - 20 * DAY).toISOString(),
    questionnaireCompleted: true,
    formPersonnalInfoCompleted: true,
    applicationFeesPaid: true,
    preContractInfoAcknowledged: true,
    onboardingMeetingDateSelected: true,
    onboardingMeetingReserved: true,
    onboardingMeetingDate: new Date(signedAt - 2 * DAY).toISOString(),
    onboardingMeetingDone: true,
    subscriptionContractFormCompleted: true,
    subscriptionDate: new Date(signedAt).toISOString(),
    subscriptionFeesPaid: true,
    matchmakingMeetingDone: true,
  };
}
