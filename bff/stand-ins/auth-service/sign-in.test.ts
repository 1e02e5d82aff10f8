import { AuthApiError, AuthWeakPasswordError } from '@supabase/supabase-js';
import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '#bff/stand-ins/auth-service/store/schema.ts';
import { type AuthHarness, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

describe('sign-up and sign-in through supabase-js', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('signs a new member up and in at once (autoconfirm), with the contract’s user and claims', async () => {
    const email = uniqueEmail();
    const { data, error } = await h.client().auth.signUp({ email, password: 'motdepasse', options: { data: { gender: 'femme' } } });
    expect(error).toBeNull();
    const { session, user } = data;
    expect(session?.token_type).toBe('bearer');
    expect(session?.expires_in).toBe(3600);
    expect(user).toMatchObject({
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { gender: 'femme' },
      is_anonymous: false,
    });
    expect(user?.email_confirmed_at).toBeTruthy();
    expect(user?.last_sign_in_at).toBeTruthy();
    expect(user).not.toHaveProperty('factors');
    expect(user).not.toHaveProperty('banned_until');
    expect(user?.identities).toEqual([
      expect.objectContaining({
        id: user?.id,
        user_id: user?.id,
        provider: 'email',
        email,
        identity_data: expect.objectContaining({ sub: user?.id, email, email_verified: true }),
      }),
    ]);

    const header = decodeProtectedHeader(session?.access_token ?? '');
    expect(header).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: h.service.jwks.keys[0]?.kid });
    const claims = decodeJwt(session?.access_token ?? '');
    expect(claims).toMatchObject({
      iss: 'http://localhost:3000/auth/v1',
      sub: user?.id,
      aud: 'authenticated',
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method: 'password', timestamp: claims.iat }],
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { gender: 'femme' },
    });
    expect(claims.exp).toBe(session?.expires_at);
    expect(claims.exp).toBe((claims.iat ?? 0) + 3600);
    expect(typeof claims.session_id).toBe('string');

    const [row] = await h.database.db.select().from(users).where(eq(users.email, email));
    expect(row?.encryptedPassword).toMatch(/^\$argon2id\$/);
  });

  it('refuses a second sign-up with the same address (422 user_already_exists)', async () => {
    const email = uniqueEmail();
    await h.client().auth.signUp({ email, password: 'motdepasse' });
    const { data, error } = await h.client().auth.signUp({ email: email.toUpperCase(), password: 'autrechose' });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 422, code: 'user_already_exists' });
    expect(data.session).toBeNull();
  });

  it('refuses a short password with the weak-password reasons, and a too long one', async () => {
    const { error } = await h.client().auth.signUp({ email: uniqueEmail(), password: 'court' });
    expect(error).toBeInstanceOf(AuthWeakPasswordError);
    expect(error).toMatchObject({
      status: 422,
      code: 'weak_password',
      reasons: ['length'],
      message: 'Password should be at least 6 characters.',
    });
    const long = await h.client().auth.signUp({ email: uniqueEmail(), password: 'x'.repeat(73) });
    expect(long.error).toMatchObject({ status: 400, code: 'validation_failed' });
    const badEmail = await h.client().auth.signUp({ email: 'pas un email', password: 'motdepasse' });
    expect(badEmail.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('signs in with the right password, case-insensitively on the address', async () => {
    const email = uniqueEmail();
    await h.client().auth.signUp({ email, password: 'motdepasse' });
    const client = h.client();
    const { data, error } = await client.auth.signInWithPassword({ email: email.toUpperCase(), password: 'motdepasse' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    const stored = await client.auth.getSession();
    expect(stored.data.session?.access_token).toBe(data.session?.access_token);
  });

  it('refuses a wrong password and an unknown address alike (400 invalid_credentials)', async () => {
    const email = uniqueEmail();
    await h.client().auth.signUp({ email, password: 'motdepasse' });
    const wrong = await h.client().auth.signInWithPassword({ email, password: 'mauvais-mot' });
    expect(wrong.error).toBeInstanceOf(AuthApiError);
    expect(wrong.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
    expect(wrong.data.session).toBeNull();
    const unknown = await h.client().auth.signInWithPassword({ email: uniqueEmail('inconnu'), password: 'motdepasse' });
    expect(unknown.error).toMatchObject({ status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' });
  });

  it('returns the user of the session from getUser, and refuses without a session', async () => {
    const email = uniqueEmail();
    const client = h.client();
    const { data } = await client.auth.signUp({ email, password: 'motdepasse' });
    const got = await client.auth.getUser();
    expect(got.error).toBeNull();
    expect(got.data.user?.id).toBe(data.user?.id);
    expect(got.data.user?.email).toBe(email);
    const raw = await h.call('/user');
    expect(raw.status).toBe(403);
    expect(await raw.json()).toMatchObject({ code: 403, error_code: 'bad_jwt' });
    const none = await fetch(`${h.url}/auth/v1/user`, { headers: { 'X-Supabase-Api-Version': '2024-01-01' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await none.json()).toEqual({ code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' });
  });

  it('refuses an unconfirmed account (admin-created without email_confirm) with email_not_confirmed', async () => {
    const email = uniqueEmail();
    const created = await h.admin().auth.admin.createUser({ email, password: 'motdepasse' });
    expect(created.error).toBeNull();
    const { error } = await h.client().auth.signInWithPassword({ email, password: 'motdepasse' });
    expect(error).toMatchObject({ status: 400, code: 'email_not_confirmed' });
  });

  it('flags a valid password that no longer meets the policy with weakPassword', async () => {
    const email = uniqueEmail();
    await h.admin().auth.admin.createUser({ email, password: 'abc', email_confirm: true });
    const { data, error } = await h.client().auth.signInWithPassword({ email, password: 'abc' });
    expect(error).toBeNull();
    expect(data.weakPassword).toEqual({ message: 'Password should be at least 6 characters.', reasons: ['length'] });
  });
});
