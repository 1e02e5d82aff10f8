/** The session's data types (session.ts re-exports them; session-settings.ts reads answers into them). */

export type Aal = 'aal1' | 'aal2';

/** The `subscription` object of the settings, with the spec's field names (§3). */
export interface SubscriptionSettings {
  renouncedWithdrawalRight: boolean | null;
  applicationFeesPaid: boolean;
  subscriptionFeesPaid: boolean;
  formPersonnalInfoCompleted: boolean;
  subscriptionDate: string | null;
  subscriptionContractFormCompleted: boolean;
  onboardingMeetingDateSelected: boolean;
  onboardingMeetingDone: boolean;
  onboardingMeetingDate: string | null;
  [field: string]: unknown;
}

export interface SessionUser {
  id: string;
  email: string;
  /** `homme`, `femme` or `staff`. */
  role: string;
  aal: Aal;
  selectedPlanId: string | null;
  meeting: unknown;
  subscription: SubscriptionSettings;
  /** Where the member stands in the onboarding chart, dotted (`'attente-contrat.signature'`); null for staff. */
  state?: string | null;
  /** The member's onboarding record, from which the wizard restores the chart; null for staff. */
  onboarding?: unknown;
  /** The record's version (changes with every accepted event). */
  version?: number;
}

export interface SessionError {
  at: string;
  status: number;
  code: string;
  message: string;
}

export type SettingsOutcome =
  | { kind: 'signed-in'; user: SessionUser }
  | { kind: 'signed-out' }
  | { kind: 'failed'; error: Omit<SessionError, 'at'> };
