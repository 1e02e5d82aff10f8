import { AuthApiError, AuthSessionMissingError, type SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

describe('TOTP second factor through supabase-js', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  async function signedIn(): Promise<{ client: SupabaseClient; email: string }> {
    const email = uniqueEmail();
    const client = h.client();
    const { error } = await client.auth.signUp({ email, password: 'motdepasse' });
    if (error) throw error;
    return { client, email };
  }

  /** The current code of an authenticator app holding `secret`, at the service's time. */
  function codeFor(secret: string, offsetMs = 0): string {
    return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: h.clock.now().getTime() + offsetMs,
    });
  }

  it('enrolls, challenges and verifies a TOTP factor: aal2 session with totp first in amr', async () => {
    const { client, email } = await signedIn();
    const other = h.client();
    await other.auth.signInWithPassword({ email, password: 'motdepasse' });

    const enrolled = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Téléphone' });
    expect(enrolled.error).toBeNull();
    const factor = enrolled.data;
    if (factor?.type !== 'totp') throw new Error('no totp factor');
    expect(factor.friendly_name).toBe('Téléphone');
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.totp.uri).toContain('otpauth://totp/localhost%3A3000:');
    expect(factor.totp.uri).toContain(`secret=${factor.totp.secret}`);

    const listed = await client.auth.mfa.listFactors();
    expect(listed.data?.all).toEqual([expect.objectContaining({ id: factor.id, status: 'unverified', factor_type: 'totp' })]);
    expect(listed.data?.totp).toEqual([]);

    const challenge = await client.auth.mfa.challenge({ factorId: factor.id });
    expect(challenge.error).toBeNull();
    expect(challenge.data).toMatchObject({ id: expect.any(String), type: 'totp' });
    expect(challenge.data?.expires_at).toBe(Math.floor(h.clock.now().getTime() / 1000) + 300);

    const verified = await client.auth.mfa.verify({
      factorId: factor.id,
      challengeId: challenge.data?.id ?? '',
      code: codeFor(factor.totp.secret),
    });
    expect(verified.error).toBeNull();
    const claims = decodeJwt(verified.data?.access_token ?? '');
    expect(claims.aal).toBe('aal2');
    expect(claims.amr).toEqual([
      { method: 'totp', timestamp: expect.any(Number) },
      { method: 'password', timestamp: expect.any(Number) },
    ]);
    expect(verified.data?.user.factors).toEqual([expect.objectContaining({ id: factor.id, status: 'verified' })]);

    const level = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' });
    expect(level.data?.currentAuthenticationMethods[0]).toMatchObject({ method: 'totp' });
    expect((await client.auth.mfa.listFactors()).data?.totp).toHaveLength(1);

    // The aal1 session elsewhere ended; the upgraded one goes on, and refreshes at aal2.
    expect((await other.auth.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(decodeJwt(refreshed.data.session?.access_token ?? '').aal).toBe('aal2');

    // A later password sign-in is aal1 with aal2 available.
    const fresh = h.client();
    await fresh.auth.signInWithPassword({ email, password: 'motdepasse' });
    expect((await fresh.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' });
    const tooWeak = await fresh.auth.mfa.unenroll({ factorId: factor.id });
    expect(tooWeak.error).toMatchObject({ status: 422, code: 'insufficient_aal' });
    const enrollMore = await fresh.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Autre' });
    expect(enrollMore.error).toMatchObject({ status: 403, code: 'insufficient_aal' });

    const removed = await client.auth.mfa.unenroll({ factorId: factor.id });
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual({ id: factor.id });
    const after = await client.auth.refreshSession();
    expect(decodeJwt(after.data.session?.access_token ?? '').aal).toBe('aal1');
    expect(after.data.session?.user).not.toHaveProperty('factors');
  });

  it('refuses a wrong code (422 mfa_verification_failed) and accepts one step of skew only', async () => {
    const { client } = await signedIn();
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp' });
    if (data?.type !== 'totp') throw new Error('no totp factor');
    const challenge = await client.auth.mfa.challenge({ factorId: data.id });
    const challengeId = challenge.data?.id ?? '';
    const current = codeFor(data.totp.secret);
    const wrong = current === '123456' ? '654321' : '123456';
    const refused = await client.auth.mfa.verify({ factorId: data.id, challengeId, code: wrong });
    expect(refused.error).toBeInstanceOf(AuthApiError);
    expect(refused.error).toMatchObject({ status: 422, code: 'mfa_verification_failed', message: 'Invalid TOTP code entered' });
    const stale = await client.auth.mfa.verify({ factorId: data.id, challengeId, code: codeFor(data.totp.secret, -120_000) });
    expect(stale.error).toMatchObject({ code: 'mfa_verification_failed' });
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe('aal1');
    const ok = await client.auth.mfa.verify({ factorId: data.id, challengeId, code: codeFor(data.totp.secret, -30_000) });
    expect(ok.error).toBeNull();
    const reused = await client.auth.mfa.verify({ factorId: data.id, challengeId, code: codeFor(data.totp.secret) });
    expect(reused.error).toMatchObject({ status: 422, code: 'mfa_ip_address_mismatch' });
  });

  it('expires a challenge after 300 s and refuses unknown factors and duplicate names', async () => {
    const { client } = await signedIn();
    const { data: first } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Clé' });
    if (first?.type !== 'totp') throw new Error('no totp factor');
    const firstChallenge = await client.auth.mfa.challenge({ factorId: first.id });
    await client.auth.mfa.verify({ factorId: first.id, challengeId: firstChallenge.data?.id ?? '', code: codeFor(first.totp.secret) });
    // The name of a verified factor is taken (an unverified one is replaced instead, see below).
    const duplicate = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Clé' });
    expect(duplicate.error).toMatchObject({ status: 422, code: 'mfa_factor_name_conflict' });
    const { data } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Autre clé' });
    if (data?.type !== 'totp') throw new Error('no totp factor');
    const challenge = await client.auth.mfa.challenge({ factorId: data.id });
    h.clock.advance(301_000);
    const late = await client.auth.mfa.verify({
      factorId: data.id,
      challengeId: challenge.data?.id ?? '',
      code: codeFor(data.totp.secret),
    });
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' });
    const unknown = await client.auth.mfa.challenge({ factorId: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    const phone = await h.call('/factors', {
      method: 'POST',
      key: (await client.auth.getSession()).data.session?.access_token,
      body: JSON.stringify({ factor_type: 'phone', phone: '+33600000000' }),
    });
    expect(phone.status).toBe(422);
  });

  it('enrolling again before verifying replaces the unverified factor at once: a new usable QR code, the old one gone', async () => {
    const { client, email } = await signedIn();
    const first = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Union Sincère' });
    if (first.data?.type !== 'totp') throw new Error('no totp factor');
    const staleChallenge = await client.auth.mfa.challenge({ factorId: first.data.id });
    expect(staleChallenge.error).toBeNull();

    // A reload seconds later (no 300 s wait, same friendly name): a new factor, a new secret.
    h.clock.advance(5_000);
    const second = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Union Sincère' });
    expect(second.error).toBeNull();
    if (second.data?.type !== 'totp') throw new Error('no totp factor');
    expect(second.data.id).not.toBe(first.data.id);
    expect(second.data.totp.secret).not.toBe(first.data.totp.secret);
    expect(second.data.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    const listed = await client.auth.mfa.listFactors();
    expect(listed.data?.all).toEqual([expect.objectContaining({ id: second.data.id, status: 'unverified' })]);

    // The old factor and its challenge are gone: the first QR code can no longer be finished.
    const oldVerify = await client.auth.mfa.verify({
      factorId: first.data.id,
      challengeId: staleChallenge.data?.id ?? '',
      code: codeFor(first.data.totp.secret),
    });
    expect(oldVerify.error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' });
    expect((await client.auth.mfa.challenge({ factorId: first.data.id })).error).toMatchObject({
      status: 404,
      code: 'mfa_factor_not_found',
    });

    // The new one verifies with a code of its own secret.
    const challenge = await client.auth.mfa.challenge({ factorId: second.data.id });
    const verified = await client.auth.mfa.verify({
      factorId: second.data.id,
      challengeId: challenge.data?.id ?? '',
      code: codeFor(second.data.totp.secret),
    });
    expect(verified.error).toBeNull();
    expect(decodeJwt(verified.data?.access_token ?? '').aal).toBe('aal2');
    const admin = await h.admin().auth.admin.mfa.listFactors({ userId: verified.data?.user.id ?? '' });
    expect(admin.data?.factors).toEqual([expect.objectContaining({ id: second.data.id, status: 'verified' })]);

    // A verified factor is never replaced: enrolling more needs aal2 and leaves it in place.
    const later = h.client();
    await later.auth.signInWithPassword({ email, password: 'motdepasse' });
    expect((await later.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Autre' })).error).toMatchObject({
      status: 403,
      code: 'insufficient_aal',
    });
    expect((await client.auth.mfa.listFactors()).data?.totp).toEqual([expect.objectContaining({ id: second.data.id })]);
  });
});
