import { AuthSessionMissingError, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('admin factor routes through supabase-js (auth.admin.mfa)', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  const codeFor = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: h.clock.now().getTime(),
    });

  /** A user signed in with a verified TOTP factor (aal2), plus a second aal1 session that did not pass it. */
  async function enrolled(): Promise<{ client: SupabaseClient; userId: string; factorId: string; email: string }> {
    const email = uniqueEmail('equipe');
    const created = await h.admin().auth.admin.createUser({ email, password: 'motdepasse', email_confirm: true });
    if (!created.data.user) throw created.error ?? new Error('no user');
    const client = h.client();
    await client.auth.signInWithPassword({ email, password: 'motdepasse' });
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Union Sincère' });
    if (data?.type !== 'totp') throw new Error('no totp factor');
    const verified = await client.auth.mfa.challengeAndVerify({ factorId: data.id, code: codeFor(data.totp.secret) });
    if (verified.error) throw verified.error;
    return { client, userId: created.data.user.id, factorId: data.id, email };
  }

  it('lists a user’s factors as GoTrue’s JSON, unverified ones included, never the secret', async () => {
    const { client, userId, factorId } = await enrolled();
    const admin = h.admin();
    const listed = await admin.auth.admin.mfa.listFactors({ userId });
    expect(listed.error).toBeNull();
    expect(listed.data?.factors).toEqual([
      {
        id: factorId,
        friendly_name: 'Union Sincère',
        factor_type: 'totp',
        status: 'verified',
        created_at: expect.any(String),
        updated_at: expect.any(String),
        phone: '',
        last_challenged_at: expect.any(String),
      },
    ]);
    const more = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Secours' });
    const again = await admin.auth.admin.mfa.listFactors({ userId });
    expect(again.data?.factors.map((f) => [f.id, f.status])).toEqual([
      [factorId, 'verified'],
      [more.data?.id, 'unverified'],
    ]);
    expect(JSON.stringify(again.data)).not.toContain('secret');

    // A user without any factor: an empty list.
    const bare = await admin.auth.admin.createUser({ email: uniqueEmail(), password: 'motdepasse' });
    expect((await admin.auth.admin.mfa.listFactors({ userId: bare.data.user?.id ?? '' })).data?.factors).toEqual([]);
  });

  it('deletes a verified factor: returns it, the user’s sessions go back to aal1, enrolment starts afresh', async () => {
    const { client, userId, factorId, email } = await enrolled();
    expect(decodeJwt((await client.auth.getSession()).data.session?.access_token ?? '').aal).toBe('aal2');

    const deleted = await h.admin().auth.admin.mfa.deleteFactor({ userId, id: factorId });
    expect(deleted.error).toBeNull();
    // supabase-js hands the body on wrapped (`_request` without `xform` gives `{data, error}`).
    const raw = deleted.data as unknown as Record<string, unknown>;
    const factor = 'data' in raw ? raw.data : raw;
    expect(factor).toMatchObject({ id: factorId, factor_type: 'totp', status: 'verified', friendly_name: 'Union Sincère' });
    expect(factor).not.toHaveProperty('secret');
    expect((await h.admin().auth.admin.mfa.listFactors({ userId })).data?.factors).toEqual([]);

    // The session the factor raised is aal1 from its next token on, with no factor left to reach aal2.
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    const claims = decodeJwt(refreshed.data.session?.access_token ?? '');
    expect(claims.aal).toBe('aal1');
    expect((claims.amr as { method: string }[]).map((a) => a.method)).toEqual(['password']);
    expect(refreshed.data.session?.user).not.toHaveProperty('factors');
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' });

    // The next sign-in enrols again (no verified factor: no aal2 needed to enrol).
    const fresh = h.client();
    await fresh.auth.signInWithPassword({ email, password: 'motdepasse' });
    const reenrolled = await fresh.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Union Sincère' });
    expect(reenrolled.error).toBeNull();
    if (reenrolled.data?.type !== 'totp') throw new Error('no totp factor');
    const verified = await fresh.auth.mfa.challengeAndVerify({ factorId: reenrolled.data.id, code: codeFor(reenrolled.data.totp.secret) });
    expect(verified.error).toBeNull();
    expect(decodeJwt(verified.data?.access_token ?? '').aal).toBe('aal2');
    // A successful verify ends the sessions below aal2, the downgraded one included.
    expect((await client.auth.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('answers 404 mfa_factor_not_found and user_not_found, and validation_failed for malformed ids', async () => {
    const { userId, factorId } = await enrolled();
    const other = await enrolled();
    const admin = h.admin().auth.admin.mfa;
    expect((await admin.deleteFactor({ userId, id: UNKNOWN })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    // Another user's factor is not found under this user, and stays.
    expect((await admin.deleteFactor({ userId, id: other.factorId })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    expect((await admin.listFactors({ userId: other.userId })).data?.factors).toHaveLength(1);
    expect((await admin.deleteFactor({ userId: UNKNOWN, id: factorId })).error).toMatchObject({ status: 404, code: 'user_not_found' });
    expect((await admin.listFactors({ userId: UNKNOWN })).error).toMatchObject({ status: 404, code: 'user_not_found' });
    // supabase-js validates ids itself; the raw routes answer GoTrue's 404 validation_failed.
    const key = h.service.serviceRoleKey;
    const badUser = await h.call('/admin/users/pas-un-uuid/factors', { key });
    expect(badUser.status).toBe(404);
    expect(await badUser.json()).toMatchObject({ error_code: 'validation_failed', msg: 'user_id must be an UUID' });
    const badFactor = await h.call(`/admin/users/${userId}/factors/pas-un-uuid`, { method: 'DELETE', key });
    expect(badFactor.status).toBe(404);
    expect(await badFactor.json()).toMatchObject({ error_code: 'validation_failed', msg: 'factor_id must be an UUID' });
    // Deleting twice: the second is a 404.
    expect((await admin.deleteFactor({ userId, id: factorId })).error).toBeNull();
    expect((await admin.deleteFactor({ userId, id: factorId })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
  });

  it('refuses the anon key and a user token (403 not_admin), before any lookup, and deletes nothing', async () => {
    const { client, userId, factorId } = await enrolled();
    const anon = h.client().auth.admin.mfa;
    expect((await anon.listFactors({ userId })).error).toMatchObject({ status: 403, code: 'not_admin' });
    expect((await anon.deleteFactor({ userId, id: factorId })).error).toMatchObject({ status: 403, code: 'not_admin' });
    expect((await anon.listFactors({ userId: UNKNOWN })).error).toMatchObject({ status: 403, code: 'not_admin' });
    // The user's own aal2 token is not an admin either, even for their own factor.
    const own = (await client.auth.getSession()).data.session?.access_token;
    const asUser = await h.call(`/admin/users/${userId}/factors/${factorId}`, { method: 'DELETE', key: own });
    expect(asUser.status).toBe(403);
    expect(await asUser.json()).toMatchObject({ error_code: 'not_admin' });
    const noToken = await h.call(`/admin/users/${userId}/factors`, { headers: { authorization: '' } });
    expect(noToken.status).toBe(401);
    expect((await h.admin().auth.admin.mfa.listFactors({ userId })).data?.factors).toEqual([
      expect.objectContaining({ id: factorId, status: 'verified' }),
    ]);
  });
});
