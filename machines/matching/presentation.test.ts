import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  hasEmailAddress,
  hasPhoneNumber,
  PRESENTATION_MAX_LENGTH,
  PRESENTATION_NO_EMAIL,
  PRESENTATION_NO_PHONE,
  PRESENTATION_TOO_LONG,
  PresentationBody,
} from '#machines/matching/presentation.ts';

const parse = (presentation: unknown) => v.safeParse(PresentationBody, { presentation });
const message = (presentation: unknown) => {
  const r = parse(presentation);
  return r.success ? null : r.issues[0]?.message;
};

describe('the member’s presentation (decision 128)', () => {
  it('is trimmed, at most 600 characters; empty is allowed (no presentation)', () => {
    expect(parse('  Je suis infirmière à Lyon.  ').output).toEqual({ presentation: 'Je suis infirmière à Lyon.' });
    expect(parse('').output).toEqual({ presentation: '' });
    expect(parse(`   ${'a'.repeat(PRESENTATION_MAX_LENGTH)}   `).success).toBe(true);
    expect(message('a'.repeat(PRESENTATION_MAX_LENGTH + 1))).toBe(PRESENTATION_TOO_LONG);
  });

  it('refuses an e-mail address', () => {
    expect(hasEmailAddress('écrivez-moi : amina.b@gmail.com')).toBe(true);
    expect(message('Contact : amina.b@gmail.com')).toBe(PRESENTATION_NO_EMAIL);
    expect(hasEmailAddress('J’aime la randonnée @ la montagne.')).toBe(false);
  });

  it('refuses a phone number in its usual forms', () => {
    for (const text of [
      'appelez le 06 12 34 56 78',
      'mon 0612345678',
      '+33 6 12 34 56 78',
      '06.12.34.56.78',
      'tel 06-12-34-56-78',
      '+32 470 12 34 56',
    ]) {
      expect(hasPhoneNumber(text), text).toBe(true);
    }
    expect(message('Mon numéro : 06 12 34 56 78')).toBe(PRESENTATION_NO_PHONE);
  });

  it('accepts ordinary text with numbers (ages, years, counts)', () => {
    for (const text of [
      'J’ai 34 ans, deux enfants, et je vis à Lyon depuis 2015.',
      'Infirmière, 3 frères, née en 1991.',
      'Code postal 69003.',
    ]) {
      expect(hasPhoneNumber(text), text).toBe(false);
      expect(parse(text).success).toBe(true);
    }
  });

  it('refuses other fields and other types in French', () => {
    expect(message(42)).toBe('Votre présentation doit être un texte.');
    expect(v.safeParse(PresentationBody, { presentation: 'x', memberId: 'y' }).issues?.[0]?.message).toBe('Champ inattendu.');
  });
});
