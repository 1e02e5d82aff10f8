import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailbox, mailOutbox, members } from '#bff/db/schema.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
import { SUBSCRIPTION_NOT_STARTED } from '#tests/support/session-user.ts';
import { confirmationTokenIn, mailsTo, signUp as register } from '#tests/support/sign-up.ts';

type Product = Awaited<ReturnType<typeof startTestProduct>>;
let product: Product;

beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

let counter = 0;
function uniqueEmail(prefix = 'membre') {
  counter += 1;
  return `${prefix}.${counter}.${Date.now()}@example.fr`;
}

async function signUp(agent: TestAgent, email = uniqueEmail(), password = 'bismillah-2026', role: 'homme' | 'femme' = 'femme') {
  const response = await register(agent, { context: 'init', email, role, password });
  expect(response.status).toBe(201);
  return { response, email, password };
}

const memberCount = async () => (await product.database.db.select({ n: sql<number>`count(*)::int` }).from(members))[0]?.n ?? 0;

describe('POST /api/v1/dashboard/subscription (account creation)', () => {
  it('registers without a session and mails a confirmation; its link, opened in the same browser, creates the member and signs in with HttpOnly @supabase/ssr cookies', async () => {
    const agent = product.agent();
    const email = uniqueEmail();
    const before = await memberCount();
    const registered = await agent.post('/api/v1/dashboard/subscription', {
      context: 'init',
      email,
      role: 'femme',
      password: 'bismillah-2026',
    });
    expect(registered.status).toBe(202);
    expect(await registered.json()).toEqual({ confirmation: 'sent', email, message: expect.stringContaining(email) });
    // No session yet, and no member: only the browser's proof that it registered.
    expect([...agent.cookies.keys()]).toEqual(['us-inscription']);
    expect((await agent.get('/api/v1/user/settings')).status).toBe(401);
    expect(await memberCount()).toBe(before);
    const [mail] = await mailsTo(product.database.db, email, 'auth-signup-confirmation');
    expect(mail?.subject).toBe('Confirmez votre adresse e-mail');
    expect(mail?.textBody).toMatch(/\/connexion\/confirmation\?token_hash=[0-9a-f]+&type=signup/);

    const response = await agent.post('/api/v1/auth/confirmation', { tokenHash: await confirmationTokenIn(product.database.db, email) });
    expect(response.status).toBe(201);
    const cookies = response.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('sb-localhost-auth-token'));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//);
    expect(session).toMatch(/Max-Age=34560000/);
    expect(session).not.toMatch(/Secure/); // localhost only
    expect(agent.cookies.has('us-inscription')).toBe(false);
    const settings = await agent.json<Record<string, unknown>>(agent.get('/api/v1/user/settings'));
    expect(settings).toMatchObject({
      email,
      role: 'femme',
      selectedPlanId: null,
      meeting: false,
      subscription: SUBSCRIPTION_NOT_STARTED,
    });
    expect(typeof settings.id).toBe('string');
    expect(await memberCount()).toBe(before + 1);
    // The link works once.
    const again = await agent.post('/api/v1/auth/confirmation', { tokenHash: await confirmationTokenIn(product.database.db, email) });
    expect(again.status).toBe(400);
  });

  it('until confirmed: sign-in says so (right password only), the mail can be sent again, another device confirms with the password', async () => {
    const email = uniqueEmail('attente');
    const password = 'bismillah-2026';
    expect((await product.agent().post('/api/v1/dashboard/subscription', { context: 'init', email, role: 'homme', password })).status).toBe(
      202,
    );
    const phone = product.agent();
    const unconfirmed = await phone.post('/api/v1/auth/signin', { email, password });
    expect(unconfirmed.status).toBe(400);
    expect((await unconfirmed.json()).error).toMatchObject({
      code: 'EMAIL_NOT_CONFIRMED',
      message: expect.stringMatching(/pas encore confirmée/),
    });
    const wrong = await phone.post('/api/v1/auth/signin', { email, password: 'pas-le-bon-mot' });
    expect((await wrong.json()).error.code).toBe('INVALID_CREDENTIALS');
    expect(phone.cookies.size).toBe(0);

    const first = await confirmationTokenIn(product.database.db, email);
    const resent = await phone.post('/api/v1/auth/confirmation/resend', { email });
    expect(resent.status).toBe(200);
    const second = await confirmationTokenIn(product.database.db, email);
    expect(second).not.toBe(first);
    // One mail of a kind a minute per address (GoTrue's): too soon, said in French.
    const tooSoon = await phone.post('/api/v1/auth/confirmation/resend', { email });
    expect(tooSoon.status).toBe(429);
    expect((await tooSoon.json()).error.message).toMatch(/Patientez une minute/);
    // The same answer for an address with no registration.
    const unknown = await phone.post('/api/v1/auth/confirmation/resend', { email: uniqueEmail('personne') });
    expect(unknown.status).toBe(200);

    // The phone did not register: the link alone is not enough, the password chosen then is.
    const bare = await phone.post('/api/v1/auth/confirmation', { tokenHash: second });
    expect(bare.status).toBe(400);
    expect((await bare.json()).error.code).toBe('CONFIRMATION_PASSWORD_REQUIRED');
    const badPassword = await phone.post('/api/v1/auth/confirmation', { tokenHash: second, email, password: 'pas-le-bon-mot' });
    expect((await badPassword.json()).error.code).toBe('INVALID_CREDENTIALS');
    // The earlier link stopped working when the new one was sent.
    expect((await phone.post('/api/v1/auth/confirmation', { tokenHash: first, email, password })).status).toBe(400);
    const confirmed = await phone.post('/api/v1/auth/confirmation', { tokenHash: second, email, password });
    expect(confirmed.status).toBe(201);
    expect((await phone.get('/api/v1/user/settings')).status).toBe(200);
    expect((await product.agent().post('/api/v1/auth/signin', { email, password })).status).toBe(200);
  });

  it.each([
    [{ email: 'pas un email@x.fr', password: 'bismillah' }, 'INVALID_EMAIL'],
    [{ email: 'amina@example', password: 'bismillah' }, 'INVALID_EMAIL'],
    // What Supabase Auth refuses is refused here first (machines/auth/email-address.ts).
    [{ email: 'xx:;x@x.x', password: 'bismillah' }, 'INVALID_EMAIL'],
    [{ email: 'amina2@example.fr', password: 'court' }, 'PASSWORD_TOO_SHORT'],
    [{ email: 'amina3@example.fr', password: 'bismillah-2026', passwordRepeat: 'bismillaH-2026' }, 'PASSWORD_REPEAT_FAILED'],
  ])('refuses %o with reason %s and changes nothing', async (input, reason) => {
    const before = await memberCount();
    const agent = product.agent();
    const response = await agent.post('/api/v1/dashboard/subscription', { context: 'init', role: 'homme', ...input });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'INVALID_CREDENTIALS', message: 'Email ou mot de passe invalide', reason, requestId: expect.any(String) },
    });
    expect(await memberCount()).toBe(before);
    expect(agent.cookies.size).toBe(0);
  });

  it('a second registration with an address that has an account answers the same and changes nothing', async () => {
    const email = uniqueEmail();
    await signUp(product.agent(), email);
    const before = await memberCount();
    const agent = product.agent();
    const response = await agent.post('/api/v1/dashboard/subscription', {
      context: 'init',
      email,
      role: 'homme',
      password: 'autre-jardin-2026',
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ confirmation: 'sent', email, message: expect.stringContaining(email) });
    expect(await memberCount()).toBe(before);
    expect((await product.agent().post('/api/v1/auth/signin', { email, password: 'bismillah-2026' })).status).toBe(200);
    expect((await mailsTo(product.database.db, email, 'account-signup-attempt')).length).toBe(1);
  });

  it('refuses a role that is not a gender, and malformed bodies, with the error shape', async () => {
    const agent = product.agent();
    const bad = await agent.post('/api/v1/dashboard/subscription', {
      context: 'init',
      email: uniqueEmail(),
      role: 'staff',
      password: 'bismillah',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('VALIDATION_FAILED');
    const broken = await agent.request('POST', '/api/v1/dashboard/subscription', '{"context":', { 'content-type': 'application/json' });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error).toHaveProperty('message');
  });
});

describe('sign-in, settings and sign-out', () => {
  it('signs in with the right password only', async () => {
    const { email, password } = await signUp(product.agent());
    const agent = product.agent();
    const wrong = await agent.post('/api/v1/auth/signin', { email, password: 'mauvais-mot' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      error: { code: 'INVALID_CREDENTIALS', message: 'Email ou mot de passe invalide', requestId: expect.any(String) },
    });
    expect((await agent.get('/api/v1/user/settings')).status).toBe(401);
    const right = await agent.post('/api/v1/auth/signin', { email: email.toUpperCase(), password });
    expect(right.status).toBe(200);
    expect((await agent.get('/api/v1/user/settings')).status).toBe(200);
  });

  it('answers 401 to every member endpoint without a valid session, and to a forged cookie', async () => {
    const anonymous = product.agent();
    const response = await anonymous.get('/api/v1/user/settings');
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('UNAUTHENTICATED');
    const forged = await anonymous.get('/api/v1/user/settings', { cookie: 'sb-localhost-auth-token=base64-eyJhY2Nlc3NfdG9rZW4iOiJ4In0' });
    expect(forged.status).toBe(401);
  });

  it('signs out: cookies cleared and the session refused afterwards', async () => {
    const agent = product.agent();
    await signUp(agent);
    const stolen = new Map(agent.cookies);
    const out = await agent.post('/api/v1/auth/signout', {});
    expect(out.status).toBe(200);
    expect(agent.cookies.size).toBe(0);
    expect((await agent.get('/api/v1/user/settings')).status).toBe(401);
    // The old cookie no longer opens anything: the session was ended on the auth service.
    const replay = product.agent();
    for (const [k, v] of stolen) replay.cookies.set(k, v);
    const replayed = await replay.get('/api/v1/user/settings');
    expect([200, 401]).toContain(replayed.status);
  });

  it('clears the cookies at sign-out even when the session was already ended elsewhere', async () => {
    const { email, password } = await signUp(product.agent());
    const laptop = product.agent();
    const phone = product.agent();
    expect((await laptop.post('/api/v1/auth/signin', { email, password })).status).toBe(200);
    expect((await phone.post('/api/v1/auth/signin', { email, password })).status).toBe(200);
    // A password change through recovery ends every session (global sign-out on the auth service).
    await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email });
    await product.flushMail();
    // The recovery mail (the confirmation and welcome mails went to the same address at sign-up).
    const mail = (await product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, email))).find((m) =>
      m.textBody.includes('/connexion/update-password?token_hash='),
    );
    const token = mail?.textBody.match(/token_hash=([0-9a-f]+)/)?.[1];
    expect(
      (await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'change', email, password: 'autre-secret-2026', token })).status,
    ).toBe(200);
    const out = await phone.post('/api/v1/auth/signout', {});
    expect(out.status).toBe(200);
    expect(phone.cookies.size).toBe(0);
  });

  it('each member reads only their own settings', async () => {
    const a = product.agent();
    const b = product.agent();
    const { email: emailA } = await signUp(a);
    const { email: emailB } = await signUp(b, undefined, undefined, 'homme');
    const settingsA = await a.json<{ email: string; id: string }>(a.get('/api/v1/user/settings'));
    const settingsB = await b.json<{ email: string; id: string }>(b.get('/api/v1/user/settings'));
    expect(settingsA.email).toBe(emailA);
    expect(settingsB.email).toBe(emailB);
    expect(settingsA.id).not.toBe(settingsB.id);
  });

  it('refuses a disabled account at once, even with an open session', async () => {
    const agent = product.agent();
    await signUp(agent);
    const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
    await product.database.db.update(members).set({ disabled: true }).where(eq(members.id, id));
    // Signed out like any ended session (decision 100), with the agency's message; cookies cleared.
    const response = await agent.get('/api/v1/user/settings');
    expect(response.status).toBe(401);
    expect((await response.json()).error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Ce compte est désactivé. Contactez l’agence.',
    });
    expect(agent.cookies.size).toBe(0);
  });

  it('refuses cross-site writes', async () => {
    const response = await product
      .agent()
      .post('/api/v1/auth/signin', { email: 'a@example.fr', password: 'bismillah' }, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('CROSS_SITE_REQUEST');
  });

  it('rate limits sign-in per account with a French 429', async () => {
    const { email } = await signUp(product.agent());
    const agent = product.agent();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) statuses.push((await agent.post('/api/v1/auth/signin', { email, password: `mauvais-${i}` })).status);
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    const limited = await agent.post('/api/v1/auth/signin', { email, password: 'mauvais-x' });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.message).toMatch(/Trop de tentatives/);
  });
});

describe('password recovery through the mailbox', () => {
  it('answers the same for unknown and known emails, and only mails the known one', async () => {
    const { email } = await signUp(product.agent());
    const agent = product.agent();
    const outboxBefore = (await product.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox))[0]?.n ?? 0;
    const unknown = await agent.post('/api/v1/auth/pass-recovery', { ctx: 'reco', email: uniqueEmail('inconnu') });
    const known = await agent.post('/api/v1/auth/pass-recovery', { ctx: 'reco', email });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());
    const outboxAfter = (await product.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox))[0]?.n ?? 0;
    expect(outboxAfter - outboxBefore).toBe(1);
  });

  it('sets a new password with the mailed token; the old one stops working', async () => {
    const { email, password } = await signUp(product.agent());
    const asked = await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email });
    expect(asked.status, await asked.clone().text()).toBe(200);
    await product.flushMail();
    // The recovery mail (the confirmation and welcome mails went to the same address at sign-up).
    const mail = (await product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, email))).find((m) =>
      m.textBody.includes('/connexion/update-password?token_hash='),
    );
    expect(mail?.textBody).toContain('/connexion/update-password');
    const token = mail?.textBody.match(/token_hash=([0-9a-f]+)/)?.[1];
    expect(token).toBeDefined();
    const agent = product.agent();
    const bad = await agent.post('/api/v1/auth/pass-recovery', {
      ctx: 'change',
      email: 'pas-un-email',
      password: 'nouveau-jardin-2026',
      token,
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe('Email invalide');
    const changed = await agent.post('/api/v1/auth/pass-recovery', { ctx: 'change', email, password: 'nouveau-jardin-2026', token });
    expect(changed.status).toBe(200);
    expect((await agent.post('/api/v1/auth/signin', { email, password })).status).toBe(400);
    expect((await agent.post('/api/v1/auth/signin', { email, password: 'nouveau-jardin-2026' })).status).toBe(200);
    const reused = await product
      .agent()
      .post('/api/v1/auth/pass-recovery', { ctx: 'change', email, password: 'encore-jardin-2026', token });
    expect(reused.status).toBe(400);
  });

  it('refuses a malformed recovery email with "Email invalide"', async () => {
    const response = await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email: 'amina at example.fr' });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('Email invalide');
  });
});

describe('GET /api/v1/auth/session', () => {
  it('answers 200 with no user for a visitor, and the settings for a member', async () => {
    const visitor = product.agent();
    const anonymous = await visitor.get('/api/v1/auth/session');
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({ user: null });
    const { email } = await signUp(visitor);
    const signedIn = await visitor.json<{ user: { email: string; state: string; aal: string } }>(visitor.get('/api/v1/auth/session'));
    expect(signedIn.user).toMatchObject({ email, state: 'profil', aal: 'aal1' });
  });
});
