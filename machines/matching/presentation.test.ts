import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PRESENTATION_MAX_LENGTH, PRESENTATION_TOO_LONG, PresentationBody } from '#machines/matching/presentation.ts';

const parse = (presentation: unknown) => v.safeParse(PresentationBody, { presentation });
const message = (presentation: unknown) => {
  const r = parse(presentation);
  return r.success ? null : r.issues[0]?.message;
};

/** The schema's own rules; contact details are the table of contact-details.test.ts (decision 200). */
describe('the member’s presentation (decision 128)', () => {
  it('is trimmed, at most 600 characters; empty is allowed (no presentation)', () => {
    expect(parse('  Je suis infirmière à Lyon.  ').output).toEqual({ presentation: 'Je suis infirmière à Lyon.' });
    expect(parse('').output).toEqual({ presentation: '' });
    expect(parse(`   ${'a'.repeat(PRESENTATION_MAX_LENGTH)}   `).success).toBe(true);
    expect(message('a'.repeat(PRESENTATION_MAX_LENGTH + 1))).toBe(PRESENTATION_TOO_LONG);
  });

  it('refuses contact details, saying which', () => {
    expect(message('Contact : amina.b@gmail.com')).toContain('une adresse e-mail');
    expect(message('Mon numéro : 06 12 34 56 78')).toContain('un numéro de téléphone');
  });

  it('refuses other fields and other types in French', () => {
    expect(message(42)).toBe('Votre présentation doit être un texte.');
    expect(v.safeParse(PresentationBody, { presentation: 'x', memberId: 'y' }).issues?.[0]?.message).toBe('Champ inattendu.');
  });
});
