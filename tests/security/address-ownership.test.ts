import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { members } from '#bff/db/schema.ts';
import { staffInvitations } from '#bff/db/staff-invitations-schema.ts';
import { MEMBER_PASSWORD, type OutsideProduct, startOutsideProduct } from '#tests/security/outsider.ts';
import { type StaffSession, signInStaff } from '#tests/support/staff.ts';
import { TestAgent } from '#tests/support/test-product.ts';

/**
 * Issue 60, point 3 (decision 187): an address belongs to whoever reads its mailbox. Everything
 * here comes from outside over the product's socket, as a stranger's browser would send it: plain
 * fetch, its own cookies, no Origin nor any header of the site's own pages. Each browser has its
 * own client address (the `X-Forwarded-For` of the one proxy in front, `TRUST_PROXY=1`).
 */
let target: OutsideProduct;
let staff: StaffSession;
beforeAll(async () => {
  target = await startOutsideProduct({ TRUST_PROXY: '1' });
  const inProcess = Object.assign(Object.create(target.product) as typeof target.product, {
    agent: () => new TestAgent(target.product.app, target.database),
  });
  staff = await signInStaff(inProcess);
  await staff.passTotp();
}, 90_000);
afterAll(() => target.stop());

let browsers = 0;
/** A browser of someone outside: its cookies, its address, nothing else. */
function browser() {
  browsers += 1;
  const address = `203.0.113.${(browsers % 250) + 1}`;
  const cookies = new Map<string, string>();
  async function send(path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown>; setCookies: string[] }> {
    const response = await target.outside(path, {
      ...(body === undefined ? {} : { body }),
      headers: {
        'x-forwarded-for': address,
        ...(cookies.size > 0 ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      },
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      if (!name) continue;
      if (value === '' || /max-age=0/i.test(line)) cookies.delete(name.trim());
      else cookies.set(name.trim(), value);
    }
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, setCookies };
  }
  return {
    cookies,
    send,
    register: (email: string, password: string, role: 'homme' | 'femme' = 'femme') =>
      send('/api/v1/dashboard/subscription', { context: 'init', email, role, password }),
    signIn: (email: string, password: string) => send('/api/v1/auth/signin', { email, password }),
    settings: () => send('/api/v1/user/settings'),
  };
}

interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** The mails delivered to `to` in the local mailbox, oldest first, read as the person reads them (loopback only). */
async function mailsTo(to: string): Promise<Mail[]> {
  await target.product.flushMail();
  const response = await fetch(`${target.base}/_local/mailbox?format=json`);
  expect(response.status).toBe(200);
  return ((await response.json()) as Mail[]).filter((mail) => mail.to === to).reverse();
}

/** The token of the last confirmation link mailed to `to`. */
async function confirmationToken(to: string): Promise<string> {
  const mail = (await mailsTo(to)).filter((m) => m.subject === 'Confirmez votre adresse e-mail').at(-1);
  const token = /\/connexion\/confirmation\?token_hash=([0-9a-f]+)&type=signup/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation link mailed to ${to}`);
  return token;
}

let addresses = 0;
const address = (name: string) => {
  addresses += 1;
  return `${name}.${addresses}.${Date.now()}@exemple-boite.fr`;
};

const SQUATTER_PASSWORD = 'pirate-lanterne-osier-91';

describe('a registration does not take an address', () => {
  it('a squatter’s registration gets no session and no account; the owner’s registration replaces it, and the squatter’s password opens nothing', async () => {
    const email = address('proprietaire');
    const squatter = browser();
    const squatted = await squatter.register(email, SQUATTER_PASSWORD, 'homme');
    expect(squatted.status).toBe(202);
    expect((await squatter.settings()).status).toBe(401);
    const squatterSignIn = await squatter.signIn(email, SQUATTER_PASSWORD);
    expect(squatterSignIn.status).toBe(400);
    expect(squatterSignIn.body.error).toMatchObject({ code: 'EMAIL_NOT_CONFIRMED' });
    // The squatter's cookie does not confirm anything without the mailed link.
    expect((await squatter.send('/api/v1/auth/confirmation', { tokenHash: 'ab'.repeat(28) })).status).toBe(400);
    expect(await target.database.db.select().from(members).where(eq(members.email, email))).toEqual([]);

    // The owner reads the squatter's confirmation mail: opened in her own browser, the link asks
    // for the password chosen then, which is not hers, and confirms nothing.
    const owner = browser();
    const squattersLink = await confirmationToken(email);
    const mine = 'jasmin-cerf-volant-2026';
    const notMine = await owner.send('/api/v1/auth/confirmation', { tokenHash: squattersLink });
    expect(notMine.body.error).toMatchObject({ code: 'CONFIRMATION_PASSWORD_REQUIRED' });
    const wrong = await owner.send('/api/v1/auth/confirmation', { tokenHash: squattersLink, email, password: mine });
    expect(wrong.status).toBe(400);
    expect((await owner.settings()).status).toBe(401);

    // Her own registration replaces the squatter's; its link, opened in her browser, signs her in.
    expect((await owner.register(email, mine)).status).toBe(202);
    const confirmed = await owner.send('/api/v1/auth/confirmation', { tokenHash: await confirmationToken(email) });
    expect(confirmed.status).toBe(201);
    expect((await owner.settings()).body).toMatchObject({ email, role: 'femme' });
    // The squatter's link died with his registration, and his password opens nothing.
    expect((await owner.send('/api/v1/auth/confirmation', { tokenHash: squattersLink, email, password: SQUATTER_PASSWORD })).status).toBe(
      400,
    );
    const after = await squatter.signIn(email, SQUATTER_PASSWORD);
    expect(after.status).toBe(400);
    expect(after.body.error).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await squatter.settings()).status).toBe(401);
    expect((await browser().signIn(email, mine)).status).toBe(200);

    // Never the reverse: once confirmed, a new registration changes nothing.
    const again = await squatter.register(email, SQUATTER_PASSWORD, 'homme');
    expect(again.status).toBe(202);
    expect((await squatter.signIn(email, SQUATTER_PASSWORD)).body.error).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await browser().signIn(email, mine)).status).toBe(200);
    expect(await target.database.db.select({ gender: members.gender }).from(members).where(eq(members.email, email))).toEqual([
      { gender: 'femme' },
    ]);
  });

  it('a password reset by the owner also takes an unconfirmed registration over', async () => {
    const email = address('reinitialise');
    const squatter = browser();
    expect((await squatter.register(email, SQUATTER_PASSWORD)).status).toBe(202);
    const owner = browser();
    expect((await owner.send('/api/v1/auth/pass-recovery', { ctx: 'reco', email })).status).toBe(200);
    const mail = (await mailsTo(email)).find((m) => m.subject === 'Réinitialisation de votre mot de passe');
    const token = /\/connexion\/update-password\?token_hash=([0-9a-f]+)/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    const mine = 'cerisier-boussole-azur-58';
    const reset = await owner.send('/api/v1/auth/pass-recovery', { ctx: 'change', password: mine, token });
    expect(reset.status).toBe(200);
    expect((await owner.settings()).body).toMatchObject({ email });
    expect((await squatter.signIn(email, SQUATTER_PASSWORD)).body.error).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await squatter.settings()).status).toBe(401);
    // The squatter's registration cookie no longer proves anything: the account is confirmed.
    const squattersLink = await confirmationToken(email);
    expect((await squatter.send('/api/v1/auth/confirmation', { tokenHash: squattersLink })).status).toBe(400);
    expect((await browser().signIn(email, mine)).status).toBe(200);
  });
});

describe('the registration’s answer', () => {
  it('is the same for a new address and one that has an account (status, body, cookies)', async () => {
    const taken = address('deja');
    const first = browser();
    expect((await first.register(taken, MEMBER_PASSWORD)).status).toBe(202);
    expect((await first.send('/api/v1/auth/confirmation', { tokenHash: await confirmationToken(taken) })).status).toBe(201);

    const fresh = address('nouvelle');
    const answers = [await browser().register(fresh, MEMBER_PASSWORD), await browser().register(taken, MEMBER_PASSWORD)];
    const shape = (answer: (typeof answers)[number], email: string) => ({
      status: answer.status,
      keys: Object.keys(answer.body).sort(),
      message: String(answer.body.message).replace(email, '<adresse>'),
      email: answer.body.email === email,
      cookies: answer.setCookies.map((line) =>
        line
          .replace(/=[^;]*/, '=<valeur>')
          .split(';')
          .map((part) => part.trim().toLowerCase())
          .sort()
          .join('; '),
      ),
    });
    expect(shape(answers[0] as (typeof answers)[number], fresh)).toEqual(shape(answers[1] as (typeof answers)[number], taken));
    expect(answers[0]?.status).toBe(202);
    expect(answers[0]?.body.confirmation).toBe('sent');
  });

  it('tells the owner of an address that has an account that someone tried, with a link to reset the password', async () => {
    const email = address('prevenue');
    const owner = browser();
    expect((await owner.register(email, MEMBER_PASSWORD)).status).toBe(202);
    expect((await owner.send('/api/v1/auth/confirmation', { tokenHash: await confirmationToken(email) })).status).toBe(201);
    expect((await browser().register(email, SQUATTER_PASSWORD, 'homme')).status).toBe(202);
    const warning = (await mailsTo(email)).find((m) => m.subject === 'Une inscription a été tentée avec votre adresse e-mail');
    expect(warning?.text).toMatch(/Quelqu’un vient d’essayer de créer un compte/);
    expect(warning?.text).toMatch(/rien n’a été modifié/);
    expect(warning?.text).toMatch(/https?:\/\/\S+\/connexion\/recovery\b/);
    expect(warning?.text).not.toContain(SQUATTER_PASSWORD);
    expect((await browser().signIn(email, MEMBER_PASSWORD)).status).toBe(200);
  });
});

describe('an address with a pending staff invitation is reserved', () => {
  it('a registration with it answers as any other, and leaves the invitation, its user and the team page as they were; the colleague still accepts', async () => {
    const email = address('nadia');
    const invited = await staff.agent.post('/api/v1/dashboard/staff-invitations', { email, name: 'Nadia Benali' });
    expect(invited.status).toBe(201);
    const teamBefore = await staff.agent.json(staff.agent.get('/api/v1/dashboard/staff-invitations'));
    const [invitation] = await target.database.db.select().from(staffInvitations).where(eq(staffInvitations.email, email));
    const token = /\/dashboard\/invitation\?token=([A-Za-z0-9_-]{43})/.exec(
      (await mailsTo(email)).find((m) => m.text.includes('/dashboard/invitation?token='))?.text ?? '',
    )?.[1];
    expect(token).toBeDefined();

    const hijacker = browser();
    const hijack = await hijacker.register(email, SQUATTER_PASSWORD);
    expect(hijack.status).toBe(202);
    expect(hijack.body).toMatchObject({ confirmation: 'sent', email });
    expect((await hijacker.signIn(email, SQUATTER_PASSWORD)).body.error).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    // Nothing was mailed for the registration, and nothing changed.
    expect((await mailsTo(email)).map((m) => m.subject)).not.toContain('Confirmez votre adresse e-mail');
    expect(await target.database.db.select().from(staffInvitations).where(eq(staffInvitations.email, email))).toEqual([invitation]);
    const { data } = await adminClient(target.product.auth).auth.admin.getUserById(invitation?.authUserId ?? '');
    expect(data.user?.email).toBe(email);
    expect(data.user?.invited_at).toBeTruthy();
    expect(await staff.agent.json(staff.agent.get('/api/v1/dashboard/staff-invitations'))).toEqual(teamBefore);

    // The colleague accepts as if nothing happened.
    const nadia = browser();
    const check = await nadia.send('/api/v1/staff-invitation/check', { token });
    expect(check.status).toBe(200);
    const accepted = await nadia.send('/api/v1/staff-invitation/accept', {
      token,
      password: 'tisserand-horizon-4417',
      passwordRepeat: 'tisserand-horizon-4417',
    });
    expect(accepted.status).toBe(200);
    expect(await target.database.db.select({ role: members.role }).from(members).where(eq(members.email, email))).toEqual([
      { role: 'staff' },
    ]);
  });
});
