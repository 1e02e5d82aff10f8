/**
 * Which meeting a booking of the scheduling service is (decision 128). Both the onboarding
 * meeting (« Entretien personnalisé ») and the later matchmaking meeting (« Entretien de
 * matchmaking ») are booked on the same scheduling page, so the booking itself cannot say which
 * it is; the rule is decided ONCE, when the booking is first recorded (webhook), from the
 * member's record at that moment, and stored on the booking (`bookings.kind`, migration 0027):
 * a booking made while the onboarding meeting is not held yet is that meeting; a booking made
 * once it is held is the matchmaking meeting. The agenda then reads the stored kind, so marking
 * the onboarding meeting held later never turns its booking into a matchmaking meeting.
 */

export const bookingKinds = ['entretien-personnalise', 'entretien-matchmaking'] as const;
export type BookingKind = (typeof bookingKinds)[number];

export function isBookingKind(value: unknown): value is BookingKind {
  return typeof value === 'string' && (bookingKinds as readonly string[]).includes(value);
}

/** What the rule reads of the member's onboarding record (machines/onboarding/record.ts). */
export interface BookingRecordFacts {
  onboardingMeetingDone: boolean;
  /** The onboarding meeting's instant as the record holds it (ISO), if any. */
  onboardingMeetingDate: string | null;
}

export function bookingFactsOf(onboarding: unknown): BookingRecordFacts {
  const r = onboarding && typeof onboarding === 'object' ? (onboarding as Record<string, unknown>) : {};
  return {
    onboardingMeetingDone: r.onboardingMeetingDone === true,
    onboardingMeetingDate: typeof r.onboardingMeetingDate === 'string' ? r.onboardingMeetingDate : null,
  };
}

/**
 * The kind of a booking starting at `startMs`, recorded now for a member whose record says
 * `facts` (null: no member known yet — treated as an onboarding booking, the only one a
 * stranger's booking link leads to). The onboarding meeting's own booking stays that meeting
 * even if its record already says held (a late or duplicate delivery).
 */
export function bookingKindAtRecording(startMs: number, facts: BookingRecordFacts | null): BookingKind {
  if (facts === null || !facts.onboardingMeetingDone) return 'entretien-personnalise';
  if (facts.onboardingMeetingDate !== null && Date.parse(facts.onboardingMeetingDate) === startMs) return 'entretien-personnalise';
  return 'entretien-matchmaking';
}

/**
 * The kind the agenda shows: the stored one; for a booking stored without one (recorded before
 * its member was known), the same rule on the member's record as it is now.
 */
export function agendaBookingKind(stored: string | null, startMs: number, facts: BookingRecordFacts): BookingKind {
  return isBookingKind(stored) ? stored : bookingKindAtRecording(startMs, facts);
}
