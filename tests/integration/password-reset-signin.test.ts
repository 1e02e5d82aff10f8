import { asc, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { mailbox } from '#bff/db/schema.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * The reset link signs the member in (issue 21, decision 127): the page sends only the new
 * password and the link's token; the BFF verifies the token (verifyOtp, type recovery), sets the
 * password, keeps this browser signed in and ends every other session. Staff come back at aal1:
 * the dashboard stays closed until their second factor.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
}, 120_000);
afterAll(() => product.stop());

type ApiError = { error: { code: string; message: string } };

let n = 0;
async function newMember() {
  n += 1;
  const agent = product.agent();
  const email = `reset.${n}.${Date.now()}@example.fr`;
  const created = await signUp(agent, {
    context: 'init',
    email,
    role: 'homme',
    password: 'ancien-jardin-2026',
  });
  expect(created.status).toBe(201);
  return { agent, email };
}

/** Asks for a reset link and reads its token from the mail, as the member would click it. */
async function resetToken(email: string): Promise<string> {
  const asked = await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email });
  expect(asked.status).toBe(200);
  await product.flushMail();
  // In the order received: PostgreSQL returns rows in no set order without ORDER BY.
  const mails = (await product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, email)).orderBy(asc(mailbox.id))).filter(
    (m) => m.textBody.includes('token_hash='),
  );
  const token = mails.at(-1)?.textBody.match(/token_hash=([0-9a-f]+)/)?.[1];
  if (!token) throw new Error('no reset link');
  return token;
}

const copyOf = (agent: TestAgent) => {
  const copy = product.agent();
  for (const [name, value] of agent.cookies) copy.cookies.set(name, value);
  return copy;
};

describe('a member’s reset link', () => {
  it('asks only the new password, signs this browser in, ends the other sessions', async () => {
    const { agent: otherDevice, email } = await newMember();
    const token = await resetToken(email);
    const browser = product.agent();
    // Not signed in before.
    expect((await browser.get('/api/v1/user/settings')).status).toBe(401);
    // A too short password is refused before the token is spent: the link still works after.
    const short = await browser.post('/api/v1/auth/pass-recovery', { ctx: 'change', password: '123', token });
    expect(short.status).toBe(400);
    expect(browser.cookies.size).toBe(0);

    const changed = await browser.post('/api/v1/auth/pass-recovery', { ctx: 'change', password: 'nouveau-jardin-2026', token });
    expect(changed.status).toBe(200);
    const body = (await changed.json()) as { user: { email: string; role: string }; mfa: { required: boolean } };
    expect(body.user).toMatchObject({ email, role: 'homme' });
    expect(body.mfa.required).toBe(false);
    // Signed in, in this browser, on the member's own space.
    const settings = await browser.json<{ email: string; state: string }>(browser.get('/api/v1/user/settings'));
    expect(settings.email).toBe(email);
    // The session opened before the reset has ended.
    expect((await copyOf(otherDevice).get('/api/v1/user/settings')).status).toBe(401);
    // The new password works, the old one no longer does.
    expect((await product.agent().post('/api/v1/auth/signin', { email, password: 'ancien-jardin-2026' })).status).toBe(400);
    expect((await product.agent().post('/api/v1/auth/signin', { email, password: 'nouveau-jardin-2026' })).status).toBe(200);
    // The session still holds after a moment (not the one-shot recovery session only).
    expect((await browser.get('/api/v1/user/settings')).status).toBe(200);
  });

  it('a used, unknown or malformed link is a clear French 400 that signs nobody in', async () => {
    const { email } = await newMember();
    const token = await resetToken(email);
    expect(
      (await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'change', password: 'nouveau-jardin-2026', token })).status,
    ).toBe(200);
    for (const bad of [token, 'ab'.repeat(28)]) {
      const browser = product.agent();
      const again = await browser.post('/api/v1/auth/pass-recovery', { ctx: 'change', password: 'encore-jardin-2026', token: bad });
      expect(again.status).toBe(400);
      const { error } = (await again.json()) as ApiError;
      expect(error.code).toBe('INVALID_TOKEN');
      expect(error.message).toBe('Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.');
      expect((await browser.get('/api/v1/user/settings')).status).toBe(401);
    }
    const malformed = await product
      .agent()
      .post('/api/v1/auth/pass-recovery', { ctx: 'change', password: 'encore-jardin-2026', token: 'x<y' });
    expect(malformed.status).toBe(400);
    // The password set with the link is the one that works.
    expect((await product.agent().post('/api/v1/auth/signin', { email, password: 'nouveau-jardin-2026' })).status).toBe(200);
  });

  it('an address sent by an older page must be the link’s own', async () => {
    const { email } = await newMember();
    const token = await resetToken(email);
    const browser = product.agent();
    const wrong = await browser.post('/api/v1/auth/pass-recovery', {
      ctx: 'change',
      email: 'quelqu.un.autre@example.fr',
      password: 'nouveau-jardin-2026',
      token,
    });
    expect(wrong.status).toBe(400);
    expect((await browser.get('/api/v1/user/settings')).status).toBe(401);
    expect((await product.agent().post('/api/v1/auth/signin', { email, password: 'ancien-jardin-2026' })).status).toBe(200);
  });
});

describe('a staff member’s reset link', () => {
  it('sets the password but the dashboard stays closed until the second factor', async () => {
    clock.set(new Date());
    const staff = await signInStaff(product);
    const enrolled = await staff.passTotp();
    const token = await resetToken(staff.email);
    const browser = product.agent();
    const changed = await browser.post('/api/v1/auth/pass-recovery', { ctx: 'change', password: 'equipe-nouveau-2026', token });
    expect(changed.status).toBe(200);
    const body = (await changed.json()) as { user: { role: string }; mfa: { required: boolean } };
    expect(body).toMatchObject({ user: { role: 'staff' }, mfa: { required: true } });
    // aal1 only: every staff route answers 403 MFA_REQUIRED.
    const closed = await browser.get('/api/v1/dashboard/leads');
    expect(closed.status).toBe(403);
    expect(((await closed.json()) as ApiError).error.code).toBe('MFA_REQUIRED');
    // The staff member's earlier aal2 session has ended.
    expect((await staff.agent.get('/api/v1/dashboard/leads')).status).toBe(401);
    // The second factor opens it, as at any sign-in.
    clock.set(new Date());
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const verified = await browser.post('/api/v1/auth/mfa/verify', { factorId: enrolled.factorId, code: totp.generate() });
    expect(verified.status).toBe(200);
    expect((await browser.get('/api/v1/dashboard/leads')).status).toBe(200);
  });
});
