import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailbox, members } from '#bff/db/schema.ts';
import { startTestProduct, TEST_SITE, type TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** Mon profil's address and password changes through the BFF (issue 19, decision 102). */
type Product = Awaited<ReturnType<typeof startTestProduct>>;
let product: Product;

beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

let counter = 0;
const uniqueEmail = (prefix = 'membre') => {
  counter += 1;
  return `${prefix}.${counter}.${Date.now()}@example.fr`;
};

async function member(password = 'bismillah-2026') {
  const agent = product.agent();
  const email = uniqueEmail();
  const response = await signUp(agent, { context: 'init', email, role: 'femme', password });
  expect(response.status).toBe(201);
  return { agent, email, password };
}

async function mailsTo(address: string) {
  await product.flushMail();
  return product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, address));
}

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; issues?: { path: string }[] } }).error;
const signIn = (email: string, password: string) => product.agent().post('/api/v1/auth/signin', { email, password });
const settingsEmail = async (agent: TestAgent) => (await agent.json<{ email: string }>(agent.get('/api/v1/user/settings'))).email;

describe('POST /api/v1/user/password', () => {
  it('needs the right current password, ends the other sessions, keeps this one', async () => {
    const { agent, email, password } = await member();
    const phone = product.agent();
    expect((await phone.post('/api/v1/auth/signin', { email, password })).status).toBe(200);

    const missing = await agent.post('/api/v1/user/password', {
      newPassword: 'nouveau-jardin-2026',
      newPasswordRepeat: 'nouveau-jardin-2026',
    });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).issues?.map((i) => i.path)).toContain('currentPassword');

    const mismatch = await agent.post('/api/v1/user/password', {
      currentPassword: password,
      newPassword: 'nouveau-jardin-2026',
      newPasswordRepeat: 'autre',
    });
    expect(mismatch.status).toBe(400);
    expect((await errorOf(mismatch)).issues).toEqual([{ path: 'newPasswordRepeat', message: 'Les mots de passe ne correspondent pas' }]);

    const short = await agent.post('/api/v1/user/password', {
      currentPassword: password,
      newPassword: 'court',
      newPasswordRepeat: 'court',
    });
    expect(short.status).toBe(400);
    expect((await errorOf(short)).issues?.[0]?.path).toBe('newPassword');

    const wrong = await agent.post('/api/v1/user/password', {
      currentPassword: 'pas-le-bon',
      newPassword: 'nouveau-jardin-2026',
      newPasswordRepeat: 'nouveau-jardin-2026',
    });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({
      code: 'CURRENT_PASSWORD_INVALID',
      issues: [{ path: 'currentPassword', message: 'Mot de passe actuel incorrect.' }],
    });
    expect((await signIn(email, password)).status).toBe(200);

    const same = await agent.post('/api/v1/user/password', {
      currentPassword: password,
      newPassword: password,
      newPasswordRepeat: password,
    });
    expect(await errorOf(same)).toMatchObject({ code: 'SAME_PASSWORD' });

    const changed = await agent.post('/api/v1/user/password', {
      currentPassword: password,
      newPassword: 'nouveau-jardin-2026',
      newPasswordRepeat: 'nouveau-jardin-2026',
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    expect((await agent.get('/api/v1/user/settings')).status).toBe(200);
    await expect.poll(async () => (await phone.get('/api/v1/user/settings')).status).toBe(401);
    expect((await signIn(email, password)).status).toBe(400);
    expect((await signIn(email, 'nouveau-jardin-2026')).status).toBe(200);
  });

  it('is refused to a visitor who is not signed in, and to another site', async () => {
    const body = { currentPassword: 'x', newPassword: 'nouveau-jardin-2026', newPasswordRepeat: 'nouveau-jardin-2026' };
    expect((await product.agent().post('/api/v1/user/password', body)).status).toBe(401);
    const { agent } = await member();
    const forged = await agent.post('/api/v1/user/password', body, { origin: 'https://ailleurs.example' });
    expect(forged.status).toBe(403);
  });
});

describe('POST /api/v1/user/email and /user/email/confirm', () => {
  it('keeps the address until the link mailed to the new one is followed, then updates the member', async () => {
    const { agent, email, password } = await member();
    const next = uniqueEmail('nouvelle');

    const wrong = await agent.post('/api/v1/user/email', { newEmail: next, currentPassword: 'pas-le-bon' });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ code: 'CURRENT_PASSWORD_INVALID' });
    expect(await mailsTo(next)).toHaveLength(0);

    const asked = await agent.post('/api/v1/user/email', { newEmail: ` ${next.toUpperCase()} `, currentPassword: password });
    expect(asked.status, await asked.clone().text()).toBe(200);
    expect(await asked.json()).toMatchObject({ email, pendingEmail: next });
    expect(await agent.json(agent.get('/api/v1/user/email'))).toEqual({ email, pendingEmail: next });

    // Nothing changed yet.
    expect(await settingsEmail(agent)).toBe(email);
    expect((await signIn(next, password)).status).toBe(400);
    const [confirmation] = await mailsTo(next);
    expect(confirmation?.subject).toBe('Confirmez votre nouvelle adresse e-mail');
    const link = new URL(confirmation?.textBody.match(/https?:\/\/\S+token_hash\S+/)?.[0] ?? 'http://x');
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_SITE}/mon-compte/confirmer-email`);
    expect(link.searchParams.get('type')).toBe('email_change');
    expect((await mailsTo(email)).map((m) => m.subject)).toContain('Demande de changement de votre adresse e-mail');

    // Followed on another device, signed out.
    const confirmed = await product.agent().post('/api/v1/user/email/confirm', { tokenHash: link.searchParams.get('token_hash') });
    expect(confirmed.status, await confirmed.clone().text()).toBe(200);
    expect(await confirmed.json()).toMatchObject({ done: true, email: next });
    const [row] = await product.database.db.select({ email: members.email }).from(members).where(sql`lower(${members.email}) = ${next}`);
    expect(row?.email).toBe(next);
    await expect.poll(() => settingsEmail(agent)).toBe(next);
    expect((await signIn(next, password)).status).toBe(200);
    expect((await signIn(email, password)).status).toBe(400);
    expect((await mailsTo(email)).map((m) => m.subject)).toContain('Votre adresse e-mail a été modifiée');

    const reused = await product.agent().post('/api/v1/user/email/confirm', { tokenHash: link.searchParams.get('token_hash') });
    expect(reused.status).toBe(400);
    expect(await errorOf(reused)).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('refuses an address already in use, an invalid one, or the same one', async () => {
    const { agent, email, password } = await member();
    const other = await member();
    const taken = await agent.post('/api/v1/user/email', { newEmail: other.email, currentPassword: password });
    expect(taken.status).toBe(409);
    expect(await errorOf(taken)).toMatchObject({ code: 'EMAIL_EXISTS', issues: [{ path: 'newEmail' }] });
    const invalid = await agent.post('/api/v1/user/email', { newEmail: 'xx:;x@x.x', currentPassword: password });
    expect(invalid.status).toBe(400);
    expect((await errorOf(invalid)).issues?.[0]?.path).toBe('newEmail');
    const same = await agent.post('/api/v1/user/email', { newEmail: email, currentPassword: password });
    expect(await errorOf(same)).toMatchObject({ code: 'SAME_EMAIL' });
    expect(await agent.json(agent.get('/api/v1/user/email'))).toEqual({ email, pendingEmail: null });
  });

  it('refuses a malformed or unknown confirmation token', async () => {
    expect((await product.agent().post('/api/v1/user/email/confirm', { tokenHash: 'pas-un-jeton' })).status).toBe(400);
    const unknown = await product.agent().post('/api/v1/user/email/confirm', { tokenHash: 'ab'.repeat(28) });
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toMatchObject({ code: 'INVALID_TOKEN' });
  });
});
