import { describe, expect, it } from 'vitest';
import {
  allChoices,
  CONSENT_VERSION,
  consentExpiry,
  consentModeDefaults,
  consentModeState,
  noChoices,
  tagManagerAllowed,
  validStoredConsent,
} from '#machines/public-site/consent.ts';

const stored = (date: string, overrides: Record<string, unknown> = {}) => ({
  anonymousId: '7d9f1c3e-2b4a-4c5d-8e6f-0a1b2c3d4e5f',
  version: CONSENT_VERSION,
  date,
  choices: noChoices,
  ...overrides,
});

describe('consent duration (6 months)', () => {
  it.each([
    ['2026-01-15T10:00:00.000Z', '2026-07-15T10:00:00.000Z'],
    ['2026-08-31T08:00:00.000Z', '2027-02-28T08:00:00.000Z'],
    ['2027-08-31T08:00:00.000Z', '2028-02-29T08:00:00.000Z'],
    ['2026-12-01T00:00:00.000Z', '2027-06-01T00:00:00.000Z'],
  ])('a choice made on %s expires on %s', (date, expiry) => {
    expect(consentExpiry(new Date(date)).toISOString()).toBe(expiry);
  });

  it('keeps a choice until the day before its expiry, then asks again', () => {
    const value = stored('2026-01-15T10:00:00.000Z');
    expect(validStoredConsent(value, new Date('2026-07-15T09:59:59.000Z'))).toEqual(value);
    expect(validStoredConsent(value, new Date('2026-07-15T10:00:00.000Z'))).toBeNull();
  });

  it('asks again after a new banner version, or for anything malformed', () => {
    const now = new Date('2026-02-01T00:00:00.000Z');
    expect(validStoredConsent(stored('2026-01-15T10:00:00.000Z', { version: 'old' }), now)).toBeNull();
    expect(validStoredConsent(stored('pas une date'), now)).toBeNull();
    expect(validStoredConsent(stored('2026-01-15T10:00:00.000Z', { anonymousId: 'x' }), now)).toBeNull();
    expect(validStoredConsent(stored('2026-01-15T10:00:00.000Z', { choices: { functional: true } }), now)).toBeNull();
    expect(validStoredConsent(stored('2027-01-15T10:00:00.000Z'), now)).toBeNull(); // from the future
    expect(validStoredConsent(null, now)).toBeNull();
    expect(validStoredConsent('{"a":1}', now)).toBeNull();
  });
});

describe('Consent Mode v2', () => {
  it('denies everything but security storage by default', () => {
    expect(consentModeDefaults).toEqual({
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      analytics_storage: 'denied',
      functionality_storage: 'denied',
      personalization_storage: 'denied',
      security_storage: 'granted',
    });
  });

  it('maps statistic to analytics_storage and marketing to the three ad keys', () => {
    expect(consentModeState({ ...noChoices, statistic: true })).toMatchObject({ analytics_storage: 'granted', ad_storage: 'denied' });
    expect(consentModeState({ ...noChoices, marketing: true })).toMatchObject({
      ad_storage: 'granted',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
      analytics_storage: 'denied',
    });
    expect(consentModeState({ ...noChoices, functional: true })).toMatchObject({
      functionality_storage: 'granted',
      personalization_storage: 'granted',
    });
    expect(Object.values(consentModeState(allChoices)).every((value) => value === 'granted')).toBe(true);
  });

  it('loads the tag manager only when a category it serves is accepted', () => {
    expect(tagManagerAllowed(noChoices)).toBe(false);
    expect(tagManagerAllowed({ ...noChoices, functional: true })).toBe(false);
    expect(tagManagerAllowed({ ...noChoices, statistic: true })).toBe(true);
    expect(tagManagerAllowed({ ...noChoices, marketing: true })).toBe(true);
  });
});
