import { describe, expect, it } from 'vitest';
import { initialSentCode, sentCodeText } from '#src/features/onboarding/signature-code.ts';

describe('the signature code across a reload (issue 59, point 6)', () => {
  const signatureCode = { sentTo: 'amina@example.fr', sentAt: '2026-12-07T10:01:00.000Z', expiresAt: '2026-12-07T10:16:00.000Z' };

  it('starts with the code field when the server still holds a usable code for the text shown', () => {
    expect(initialSentCode({ signatureCode }, Date.parse('2026-12-07T10:05:00Z'))).toEqual({
      sentTo: 'amina@example.fr',
      expiresAt: '2026-12-07T10:16:00.000Z',
    });
  });

  it('asks for a code when none was sent, or the one sent has expired', () => {
    expect(initialSentCode({ signatureCode: null })).toBeNull();
    expect(initialSentCode({ signatureCode }, Date.parse('2026-12-07T10:16:00Z'))).toBeNull();
  });

  it('says where the code went and until when it works, in Paris time', () => {
    expect(sentCodeText(signatureCode)).toBe(
      'Un code a été envoyé à amina@example.fr. Il est valable jusqu’à 11\u00a0h\u00a016 (15 minutes) et ne sert qu’une fois.',
    );
  });
});
