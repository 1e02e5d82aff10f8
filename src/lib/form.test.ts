import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { CredentialsSchema } from '#machines/auth/credentials.ts';
import { renameFields, validate } from '#src/lib/form.ts';

describe('validate', () => {
  it('gives the shared messages per field', () => {
    const result = validate(CredentialsSchema, { email: 'pas un email', password: '123', passwordRepeat: '1234' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.fieldErrors.email).toBe('Email invalide');
      expect(result.fieldErrors.password).toMatch(/au moins 12/);
    }
  });

  it('reports the repeat on its own field', () => {
    const result = validate(CredentialsSchema, { email: 'a@b.fr', password: '123456789012', passwordRepeat: '1234567890123' });
    expect(result).toEqual({ success: false, fieldErrors: { passwordRepeat: 'Les mots de passe ne correspondent pas' } });
  });

  it('returns the output and renames paths', () => {
    expect(validate(CredentialsSchema, { email: ' A@B.fr ', password: '123456789012' })).toMatchObject({
      success: true,
      output: { email: 'a@b.fr' },
    });
    expect(validate(v.object({ role: v.string('x') }), { role: 1 }, { role: 'gender' })).toEqual({
      success: false,
      fieldErrors: { gender: 'x' },
    });
    expect(renameFields({ role: 'r', email: 'e' }, { role: 'gender' })).toEqual({ gender: 'r', email: 'e' });
  });
});
