import { AuthApiError } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AuthHarness, SITE_URL, startAuthHarness, uniqueEmail } from '#tests/support/auth-harness.ts';

describe('password recovery through supabase-js', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    // Each test starts past the previous one's 60 s repeat window.
    h.clock.advance(61_000);
  });

  async function member(password = 'ancien-secret') {
    const email = uniqueEmail();
    const { error } = await h.client().auth.signUp({ email, password });
    if (error) throw error;
    return email;
  }

  async function lastMailTo(email: string) {
    const mails = (await h.outbox()).filter((m) => m.toAddress === email);
    const mail = mails.at(-1);
    if (!mail) throw new Error(`no mail to ${email}`);
    const link = mail.textBody.match(/https?:\/\/\S+/)?.[0] ?? '';
    const code = mail.textBody.match(/Code de vérification\s: (\d{6})/)?.[1] ?? '';
    return { mail, count: mails.length, link: new URL(link), code };
  }

  it('mails a French link, verifies its token_hash, sets the new password; the old one stops working', async () => {
    const email = await member();
    const queuedBefore = h.mailsQueued;
    const sent = await h.client().auth.resetPasswordForEmail(email);
    expect(sent).toEqual({ data: {}, error: null });
    expect(h.mailsQueued).toBe(queuedBefore + 1);

    const { mail, link } = await lastMailTo(email);
    expect(mail).toMatchObject({ subject: 'Réinitialisation de votre mot de passe', kind: 'auth-recovery', status: 'pending' });
    expect(mail.textBody).toContain('Vous avez demandé à réinitialiser le mot de passe');
    expect(mail.htmlBody).toContain('<a href="http://localhost:3000/connexion/update-password?token_hash=');
    expect(`${link.origin}${link.pathname}`).toBe(`${SITE_URL}/connexion/update-password`);
    expect(link.searchParams.get('type')).toBe('recovery');
    const tokenHash = link.searchParams.get('token_hash') ?? '';
    expect(tokenHash).toMatch(/^[0-9a-f]{56}$/);

    const client = h.client();
    const verified = await client.auth.verifyOtp({ type: 'recovery', token_hash: tokenHash });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(email);
    expect(decodeJwt(verified.data.session?.access_token ?? '').amr).toEqual([{ method: 'otp', timestamp: expect.any(Number) }]);

    const updated = await client.auth.updateUser({ password: 'nouveau-secret' });
    expect(updated.error).toBeNull();

    const withNew = await h.client().auth.signInWithPassword({ email, password: 'nouveau-secret' });
    expect(withNew.error).toBeNull();
    const withOld = await h.client().auth.signInWithPassword({ email, password: 'ancien-secret' });
    expect(withOld.error).toMatchObject({ code: 'invalid_credentials' });
  });

  it('answers an unknown address exactly the same and queues no mail', async () => {
    const before = (await h.outbox()).length;
    const queuedBefore = h.mailsQueued;
    const unknown = await h.call('/recover', { method: 'POST', body: JSON.stringify({ email: uniqueEmail('personne') }) });
    const known = await h.call('/recover', { method: 'POST', body: JSON.stringify({ email: await member() }) });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(await unknown.text()).toBe(await known.text());
    expect((await h.outbox()).length).toBe(before + 1);
    expect(h.mailsQueued).toBe(queuedBefore + 1);
  });

  it('refuses a second request for the same address within 60 s, known or not, then allows it', async () => {
    const email = await member();
    const stranger = uniqueEmail('personne');
    for (const address of [email, stranger]) {
      expect((await h.client().auth.resetPasswordForEmail(address)).error).toBeNull();
      h.clock.advance(20_000);
      const again = await h.client().auth.resetPasswordForEmail(address);
      expect(again.error).toBeInstanceOf(AuthApiError);
      expect(again.error).toMatchObject({
        status: 429,
        code: 'over_email_send_rate_limit',
        message: 'For security purposes, you can only request this after 40 seconds.',
      });
      h.clock.advance(41_000);
      expect((await h.client().auth.resetPasswordForEmail(address)).error).toBeNull();
    }
    expect((await h.outbox()).filter((m) => m.toAddress === email)).toHaveLength(2);
    expect((await h.outbox()).filter((m) => m.toAddress === stranger)).toHaveLength(0);
  });

  it('accepts each link once (403 otp_expired the second time) and only within its hour', async () => {
    const email = await member();
    await h.client().auth.resetPasswordForEmail(email);
    const tokenHash = (await lastMailTo(email)).link.searchParams.get('token_hash') ?? '';
    expect((await h.client().auth.verifyOtp({ type: 'recovery', token_hash: tokenHash })).error).toBeNull();
    const replay = await h.client().auth.verifyOtp({ type: 'recovery', token_hash: tokenHash });
    expect(replay.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Email link is invalid or has expired' });

    h.clock.advance(61_000);
    await h.client().auth.resetPasswordForEmail(email);
    const late = (await lastMailTo(email)).link.searchParams.get('token_hash') ?? '';
    h.clock.advance(3601_000);
    const expired = await h.client().auth.verifyOtp({ type: 'recovery', token_hash: late });
    expect(expired.error).toMatchObject({ status: 403, code: 'otp_expired' });
  });

  it('also verifies the six-digit code with the address (token + email)', async () => {
    const email = await member();
    await h.client().auth.resetPasswordForEmail(email);
    const { code } = await lastMailTo(email);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await h.client().auth.verifyOtp({ type: 'recovery', email, token: code === '000000' ? '111111' : '000000' });
    expect(wrong.error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' });
    const right = await h.client().auth.verifyOtp({ type: 'recovery', email, token: code });
    expect(right.error).toBeNull();
    expect(right.data.user?.email).toBe(email);
  });

  it('links to redirect_to on the site, and ignores a foreign one', async () => {
    const email = await member();
    await h.client().auth.resetPasswordForEmail(email, { redirectTo: `${SITE_URL}/autre/page?x=1` });
    const own = (await lastMailTo(email)).link;
    expect(`${own.origin}${own.pathname}`).toBe(`${SITE_URL}/autre/page`);
    expect(own.searchParams.get('x')).toBe('1');
    expect(own.searchParams.get('type')).toBe('recovery');
    h.clock.advance(61_000);
    await h.client().auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example.com/steal' });
    const foreign = (await lastMailTo(email)).link;
    expect(foreign.origin).toBe(SITE_URL);
    expect(foreign.pathname).toBe('/connexion/update-password');
  });

  it('runs the PKCE flow: the link yields a code that only the verifier holder can exchange', async () => {
    const email = await member();
    const client = h.client({ flowType: 'pkce' });
    expect((await client.auth.resetPasswordForEmail(email)).error).toBeNull();
    const tokenHash = (await lastMailTo(email)).link.searchParams.get('token_hash') ?? '';

    const followed = await h.call(`/verify?token=pkce_${tokenHash}&type=recovery&redirect_to=${encodeURIComponent(`${SITE_URL}/retour`)}`);
    expect(followed.status).toBe(303);
    const location = new URL(followed.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${SITE_URL}/retour`);
    const code = location.searchParams.get('code') ?? '';
    expect(code).toMatch(/^[0-9a-f-]{36}$/);

    const stranger = h.client({ flowType: 'implicit' });
    const refused = await stranger.auth.exchangeCodeForSession(code);
    expect(refused.error).toBeTruthy();

    const exchanged = await client.auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect(decodeJwt(exchanged.data.session?.access_token ?? '').amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);

    const again = await h.call('/token?grant_type=pkce', {
      method: 'POST',
      body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(43) }),
    });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ error_code: 'flow_state_not_found' });
  });

  it('redirects a dead link with the error in the fragment', async () => {
    const response = await h.call(`/verify?token=${'0'.repeat(56)}&type=recovery&redirect_to=${encodeURIComponent(`${SITE_URL}/x`)}`);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('error')).toBe('access_denied');
    expect(fragment.get('error_code')).toBe('otp_expired');
    expect(fragment.get('error_description')).toBe('Email link is invalid or has expired');
  });
});

describe('the sign-up confirmation (POST /resend type signup, decision 187)', () => {
  let h: AuthHarness;
  beforeAll(async () => {
    h = await startAuthHarness();
  });
  afterAll(() => h.close());

  const confirmationsTo = async (email: string) =>
    (await h.outbox()).filter((m) => m.toAddress === email && m.kind === 'auth-signup-confirmation');

  it('mails a new link to an account waiting for its confirmation (the previous one stops working), nothing to others, the same answer', async () => {
    const email = uniqueEmail('attente');
    const created = await h.admin().auth.admin.createUser({ email, password: 'figuier-lanterne-2026', email_confirm: false });
    expect(created.error).toBeNull();
    expect(await h.client().auth.resend({ type: 'signup', email })).toMatchObject({ error: null });
    const [first] = await confirmationsTo(email);
    expect(first?.subject).toBe('Confirmez votre adresse e-mail');
    const firstToken = new URL(first?.textBody.match(/https?:\/\/\S+/)?.[0] ?? '').searchParams.get('token_hash');
    expect(first?.textBody).toContain(`${SITE_URL}/connexion/confirmation?token_hash=`);
    h.clock.advance(61_000);
    expect(await h.client().auth.resend({ type: 'signup', email })).toMatchObject({ error: null });
    const second = (await confirmationsTo(email)).at(-1);
    const secondToken = new URL(second?.textBody.match(/https?:\/\/\S+/)?.[0] ?? '').searchParams.get('token_hash');
    expect(secondToken).not.toBe(firstToken);
    expect((await h.client().auth.verifyOtp({ type: 'signup', token_hash: firstToken ?? '' })).error).toMatchObject({
      code: 'otp_expired',
    });
    const verified = await h.client().auth.verifyOtp({ type: 'signup', token_hash: secondToken ?? '' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email_confirmed_at).toBeTruthy();

    // Confirmed, unknown, invited: the same empty answer, and no mail.
    h.clock.advance(61_000);
    const invited = uniqueEmail('invitee');
    expect((await h.admin().auth.admin.generateLink({ type: 'invite', email: invited })).error).toBeNull();
    for (const address of [email, uniqueEmail('personne'), invited]) {
      expect(await h.client().auth.resend({ type: 'signup', email: address })).toMatchObject({ error: null });
    }
    expect(await confirmationsTo(email)).toHaveLength(2);
    expect(await confirmationsTo(invited)).toHaveLength(0);
  });

  it('a confirmation code tried too often in a day: 429 over_code_daily_limit in French (decision 188)', async () => {
    const email = uniqueEmail('devine');
    await h.admin().auth.admin.createUser({ email, password: 'figuier-lanterne-2026', email_confirm: false });
    let code: string | undefined;
    for (let i = 0; i < 30 && code !== 'over_code_daily_limit'; i += 1) {
      h.clock.advance(121_000);
      const { error } = await h.client().auth.verifyOtp({ type: 'signup', email, token: String(200_000 + i) });
      code = error?.code;
      if (code !== 'over_code_daily_limit') expect(code).toBe('otp_expired');
      else {
        expect(i).toBe(15);
        expect(error?.status).toBe(429);
        expect(error?.message).toMatch(/Contactez l’agence/);
      }
    }
    expect(code).toBe('over_code_daily_limit');
  });
});
