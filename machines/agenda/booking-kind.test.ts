import { describe, expect, it } from 'vitest';
import { agendaBookingKind, bookingFactsOf, bookingKindAtRecording } from '#machines/agenda/booking-kind.ts';

const START = Date.parse('2026-12-01T09:00:00.000Z');

describe('which meeting a booking is (decision 128)', () => {
  it('a booking made before the onboarding meeting is held is the onboarding meeting', () => {
    expect(bookingKindAtRecording(START, { onboardingMeetingDone: false, onboardingMeetingDate: null })).toBe('entretien-personnalise');
    expect(bookingKindAtRecording(START, bookingFactsOf({ onboardingMeetingReserved: true }))).toBe('entretien-personnalise');
    // No member known (no tracking reference): only the onboarding link leads there.
    expect(bookingKindAtRecording(START, null)).toBe('entretien-personnalise');
  });

  it('a booking made once the onboarding meeting is held is the matchmaking meeting', () => {
    const facts = bookingFactsOf({ onboardingMeetingDone: true, onboardingMeetingDate: '2026-11-20T10:00:00.000Z' });
    expect(bookingKindAtRecording(START, facts)).toBe('entretien-matchmaking');
  });

  it('the onboarding meeting’s own booking, delivered late, stays the onboarding meeting', () => {
    const facts = bookingFactsOf({ onboardingMeetingDone: true, onboardingMeetingDate: '2026-12-01T09:00:00.000Z' });
    expect(bookingKindAtRecording(START, facts)).toBe('entretien-personnalise');
  });

  it('the agenda reads the stored kind, whatever the record says now', () => {
    const heldSince = bookingFactsOf({ onboardingMeetingDone: true, onboardingMeetingDate: '2026-11-20T10:00:00.000Z' });
    // Recorded as the onboarding meeting, then the meeting was marked held: still the onboarding meeting.
    expect(agendaBookingKind('entretien-personnalise', START, heldSince)).toBe('entretien-personnalise');
    expect(agendaBookingKind('entretien-matchmaking', START, bookingFactsOf({}))).toBe('entretien-matchmaking');
    // None stored (or an unknown value): the rule on the record as it is now.
    expect(agendaBookingKind(null, START, heldSince)).toBe('entretien-matchmaking');
    expect(agendaBookingKind('autre', START, bookingFactsOf({}))).toBe('entretien-personnalise');
  });
});
