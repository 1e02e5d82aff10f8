/** The session's data types (session.ts re-exports them; session-settings.ts reads answers into them). */
import type { SettingsView } from '#bff/api-type.ts';

export type Aal = 'aal1' | 'aal2';

/** The `subscription` object of the settings, with the spec's field names (§3): the server's own type. */
export type SubscriptionSettings = SettingsView['subscription'];

export interface SessionUser {
  id: string;
  email: string;
  /** `homme`, `femme` or `staff`. */
  role: string;
  /** A staff account's role (decision 206); absent for members. */
  staffRole?: 'administration' | 'conseil';
  aal: Aal;
  selectedPlanId: string | null;
  /** Whether the matchmaking meeting took place (the spec's `meeting`). */
  meeting: boolean;
  subscription: SubscriptionSettings;
  /** Where the member stands in the onboarding chart, dotted (`'attente-contrat.signature'`); null for staff. */
  state?: string | null;
  /** The member's onboarding record, from which the wizard restores the chart; null for staff. */
  onboarding?: unknown;
  /** The record's version (changes with every accepted event). */
  version?: number;
  /** The first name of the member's answers (step 1), to greet them by it; null before it, and for staff. */
  firstName?: string | null;
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
