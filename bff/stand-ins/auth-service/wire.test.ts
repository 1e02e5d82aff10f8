import { AuthApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthService } from '#bff/stand-ins/auth-service/auth-service.ts';
import { type AuthHarness, SITE_URL, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

describe('wire details', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  it('sends 2024-01-01 errors with the header when asked, the legacy shape otherwise', async () => {
    const body = JSON.stringify({ email: uniqueEmail(), password: 'mauvais' });
    const modern = await h.call('/token?grant_type=password', {
      method: 'POST',
      body,
      headers: { 'X-Supabase-Api-Version': '2024-01-01' },
    });
    expect(modern.status).toBe(400);
    expect(modern.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await modern.json()).toEqual({ code: 'invalid_credentials', message: 'Invalid login credentials' });

    const legacy = await h.call('/token?grant_type=password', { method: 'POST', body });
    expect(legacy.status).toBe(400);
    expect(legacy.headers.get('x-supabase-api-version')).toBeNull();
    expect(legacy.headers.get('x-sb-error-code')).toBe('invalid_credentials');
    expect(await legacy.json()).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' });

    const weak = await h.call('/signup', {
      method: 'POST',
      body: JSON.stringify({ email: uniqueEmail(), password: '123' }),
      headers: { 'X-Supabase-Api-Version': '2024-01-01' },
    });
    expect(weak.status).toBe(422);
    expect(await weak.json()).toEqual({
      code: 'weak_password',
      message: 'Password should be at least 6 characters.',
      weak_password: { reasons: ['length'] },
    });
  });

  it('answers bad input with a 4xx, never a 5xx', async () => {
    const cases: [string, RequestInit][] = [
      ['/signup', { method: 'POST', body: '{not json' }],
      ['/signup', { method: 'POST', body: JSON.stringify({ email: 42, password: ['x'] }) }],
      ['/signup', { method: 'POST', body: JSON.stringify([1, 2, 3]) }],
      ['/signup', { method: 'POST', body: JSON.stringify({ email: 'a@b.fr', password: 'x'.repeat(100_000) }) }],
      ['/token?grant_type=password', { method: 'POST', body: 'null' }],
      ['/token?grant_type=magic', { method: 'POST', body: '{}' }],
      ['/token?grant_type=pkce', { method: 'POST', body: JSON.stringify({ auth_code: 'x', code_verifier: 'y' }) }],
      ['/token?grant_type=refresh_token', { method: 'POST', body: JSON.stringify({ refresh_token: 'nope' }) }],
      ['/verify', { method: 'POST', body: JSON.stringify({ type: 'sms', token_hash: 'abc' }) }],
      ['/verify', { method: 'POST', body: JSON.stringify({ type: 'recovery', token: '1', token_hash: 'abc' }) }],
      ['/verify?type=recovery', { method: 'GET' }],
      // Names every object has: never a verification type (a 500 the fuzzer found).
      ['/verify', { method: 'POST', body: JSON.stringify({ type: '__proto__', email: 'a@b.fr', token: '123456' }) }],
      ['/verify', { method: 'POST', body: JSON.stringify({ type: 'constructor', token_hash: 'abc' }) }],
      ['/recover', { method: 'POST', body: JSON.stringify({ email: 'pas-une-adresse' }) }],
      ['/recover', { method: 'POST', body: JSON.stringify({ email: 'a@b.fr', code_challenge: 'court', code_challenge_method: 'md5' }) }],
      ['/user', { method: 'GET', headers: { authorization: 'Bearer abc.def.ghi' } }],
      ['/factors/not-a-uuid/challenge', { method: 'POST', body: '{}' }],
      ['/admin/users/not-a-uuid', { method: 'GET' }],
      ['/nowhere', { method: 'GET' }],
    ];
    for (const [path, init] of cases) {
      const response = await h.call(path, path.startsWith('/admin') ? { ...init, key: h.service.serviceRoleKey } : init);
      expect(response.status, `${init.method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(response.status, `${init.method} ${path}`).toBeLessThan(500);
      expect(await response.json(), `${init.method} ${path}`).toBeTypeOf('object');
    }
    // GET /verify carries its errors in the redirect, a type named like an object's own key too.
    const redirected = await h.call('/verify?type=toString&token=abc');
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get('location')).toContain('error_code=validation_failed');
  });

  it('limits requests per client address: 429 over_request_rate_limit after the burst of 30', async () => {
    const limited = h.client({ headers: { 'sb-forwarded-for': '203.0.113.7, 10.0.0.1' } });
    // A new address each time: the per-account limit on wrong passwords (10) stays out of the way.
    for (let i = 0; i < 30; i += 1) {
      const { error } = await limited.auth.signInWithPassword({ email: uniqueEmail('inconnu'), password: 'motdepasse' });
      expect(error).toMatchObject({ code: 'invalid_credentials' });
    }
    const email = uniqueEmail('inconnu');
    const { error } = await limited.auth.signInWithPassword({ email, password: 'motdepasse' });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit', message: 'Request rate limit reached' });

    // Another address has its own window; the limited one gets nothing back within its minute
    // (GoTrue would refill one every 2 s: decision 220), then a new window once the minute is over
    // on the service's clock (its 30 are pinned by units.test.ts).
    const other = h.client({ headers: { 'sb-forwarded-for': '198.51.100.1' } });
    expect((await other.auth.signInWithPassword({ email, password: 'motdepasse' })).error).toMatchObject({ code: 'invalid_credentials' });
    h.clock.advance(2_000);
    expect((await limited.auth.signInWithPassword({ email, password: 'motdepasse' })).error).toMatchObject({
      code: 'over_request_rate_limit',
    });
    h.clock.advance(58_000);
    expect((await limited.auth.signInWithPassword({ email, password: 'motdepasse' })).error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('limits guesses of an e-mail code per address, even without the header', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 10; i += 1) {
      const { error } = await h.client().auth.verifyOtp({ type: 'recovery', email, token: String(100000 + i) });
      expect(error).toMatchObject({ status: 403, code: 'otp_expired' });
    }
    const { error } = await h.client().auth.verifyOtp({ type: 'recovery', email, token: '999999' });
    expect(error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
    const other = await h.client().auth.verifyOtp({ type: 'recovery', email: uniqueEmail(), token: '999999' });
    expect(other.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('applies no per-address limit without the header', async () => {
    for (let i = 0; i < 32; i += 1) {
      const response = await h.call('/verify', { method: 'POST', body: JSON.stringify({ type: 'recovery', token_hash: 'f'.repeat(56) }) });
      expect(response.status).toBe(403);
    }
  });

  it('keeps one signing key in the database: a second instance signs and verifies alike', async () => {
    const second = await createAuthService({ database: h.database, clock: h.clock, siteUrl: SITE_URL });
    expect(second.jwks).toEqual(h.service.jwks);
    expect(second.anonKey).toBe(h.service.anonKey);
    expect(second.serviceRoleKey).toBe(h.service.serviceRoleKey);
    const { data } = await h.client().auth.signUp({ email: uniqueEmail(), password: 'motdepasse' });
    const response = await second.app.request('/user', { headers: { authorization: `Bearer ${data.session?.access_token}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(data.user?.id);
  });
});
