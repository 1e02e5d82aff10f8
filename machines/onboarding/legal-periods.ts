/**
 * The lengths of the legal periods, alone in a module without imports, for the texts that only
 * name them (the public site's tokens, the consents): they do not load the deadline computation
 * (machines/onboarding/legal-deadlines.ts, decision 165), which says when each period ends.
 */

/** Renunciation period of a matrimonial agency contract, during which no payment is asked: L224-91. */
export const NO_PAYMENT_PERIOD_DAYS = 7;
/** Withdrawal period of a distance contract for services: Code de la consommation L221-18. */
export const WITHDRAWAL_PERIOD_DAYS = 14;
