import { describe, expect, it } from 'vitest';
import { timeLeft } from '#src/features/onboarding/countdown.tsx';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the time left before a deadline, in words', () => {
  it('says its two largest units, never « 0 minute »', () => {
    expect(timeLeft(4 * DAY)).toBe('4 jours');
    expect(timeLeft(4 * DAY + 3 * HOUR + 12 * MINUTE)).toBe('4 jours et 3 heures');
    expect(timeLeft(DAY + HOUR)).toBe('1 jour et 1 heure');
    expect(timeLeft(2 * HOUR + 5 * MINUTE)).toBe('2 heures et 5 minutes');
    expect(timeLeft(3 * HOUR)).toBe('3 heures');
    expect(timeLeft(5 * MINUTE)).toBe('5 minutes');
  });

  it('rounds the minutes up: the last minute reads « 1 minute »', () => {
    expect(timeLeft(20_000)).toBe('1 minute');
    expect(timeLeft(HOUR - 1)).toBe('1 heure');
    expect(timeLeft(0)).toBe('1 minute');
  });
});
