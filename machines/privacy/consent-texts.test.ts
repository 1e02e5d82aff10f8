import { describe, expect, it } from 'vitest';
import { consentKinds, consentTexts, consentTextToHash, currentConsentText } from '#machines/privacy/consent-texts.ts';

describe('consent texts', () => {
  it('has a current version for every kind, with a label, a title and what withdrawing does', () => {
    for (const kind of consentKinds) {
      const text = currentConsentText(kind);
      expect(text.version).toBe(consentTexts[kind].current);
      expect(text.label.length).toBeGreaterThan(20);
      expect(consentTexts[kind].title).not.toBe('');
      expect(consentTexts[kind].effect).not.toBe('');
    }
  });

  it('only the sensitive-data consent is withdrawn from « Mon profil », and its text says so', () => {
    expect(consentKinds.filter((k) => consentTexts[k].withdrawable)).toEqual(['sensitive_data']);
    expect(consentTextToHash(currentConsentText('sensitive_data'))).toMatch(
      /retirer votre consentement à tout moment depuis «\sMon profil\s»/,
    );
  });
});
