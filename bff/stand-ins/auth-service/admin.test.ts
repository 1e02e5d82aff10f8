import { createHash } from 'node:crypto';
import { AuthApiError, AuthSessionMissingError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, SITE_URL, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

describe('admin API through supabase-js (service-role key)', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('creates users with password, confirmation, metadata, chosen id; refuses a taken address', async () => {
    const email = uniqueEmail();
    const id = '0d3c7f3e-5b0a-4c7e-9a53-0c6a2f1b9e11';
    const { data, error } = await h.admin().auth.admin.createUser({
      id,
      email,
      password: 'motdepasse',
      email_confirm: true,
      user_metadata: { prenom: 'Anne' },
      app_metadata: { staff: true },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      id,
      email,
      phone: '',
      role: 'authenticated',
      user_metadata: { prenom: 'Anne' },
      app_metadata: { provider: 'email', providers: ['email'], staff: true },
    });
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(data.user?.identities?.[0]).toMatchObject({ provider: 'email', user_id: id });
    expect((await h.client().auth.signInWithPassword({ email, password: 'motdepasse' })).error).toBeNull();

    const again = await h.admin().auth.admin.createUser({ email, password: 'motdepasse' });
    expect(again.error).toMatchObject({ status: 422, code: 'email_exists' });
    const got = await h.admin().auth.admin.getUserById(id);
    expect(got.data.user?.email).toBe(email);
    const missing = await h.admin().auth.admin.getUserById('7e0ea2c4-8c44-4f4b-a0a8-0d4b2b9c2f00');
    expect(missing.error).toMatchObject({ status: 404, code: 'user_not_found' });
  });

  it('lists users page by page with X-Total-Count and Link (perPage 2 over 5 users)', async () => {
    const fresh = await startAuthHarness();
    try {
      for (let i = 0; i < 5; i += 1) {
        await fresh.admin().auth.admin.createUser({ email: uniqueEmail(`liste${i}`), password: 'motdepasse' });
        fresh.clock.advance(1000);
      }
      const admin = fresh.admin().auth.admin;
      const first = await admin.listUsers({ page: 1, perPage: 2 });
      expect(first.error).toBeNull();
      expect(first.data).toMatchObject({ total: 5, nextPage: 2, lastPage: 3 });
      expect(first.data.users).toHaveLength(2);
      const third = await admin.listUsers({ page: 3, perPage: 2 });
      expect(third.data).toMatchObject({ total: 5, nextPage: null, lastPage: 3 });
      expect(third.data.users).toHaveLength(1);
      const seen = new Set(
        [...first.data.users, ...(await admin.listUsers({ page: 2, perPage: 2 })).data.users, ...third.data.users].map((u) => u.id),
      );
      expect(seen.size).toBe(5);

      const raw = await fresh.call('/admin/users?page=1&per_page=2', { key: fresh.service.serviceRoleKey });
      expect(raw.headers.get('x-total-count')).toBe('5');
      expect(raw.headers.get('link')).toBe(
        '</auth/v1/admin/users?page=2&per_page=2>; rel="next", </auth/v1/admin/users?page=3&per_page=2>; rel="last"',
      );
      expect(await raw.json()).toMatchObject({ aud: 'authenticated' });
      const bad = await fresh.call('/admin/users?page=abc', { key: fresh.service.serviceRoleKey });
      expect(bad.status).toBe(400);
    } finally {
      await fresh.close();
    }
  });

  it('bans with ban_duration: sign-in refused, open session refused, refresh refused; "none" lifts it', async () => {
    const email = uniqueEmail();
    const member = h.client();
    const { data } = await member.auth.signUp({ email, password: 'motdepasse' });
    const id = data.user?.id ?? '';
    const refreshToken = data.session?.refresh_token ?? '';

    const banned = await h.admin().auth.admin.updateUserById(id, { ban_duration: '876000h' });
    expect(banned.error).toBeNull();
    const until = new Date(banned.data.user?.banned_until ?? 0).getTime();
    expect(until).toBeGreaterThan(h.clock.now().getTime() + 99 * 365 * 24 * 3600 * 1000);

    const signIn = await h.client().auth.signInWithPassword({ email, password: 'motdepasse' });
    expect(signIn.error).toBeInstanceOf(AuthApiError);
    expect(signIn.error).toMatchObject({ status: 400, code: 'user_banned' });
    const open = await member.auth.getUser();
    expect(open.error).toMatchObject({ status: 403, code: 'user_banned' });
    const refresh = await h.client().auth.refreshSession({ refresh_token: refreshToken });
    expect(refresh.error).toMatchObject({ status: 400, code: 'user_banned' });

    const lifted = await h.admin().auth.admin.updateUserById(id, { ban_duration: 'none' });
    expect(lifted.data.user).not.toHaveProperty('banned_until');
    expect((await h.client().auth.signInWithPassword({ email, password: 'motdepasse' })).error).toBeNull();
    expect((await member.auth.getUser()).error).toBeNull();

    const invalid = await h.admin().auth.admin.updateUserById(id, { ban_duration: 'for ever' });
    expect(invalid.error).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('updates metadata (null deletes a key), app_metadata, email and password (ending all sessions)', async () => {
    const email = uniqueEmail();
    const member = h.client();
    const { data } = await member.auth.signUp({ email, password: 'motdepasse', options: { data: { a: 1, b: 2 } } });
    const id = data.user?.id ?? '';
    const updated = await h.admin().auth.admin.updateUserById(id, {
      user_metadata: { b: null, c: 3 },
      app_metadata: { plan: 'or' },
    });
    expect(updated.data.user?.user_metadata).toEqual({ a: 1, c: 3 });
    expect(updated.data.user?.app_metadata).toMatchObject({ provider: 'email', plan: 'or' });
    const claims = await member.auth.refreshSession();
    expect(claims.data.session?.user.app_metadata).toMatchObject({ plan: 'or' });

    const weak = await h.admin().auth.admin.updateUserById(id, { password: '123' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password' });
    const newEmail = uniqueEmail('nouvelle');
    const changed = await h.admin().auth.admin.updateUserById(id, { password: 'autre-secret', email: newEmail });
    expect(changed.data.user?.email).toBe(newEmail);
    expect((await member.auth.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
    expect((await h.client().auth.signInWithPassword({ email: newEmail, password: 'autre-secret' })).error).toBeNull();
  });

  it('deletes a user: sessions end, the address is free again', async () => {
    const email = uniqueEmail();
    const member = h.client();
    const { data } = await member.auth.signUp({ email, password: 'motdepasse' });
    const deleted = await h.admin().auth.admin.deleteUser(data.user?.id ?? '');
    expect(deleted.error).toBeNull();
    expect((await h.admin().auth.admin.getUserById(data.user?.id ?? '')).error).toMatchObject({ status: 404 });
    const open = await member.auth.getUser();
    expect(open.error).toBeTruthy();
    expect((await h.client().auth.signInWithPassword({ email, password: 'motdepasse' })).error).toMatchObject({
      code: 'invalid_credentials',
    });
    expect((await h.client().auth.signUp({ email, password: 'motdepasse' })).error).toBeNull();

    const soft = await h.admin().auth.admin.createUser({ email: uniqueEmail(), password: 'motdepasse', email_confirm: true });
    expect((await h.admin().auth.admin.deleteUser(soft.data.user?.id ?? '', true)).error).toBeNull();
    const kept = await h.admin().auth.admin.getUserById(soft.data.user?.id ?? '');
    expect(kept.data.user).toMatchObject({ email: '', deleted_at: expect.any(String), identities: [] });
  });

  it('generates a recovery link: flattened user, otp, keyed hashed token; the action link signs in', async () => {
    const email = uniqueEmail();
    await h.client().auth.signUp({ email, password: 'motdepasse' });
    const { data, error } = await h
      .admin()
      .auth.admin.generateLink({ type: 'recovery', email, options: { redirectTo: `${SITE_URL}/connexion/update-password` } });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.properties).toMatchObject({ verification_type: 'recovery', redirect_to: `${SITE_URL}/connexion/update-password` });
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    // Keyed (decision 101): 56 hex characters like GoTrue's, but not the bare sha224 anyone can compute.
    expect(data.properties?.hashed_token).toMatch(/^[0-9a-f]{56}$/);
    expect(data.properties?.hashed_token).not.toBe(
      createHash('sha224')
        .update(email + (data.properties?.email_otp ?? ''))
        .digest('hex'),
    );
    const action = new URL(data.properties?.action_link ?? '');
    expect(`${action.origin}${action.pathname}`).toBe(`${SITE_URL}/auth/v1/verify`);
    expect(action.searchParams.get('token')).toBe(data.properties?.hashed_token);

    const followed = await h.call(`/verify${action.search}`);
    expect(followed.status).toBe(303);
    const location = new URL(followed.headers.get('location') ?? '');
    expect(location.pathname).toBe('/connexion/update-password');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    const session = await h.client().auth.getUser(fragment.get('access_token') ?? '');
    expect(session.data.user?.email).toBe(email);

    const nobody = await h.admin().auth.admin.generateLink({ type: 'recovery', email: uniqueEmail('personne') });
    expect(nobody.error).toMatchObject({ status: 404, code: 'user_not_found' });
    const signup = await h.admin().auth.admin.generateLink({ type: 'signup', email: uniqueEmail('lien'), password: 'motdepasse' });
    expect(signup.data.properties?.verification_type).toBe('signup');
    expect(signup.data.user?.email_confirmed_at).toBeUndefined();
    const confirmed = await h.client().auth.verifyOtp({ type: 'signup', token_hash: signup.data.properties?.hashed_token ?? '' });
    expect(confirmed.data.user?.email_confirmed_at).toBeTruthy();
  });

  it('refuses the admin routes to the anon key and to a member token (403 not_admin)', async () => {
    const anon = h.client().auth.admin;
    const listed = await anon.listUsers();
    expect(listed.error).toBeInstanceOf(AuthApiError);
    expect(listed.error).toMatchObject({ status: 403, code: 'not_admin', message: 'User not allowed' });
    expect((await anon.createUser({ email: uniqueEmail(), password: 'motdepasse' })).error).toMatchObject({ code: 'not_admin' });
    const member = h.client();
    const { data } = await member.auth.signUp({ email: uniqueEmail(), password: 'motdepasse' });
    const asMember = await h.call('/admin/users', { key: data.session?.access_token });
    expect(asMember.status).toBe(403);
    expect(await asMember.json()).toMatchObject({ error_code: 'not_admin' });
    const forged = await h.call('/admin/users', { key: `${h.service.serviceRoleKey.slice(0, -4)}AAAA` });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error_code: 'bad_jwt' });
  });

  it('validates addresses as GoTrue does (checkmail format, 255 characters) on every route that takes one', async () => {
    const bad = ['xx:;x@x.x', 'a b@exemple.fr', 'élodie@exemple.fr', 'x@-exemple.fr', 'x@exemple..fr', `${'a'.repeat(251)}@x.fr`, '@x.fr'];
    const admin = h.admin().auth.admin;
    for (const email of bad) {
      const created = await admin.createUser({ email, password: 'motdepasse', email_confirm: true });
      expect(created.error, `createUser ${email}`).toMatchObject({ status: 400, code: 'validation_failed' });
      const link = await admin.generateLink({ type: 'magiclink', email });
      expect(link.error, `generateLink ${email}`).toMatchObject({ status: 400, code: 'validation_failed' });
      const signedUp = await h.client().auth.signUp({ email, password: 'motdepasse' });
      expect(signedUp.error, `signUp ${email}`).toMatchObject({ status: 400, code: 'validation_failed' });
    }
    // What GoTrue accepts is accepted, lower-cased.
    for (const email of [`Prenom.Nom+tag-${Date.now()}@Sous-Domaine.Exemple.fr`, `o'brien.${Date.now()}@exemple.fr`]) {
      const created = await admin.createUser({ email, password: 'motdepasse', email_confirm: true });
      expect(created.error, email).toBeNull();
      expect(created.data.user?.email).toBe(email.toLowerCase());
    }
  });
});
