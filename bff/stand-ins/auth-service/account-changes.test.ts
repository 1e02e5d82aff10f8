import { AuthSessionMissingError } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AuthHarness, SITE_URL, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

/** Issue 19, decision 102: an address changes only once confirmed, a password only with a proof. */
describe('e-mail and password changes through supabase-js', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    // Each test starts past the previous one's 60 s repeat window.
    h.clock.advance(61_000);
  });

  async function signedIn(password = 'ancien-secret') {
    const email = uniqueEmail();
    const signedUp = await h.client().auth.signUp({ email, password });
    if (signedUp.error) throw signedUp.error;
    const client = h.client();
    const { error } = await client.auth.signInWithPassword({ email, password });
    if (error) throw error;
    return { email, client };
  }

  async function mailsTo(email: string) {
    return (await h.outbox()).filter((m) => m.toAddress === email);
  }

  async function lastMailTo(email: string) {
    const mail = (await mailsTo(email)).at(-1);
    if (!mail) throw new Error(`no mail to ${email}`);
    const link = mail.textBody.match(/https?:\/\/\S+token_hash\S+/)?.[0];
    const code = mail.textBody.match(/(?:Code de vérification|saisissez ce code)\s: (\d{6})/)?.[1] ?? '';
    return { mail, link: link ? new URL(link) : undefined, code };
  }

  const canSignIn = async (email: string, password: string) =>
    (await h.client().auth.signInWithPassword({ email, password })).error === null;

  it('keeps the address until the new one confirms by token_hash; the old address is told twice', async () => {
    const { email, client } = await signedIn();
    const next = uniqueEmail('nouvelle');

    const refused = await client.auth.updateUser({ email: next });
    expect(refused.error).toMatchObject({ status: 400, code: 'current_password_required' });
    expect(await mailsTo(next)).toHaveLength(0);

    const requested = await client.auth.updateUser({ email: next, current_password: 'ancien-secret' });
    expect(requested.error).toBeNull();
    expect(requested.data.user).toMatchObject({ email, new_email: next, email_change_sent_at: expect.any(String) });

    // Pending: the account still answers to the old address only.
    expect(await canSignIn(next, 'ancien-secret')).toBe(false);
    expect(await canSignIn(email, 'ancien-secret')).toBe(true);
    expect((await client.auth.getUser()).data.user).toMatchObject({ email, new_email: next });

    const confirmation = await lastMailTo(next);
    expect(confirmation.mail).toMatchObject({ subject: 'Confirmez votre nouvelle adresse e-mail', kind: 'auth-email-change' });
    expect(`${confirmation.link?.origin}${confirmation.link?.pathname}`).toBe(`${SITE_URL}/mon-compte/confirmer-email`);
    expect(confirmation.link?.searchParams.get('type')).toBe('email_change');
    const notice = await lastMailTo(email);
    expect(notice.mail).toMatchObject({ kind: 'auth-email-change-notice' });
    expect(notice.mail.textBody).toContain(next);
    expect(notice.link).toBeUndefined();

    const verifier = h.client();
    const verified = await verifier.auth.verifyOtp({
      type: 'email_change',
      token_hash: confirmation.link?.searchParams.get('token_hash') ?? '',
    });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(next);
    expect(verified.data.user).not.toHaveProperty('new_email');
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();

    expect(await canSignIn(next, 'ancien-secret')).toBe(true);
    expect(await canSignIn(email, 'ancien-secret')).toBe(false);
    expect((await lastMailTo(email)).mail).toMatchObject({ kind: 'auth-email-changed', subject: 'Votre adresse e-mail a été modifiée' });
    // The link is used up.
    const again = await h
      .client()
      .auth.verifyOtp({ type: 'email_change', token_hash: confirmation.link?.searchParams.get('token_hash') ?? '' });
    expect(again.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('confirms with the code and the new address (token + email), not with the old address', async () => {
    const { email, client } = await signedIn();
    const next = uniqueEmail('nouvelle');
    expect((await client.auth.updateUser({ email: next, current_password: 'ancien-secret' })).error).toBeNull();
    const { code } = await lastMailTo(next);
    expect(code).toMatch(/^\d{6}$/);

    const withOld = await h.client().auth.verifyOtp({ type: 'email_change', email, token: code });
    expect(withOld.error).toMatchObject({ status: 403, code: 'otp_expired' });
    const wrong = await h.client().auth.verifyOtp({ type: 'email_change', email: next, token: code === '000000' ? '000001' : '000000' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired' });
    expect(await canSignIn(next, 'ancien-secret')).toBe(false);

    const verified = await h.client().auth.verifyOtp({ type: 'email_change', email: next, token: code });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(next);
    expect(await canSignIn(next, 'ancien-secret')).toBe(true);
  });

  it('applies the change through GET /verify too, redirecting with a session', async () => {
    const { client } = await signedIn();
    const next = uniqueEmail('nouvelle');
    expect((await client.auth.updateUser({ email: next, current_password: 'ancien-secret' })).error).toBeNull();
    const tokenHash = (await lastMailTo(next)).link?.searchParams.get('token_hash') ?? '';
    const response = await h.call(
      `/verify?type=email_change&token=${tokenHash}&redirect_to=${encodeURIComponent(`${SITE_URL}/mon-compte`)}`,
    );
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${SITE_URL}/mon-compte`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(decodeJwt(fragment.get('access_token') ?? '').email).toBe(next);
    expect(await canSignIn(next, 'ancien-secret')).toBe(true);
  });

  it('resends the link to the pending address (POST /resend email_change): only the newest link works', async () => {
    const { email, client } = await signedIn();
    const next = uniqueEmail('nouvelle');
    expect((await client.auth.updateUser({ email: next, current_password: 'ancien-secret' })).error).toBeNull();
    const first = (await lastMailTo(next)).link?.searchParams.get('token_hash') ?? '';
    const tooSoon = await h.client().auth.resend({ type: 'email_change', email });
    expect(tooSoon.error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' });

    h.clock.advance(61_000);
    const before = (await h.outbox()).length;
    expect(await h.client().auth.resend({ type: 'email_change', email: uniqueEmail('personne') })).toMatchObject({ error: null });
    expect((await h.outbox()).length).toBe(before);
    expect(await h.client().auth.resend({ type: 'email_change', email })).toMatchObject({ error: null });
    const second = (await lastMailTo(next)).link?.searchParams.get('token_hash') ?? '';
    expect(second).not.toBe(first);

    expect((await h.client().auth.verifyOtp({ type: 'email_change', token_hash: first })).error).toMatchObject({ code: 'otp_expired' });
    expect((await h.client().auth.verifyOtp({ type: 'email_change', token_hash: second })).data.user?.email).toBe(next);
  });

  it('refuses an address another account holds (422 email_exists) or GoTrue would refuse (400), and sends nothing', async () => {
    const { client } = await signedIn();
    const other = await signedIn();
    const before = (await h.outbox()).length;
    const taken = await client.auth.updateUser({ email: other.email, current_password: 'ancien-secret' });
    expect(taken.error).toMatchObject({ status: 422, code: 'email_exists' });
    const invalid = await client.auth.updateUser({ email: 'xx:;x@x.x', current_password: 'ancien-secret' });
    expect(invalid.error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await h.outbox()).length).toBe(before);
    expect((await client.auth.getUser()).data.user).not.toHaveProperty('new_email');
  });

  it('refuses a password change without proof or with a wrong current password; accepts the right one', async () => {
    const { email, client } = await signedIn();
    const other = h.client();
    await other.auth.signInWithPassword({ email, password: 'ancien-secret' });

    const bare = await client.auth.updateUser({ password: 'nouveau-secret' });
    expect(bare.error).toMatchObject({ status: 400, code: 'current_password_required' });
    const wrong = await client.auth.updateUser({ password: 'nouveau-secret', current_password: 'pas-le-bon' });
    expect(wrong.error).toMatchObject({ status: 400, code: 'current_password_invalid' });
    expect(await canSignIn(email, 'ancien-secret')).toBe(true);

    const changed = await client.auth.updateUser({ password: 'nouveau-secret', current_password: 'ancien-secret' });
    expect(changed.error).toBeNull();
    expect(await canSignIn(email, 'nouveau-secret')).toBe(true);
    expect(await canSignIn(email, 'ancien-secret')).toBe(false);
    // GoTrue's UpdatePassword: the other sessions end, this one goes on.
    expect((await client.auth.getUser()).error).toBeNull();
    expect((await other.auth.getUser()).error).toBeInstanceOf(AuthSessionMissingError);
  });

  it('counts wrong current passwords against the account: 429 after ten, even for the right one', async () => {
    const { client } = await signedIn();
    for (let i = 0; i < 10; i += 1) {
      const wrong = await client.auth.updateUser({ password: 'nouveau-secret', current_password: `faux-${i}` });
      expect(wrong.error).toMatchObject({ code: 'current_password_invalid' });
    }
    const blocked = await client.auth.updateUser({ password: 'nouveau-secret', current_password: 'ancien-secret' });
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit' });
  });

  it('accepts a nonce from GET /reauthenticate once; a wrong one is 422 reauthentication_not_valid', async () => {
    const { email, client } = await signedIn();
    const sent = await client.auth.reauthenticate();
    expect(sent.error).toBeNull();
    const { mail, code } = await lastMailTo(email);
    expect(mail).toMatchObject({ kind: 'auth-reauthentication', subject: 'Votre code de confirmation' });
    expect(code).toMatch(/^\d{6}$/);
    expect((await client.auth.getUser()).data.user as unknown as Record<string, unknown>).toHaveProperty('reauthentication_sent_at');

    const wrong = await client.auth.updateUser({ password: 'nouveau-secret', nonce: code === '000000' ? '000001' : '000000' });
    expect(wrong.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });
    const accepted = await client.auth.updateUser({ password: 'nouveau-secret', nonce: code });
    expect(accepted.error).toBeNull();
    expect(await canSignIn(email, 'nouveau-secret')).toBe(true);
    const reused = await client.auth.updateUser({ password: 'troisieme-secret', nonce: code });
    expect(reused.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' });

    // The nonce proves an address change as well.
    h.clock.advance(61_000);
    expect((await client.auth.reauthenticate()).error).toBeNull();
    const next = uniqueEmail('nouvelle');
    const changed = await client.auth.updateUser({ email: next, nonce: (await lastMailTo(email)).code });
    expect(changed.error).toBeNull();
    expect(changed.data.user).toMatchObject({ email, new_email: next });
  });

  it('lets a fresh recovery session set a password without the current one, for ten minutes only', async () => {
    const { email } = await signedIn();
    expect((await h.client().auth.resetPasswordForEmail(email)).error).toBeNull();
    const tokenHash = (await lastMailTo(email)).link?.searchParams.get('token_hash') ?? '';
    const recovering = h.client();
    expect((await recovering.auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })).error).toBeNull();
    expect((await recovering.auth.updateUser({ password: 'nouveau-secret' })).error).toBeNull();
    expect(await canSignIn(email, 'nouveau-secret')).toBe(true);

    h.clock.advance(11 * 60_000);
    const late = await recovering.auth.updateUser({ password: 'troisieme-secret' });
    expect(late.error).toMatchObject({ status: 400, code: 'current_password_required' });
  });
});
