import { AuthApiError, AuthSessionMissingError, type Session } from '@supabase/supabase-js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens, sessions } from '#bff/stand-ins/auth-service/store/schema.ts';
import { type AuthHarness, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

describe('sessions through supabase-js', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  async function signedIn(password = 'motdepasse') {
    const email = uniqueEmail();
    await h.client().auth.signUp({ email, password });
    const client = h.client();
    const { data, error } = await client.auth.signInWithPassword({ email, password });
    if (error || !data.session) throw error ?? new Error('no session');
    return { client, email, session: data.session };
  }

  /** Presents a refresh token exactly as supabase-js does, without touching a client's storage. */
  function refresh(token: string) {
    return h.client().auth.refreshSession({ refresh_token: token });
  }

  it('getClaims verifies the token locally against the JWKS, without a GET /user round trip', async () => {
    const { client, session } = await signedIn();
    h.requests.length = 0;
    const first = await client.auth.getClaims();
    expect(first.error).toBeNull();
    expect(first.data?.claims).toMatchObject({ sub: session.user.id, role: 'authenticated', aal: 'aal1', session_id: expect.any(String) });
    expect(first.data?.header.kid).toBe(h.service.jwks.keys[0]?.kid);
    const second = await client.auth.getClaims();
    expect(second.error).toBeNull();
    expect(h.requests).toEqual([{ method: 'GET', path: '/auth/v1/.well-known/jwks.json' }]);
  });

  it('serves the public key set, which verifies the anon and service-role keys too', async () => {
    const response = await fetch(`${h.url}/auth/v1/.well-known/jwks.json`);
    const body = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: h.service.jwks.keys[0]?.kid });
    expect(body.keys[0]).not.toHaveProperty('d');
    const anon = await h.client().auth.getClaims(h.service.anonKey);
    expect(anon.data?.claims.role).toBe('anon');
    const service = await h.client().auth.getClaims(h.service.serviceRoleKey);
    expect(service.data?.claims.role).toBe('service_role');
  });

  it('rotates the refresh token on every refresh, keeping the same session', async () => {
    const { session } = await signedIn();
    const first = await refresh(session.refresh_token);
    expect(first.error).toBeNull();
    const next = first.data.session as Session;
    expect(next.refresh_token).not.toBe(session.refresh_token);
    expect(next.user.id).toBe(session.user.id);
    const sessionId = (await h.client().auth.getClaims(next.access_token)).data?.claims.session_id;
    expect(sessionId).toBe((await h.client().auth.getClaims(session.access_token)).data?.claims.session_id);
    const second = await refresh(next.refresh_token);
    expect(second.error).toBeNull();
    const chain = await h.database.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.sessionId, sessionId as string))
      .orderBy(refreshTokens.id);
    expect(chain.map((t) => t.revoked)).toEqual([true, true, false]);
    expect(chain[1]?.parent).toBe(chain[0]?.tokenHash);
    expect(chain[2]?.parent).toBe(chain[1]?.tokenHash);
  });

  it('lets a just-rotated token be presented again within the 10 s reuse interval', async () => {
    const { session } = await signedIn();
    const rotated = await refresh(session.refresh_token);
    expect(rotated.error).toBeNull();
    await refresh((rotated.data.session as Session).refresh_token);
    h.clock.advance(5_000);
    const again = await refresh(session.refresh_token);
    expect(again.error).toBeNull();
    expect(again.data.session?.user.id).toBe(session.user.id);
  });

  it('detects reuse of an old refresh token outside the interval and ends the whole session', async () => {
    const { client, session } = await signedIn();
    const r1 = (await refresh(session.refresh_token)).data.session as Session;
    const r2 = (await refresh(r1.refresh_token)).data.session as Session;
    h.clock.advance(11_000);
    const replay = await refresh(session.refresh_token);
    expect(replay.error).toBeInstanceOf(AuthApiError);
    expect(replay.error).toMatchObject({ status: 400, code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' });
    // The legitimate holder's tokens died with the session.
    const legit = await refresh(r2.refresh_token);
    expect(legit.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' });
    const user = await h.client().auth.getUser(r2.access_token);
    expect(user.error).toBeInstanceOf(AuthSessionMissingError);
    const stillSignedIn = await client.auth.getUser();
    expect(stillSignedIn.error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('answers an empty refresh token with the OAuth error shape', async () => {
    const response = await h.call('/token?grant_type=refresh_token', { method: 'POST', body: JSON.stringify({ refresh_token: '' }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_request', error_description: 'refresh_token required' });
  });

  /** A new user signed in on two clients, `a` and `b` (`bSession`: b's session). */
  async function signedInTwice() {
    const email = uniqueEmail();
    const signup = await h.client().auth.signUp({ email, password: 'motdepasse' });
    const a = h.client();
    const b = h.client();
    await a.auth.signInWithPassword({ email, password: 'motdepasse' });
    const bSession = (await b.auth.signInWithPassword({ email, password: 'motdepasse' })).data.session as Session;
    return { userId: signup.data.user?.id as string, a, bSession };
  }

  it('logout local ends only the current session', async () => {
    const { a, bSession } = await signedInTwice();
    const bToken = bSession.access_token;
    expect((await a.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect((await a.auth.getSession()).data.session).toBeNull();
    expect((await h.client().auth.getUser(bToken)).error).toBeNull();
  });

  it('logout others keeps the current session and ends the rest', async () => {
    const { a, bSession } = await signedInTwice();
    const bToken = bSession.access_token;
    expect((await a.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect((await a.auth.getUser()).error).toBeNull();
    expect((await h.client().auth.getUser(bToken)).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('logout global ends every session of the user (and their refresh tokens)', async () => {
    const { userId, a, bSession } = await signedInTwice();
    const aToken = (await a.auth.getSession()).data.session?.access_token as string;
    const response = await h.call('/logout?scope=global', { method: 'POST', key: aToken });
    expect(response.status).toBe(204);
    const left = await h.database.db.select().from(sessions).where(eq(sessions.userId, userId));
    expect(left).toEqual([]);
    expect((await h.client().auth.getUser(bSession.access_token)).error).toBeInstanceOf(AuthSessionMissingError);
    expect((await refresh(bSession.refresh_token)).error).toMatchObject({ code: 'refresh_token_not_found' });
    const badScope = await h.call('/logout?scope=everything', { method: 'POST', key: aToken });
    expect(badScope.status).toBe(400);
  });

  it('refuses an expired access token with 403 bad_jwt', async () => {
    const { session } = await signedIn();
    h.clock.advance(3601_000);
    const response = await h.call('/user', { key: session.access_token, headers: { 'X-Supabase-Api-Version': '2024-01-01' } });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'bad_jwt' });
  });

  it('changing the password logs out the other sessions, refuses the same password, checks strength', async () => {
    const email = uniqueEmail();
    await h.client().auth.signUp({ email, password: 'motdepasse' });
    const a = h.client();
    const b = h.client();
    await a.auth.signInWithPassword({ email, password: 'motdepasse' });
    await b.auth.signInWithPassword({ email, password: 'motdepasse' });
    // The product's policy (decision 180) before anything else: 12 characters, not a common one.
    const same = await a.auth.updateUser({ password: 'motdepasse', current_password: 'motdepasse' });
    expect(same.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
    const weak = await a.auth.updateUser({ password: '123', current_password: 'motdepasse' });
    expect(weak.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] });
    const common = await a.auth.updateUser({ password: 'motdepasse123', current_password: 'motdepasse' });
    expect(common.error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['pwned'] });
    const changed = await a.auth.updateUser({ password: 'nouveau-secret', current_password: 'motdepasse', data: { ville: 'Lyon' } });
    expect(changed.error).toBeNull();
    expect(changed.data.user?.user_metadata).toMatchObject({ ville: 'Lyon' });
    expect((await a.auth.getUser()).error).toBeNull();
    expect((await b.auth.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
    expect((await h.client().auth.signInWithPassword({ email, password: 'nouveau-secret' })).error).toBeNull();
    // GoTrue's same_password, for a password that meets the policy.
    const again = await a.auth.updateUser({ password: 'nouveau-secret', current_password: 'nouveau-secret' });
    expect(again.error).toMatchObject({ status: 422, code: 'same_password' });
    const removed = await a.auth.updateUser({ data: { ville: null } });
    expect(removed.data.user?.user_metadata).not.toHaveProperty('ville');
  });
});
