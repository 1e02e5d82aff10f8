import { describe, expect, it } from 'vitest';
import { welcome } from '#src/features/account/welcome.ts';
import { toSessionUser } from '#src/lib/session-settings.ts';

describe('the greeting of /mon-compte (issue 63)', () => {
  it('greets by the first name the session carries, never by the e-mail address', () => {
    const user = toSessionUser({ id: 'u1', email: 'amina@example.fr', role: 'femme', firstName: ' Amina ' });
    expect(user?.firstName).toBe('Amina');
    expect(welcome(user?.firstName)).toBe('Bienvenue dans votre espace personnel, Amina.');
    const before = toSessionUser({ id: 'u2', email: 'amina@example.fr', role: 'femme', firstName: null });
    expect(before?.firstName).toBeNull();
    expect(welcome(before?.firstName)).toBe('Bienvenue dans votre espace personnel.');
    expect(welcome(before?.firstName)).not.toContain('@');
  });
});
