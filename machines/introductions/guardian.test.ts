import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CONTACT_NEEDED,
  EMAIL_NEEDED_FOR_COPIES,
  GuardianBody,
  guardianContactOf,
  INFORMED_NEEDED,
  PHONE_NEEDED_FOR_WALI,
} from '#machines/introductions/guardian.ts';

const valid = {
  name: 'Ahmed N’Diaye',
  relation: 'pere',
  email: 'Pere@Example.fr',
  phone: '06 12 34 56 78',
  receives: 'copie-propositions',
  informed: true,
};
const issues = (input: unknown) => {
  const result = v.safeParse(GuardianBody, input);
  return result.success ? [] : result.issues.map((i) => [v.getDotPath(i), i.message]);
};

describe('the guardian’s body', () => {
  it('normalises the e-mail and the phone (E.164), and treats empty fields as absent', () => {
    expect(v.parse(GuardianBody, valid)).toEqual({ ...valid, email: 'pere@example.fr', phone: '+33612345678', contactVia: 'moi' });
    expect(v.parse(GuardianBody, { ...valid, receives: 'coordonnees', email: '  ' })).toMatchObject({ email: undefined });
  });

  it('« uniquement par mon walī » needs the walī’s phone (decision 196)', () => {
    expect(v.parse(GuardianBody, { ...valid, contactVia: 'wali' })).toMatchObject({ contactVia: 'wali' });
    expect(issues({ ...valid, phone: '', contactVia: 'wali' })).toContainEqual(['phone', PHONE_NEEDED_FOR_WALI]);
  });

  it('answers in French, on the field to fix', () => {
    expect(issues({ ...valid, phone: '0612' })).toContainEqual(['phone', 'Numéro de téléphone invalide']);
    expect(issues({ ...valid, email: '' })).toContainEqual(['email', EMAIL_NEEDED_FOR_COPIES]);
    expect(issues({ ...valid, receives: 'rien', email: '', phone: '' })).toContainEqual(['email', CONTACT_NEEDED]);
    expect(issues({ ...valid, informed: false })).toContainEqual(['informed', INFORMED_NEEDED]);
    expect(issues({ ...valid, relation: 'voisin' })).toContainEqual(['relation', 'Lien inconnu : choisissez dans la liste']);
    expect(issues({ ...valid, name: '<script>' })).toContainEqual(['name', 'Nom invalide (lettres, espaces, apostrophes et tirets)']);
    expect(issues({ ...valid, name: 'a'.repeat(81) })).toContainEqual(['name', '80 caractères au plus']);
    expect(issues({ ...valid, role: 'staff' }).length).toBeGreaterThan(0);
  });

  it('shows the other side the guardian’s contact only when the member chose « coordonnées »', () => {
    const g = { name: 'Omar', relation: 'frere' as const, email: 'o@example.fr', phone: null };
    expect(guardianContactOf({ ...g, receives: 'coordonnees' })).toEqual({
      name: 'Omar',
      relation: 'Frère',
      email: 'o@example.fr',
      phone: null,
    });
    expect(guardianContactOf({ ...g, receives: 'copie-propositions' })).toBeNull();
    expect(guardianContactOf({ ...g, receives: 'rien' })).toBeNull();
    expect(guardianContactOf(null)).toBeNull();
  });
});
