import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AcceptInvitationSchema, StaffInvitationSchema } from '#machines/auth/staff-invitation.ts';

const token = 'A'.repeat(43);
const firstMessage = (result: v.SafeParseResult<v.GenericSchema>) => (result.success ? null : result.issues[0].message);

describe('StaffInvitationSchema', () => {
  it('trims and lower-cases the address, trims the name', () => {
    expect(v.parse(StaffInvitationSchema, { email: '  Samira@Agence.FR ', name: '  Samira Benali ' })).toEqual({
      email: 'samira@agence.fr',
      name: 'Samira Benali',
      role: 'conseil',
    });
  });

  it('refuses a bad address, an empty or control-character name, a missing key — in French', () => {
    expect(firstMessage(v.safeParse(StaffInvitationSchema, { email: 'samira@', name: 'Samira' }))).toMatch(/adresse e-mail valide/);
    expect(firstMessage(v.safeParse(StaffInvitationSchema, { email: '', name: 'Samira' }))).toBe('Saisissez l’adresse e-mail du collègue.');
    expect(firstMessage(v.safeParse(StaffInvitationSchema, { email: 'a@agence.fr', name: ' ' }))).toMatch(/nom du collègue/);
    expect(firstMessage(v.safeParse(StaffInvitationSchema, { email: 'a@agence.fr', name: 'Sami\nBcc: x' }))).toMatch(/signes usuels/);
    expect(firstMessage(v.safeParse(StaffInvitationSchema, { name: 'Samira' }))).toBe('Saisissez l’adresse e-mail et le nom du collègue.');
  });
});

describe('AcceptInvitationSchema', () => {
  it('needs the link’s token, 12 characters at least and the same password twice', () => {
    const password = 'bienvenue-2026';
    expect(v.safeParse(AcceptInvitationSchema, { token, password, passwordRepeat: password }).success).toBe(true);
    expect(firstMessage(v.safeParse(AcceptInvitationSchema, { token, password: 'court', passwordRepeat: 'court' }))).toMatch(
      /12 caractères/,
    );
    const mismatch = v.safeParse(AcceptInvitationSchema, { token, password, passwordRepeat: `${password}!` });
    expect(mismatch.success ? null : [v.getDotPath(mismatch.issues[0]), mismatch.issues[0].message]).toEqual([
      'passwordRepeat',
      'Les deux mots de passe ne sont pas identiques.',
    ]);
    expect(firstMessage(v.safeParse(AcceptInvitationSchema, { token: 'abc', password, passwordRepeat: password }))).toMatch(/incomplet/);
  });
});

describe('the invitation’s role (decision 206)', () => {
  it('is a counsellor unless the administration is chosen; anything else is refused in French', () => {
    const base = { email: 'samira@agence.fr', name: 'Samira Benali' };
    const parsed = v.parse(StaffInvitationSchema, base);
    expect(parsed.role).toBe('conseil');
    expect(v.parse(StaffInvitationSchema, { ...base, role: 'administration' }).role).toBe('administration');
    expect(firstMessage(v.safeParse(StaffInvitationSchema, { ...base, role: 'chef' }))).toBe(
      'Choisissez le rôle du collègue : administration ou conseiller·ère.',
    );
  });
});
