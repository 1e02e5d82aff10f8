import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { mailOutbox, members, preSubscriptions } from '#bff/db/schema.ts';
import { runRetention } from '#bff/retention/retention-job.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * Nothing is asked twice (issue 21, decision 127): the pre-registration mails a sign-up link with
 * an opaque token (no personal data in the URL, only its hash stored); the sign-up reads the
 * address and gender from it; the account takes the pre-registration's gender whatever the browser
 * sends, is linked to the pre-registration, and step 1 starts with its postcode and city. The
 * token is single-use and expires; the leads inbox counts the link as a conversion.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct({ clock, env: { TRUST_PROXY: 'true' } });
}, 120_000);
afterAll(() => product.stop());

let address = 0;
/** A visitor with their own client address (the public forms are limited per address). */
function visitor(): { agent: TestAgent; headers: Record<string, string> } {
  address += 1;
  return { agent: product.agent(), headers: { 'x-forwarded-for': `198.51.100.${address}` } };
}

type ApiError = { error: { code: string; message: string } };

async function preRegister(email: string, gender: 'homme' | 'femme' = 'homme') {
  const { agent, headers } = visitor();
  const response = await agent.post(
    '/api/v1/subscription/pre-subscription',
    { gender, email, age: 34, zip_code: '13001', city: 'Marseille', consent: true },
    headers,
  );
  expect(response.status).toBe(201);
  const [row] = (await response.json()) as { id: string }[];
  const [mail] = await product.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'pre-registration-confirmed')));
  const token = mail?.textBody.match(/\/connexion\/nouveau-compte\?invitation=([A-Za-z0-9_-]+)/)?.[1];
  if (!row || !mail || !token) throw new Error('no pre-registration mail');
  return { id: row.id, mail, token };
}

const readInvitation = (token: string) => {
  const { agent, headers } = visitor();
  return agent.get(`/api/v1/subscription/invitation?invitation=${encodeURIComponent(token)}`, headers);
};

const memberCount = async () => (await product.database.db.select({ n: sql<number>`count(*)::int` }).from(members))[0]?.n ?? 0;

describe('pre-registration → sign-up → step 1, nothing asked twice', () => {
  const email = `pre.${Date.now()}@example.fr`;
  let pre: Awaited<ReturnType<typeof preRegister>>;
  let member: TestAgent;
  let memberId: string;

  it('the pre-registration mails a French sign-up link with an opaque token, stored as a hash only', async () => {
    pre = await preRegister(email);
    expect(pre.mail.subject).toBe('Votre pré-inscription est bien reçue');
    expect(pre.mail.textBody).toContain('Créer mon compte');
    expect(pre.token).toHaveLength(43);
    // No personal data in the link.
    const link = pre.mail.textBody.match(/https?:\/\/\S*invitation=\S+/)?.[0] ?? '';
    expect(link).not.toContain('Marseille');
    expect(link).not.toContain('13001');
    expect(link).not.toContain(encodeURIComponent(email));
    expect(link).not.toContain(email);
    const [row] = await product.database.db.select().from(preSubscriptions).where(eq(preSubscriptions.id, pre.id));
    expect(row?.signupTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.signupTokenHash).not.toBe(pre.token);
    expect(row?.memberId).toBeNull();
  });

  it('the sign-up page reads the address and gender the link stands for, nothing else', async () => {
    const response = await readInvitation(pre.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email, gender: 'homme' });
    expect(response.headers.get('cache-control')).toContain('no-store');
    const unknown = await readInvitation('A'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ApiError).error.message).toContain('n’est plus valable');
    expect((await readInvitation('pas-un-jeton')).status).toBe(400);
  });

  it('the account takes the pre-registration’s gender (not the browser’s), and is linked to it', async () => {
    const before = await memberCount();
    member = product.agent();
    // The browser claims « femme »: the server keeps « homme », given at pre-registration. The
    // link proves the mailbox of the address it was mailed to: no confirmation mail, signed in
    // at once (decision 187).
    const created = await member.post('/api/v1/dashboard/subscription', {
      context: 'init',
      email,
      role: 'femme',
      password: 'bismillah-2026',
      invitation: pre.token,
    });
    expect(created.status).toBe(201);
    expect(await memberCount()).toBe(before + 1);
    const settings = await member.json<{ id: string; role: string; email: string }>(member.get('/api/v1/user/settings'));
    expect(settings).toMatchObject({ role: 'homme', email });
    memberId = settings.id;
    const [row] = await product.database.db.select().from(preSubscriptions).where(eq(preSubscriptions.id, pre.id));
    expect(row).toMatchObject({ memberId, signupTokenHash: null });
    expect(row?.convertedAt).toBeInstanceOf(Date);
    const [stored] = await product.database.db.select({ gender: members.gender }).from(members).where(eq(members.id, memberId));
    expect(stored?.gender).toBe('homme');
  });

  it('step 1 starts with the postcode and the city; a member without pre-registration gets nothing', async () => {
    const prefill = await member.json<{ profile: unknown }>(member.get('/api/v1/user/prefill'));
    expect(prefill.profile).toEqual({ postcode: '13001', city: 'Marseille' });
    const other = product.agent();
    const created = await signUp(other, {
      context: 'init',
      email: `sans.pre.${Date.now()}@example.fr`,
      role: 'femme',
      password: 'bismillah-2026',
    });
    expect(created.status).toBe(201);
    expect(await other.json<{ profile: unknown }>(other.get('/api/v1/user/prefill'))).toEqual({ profile: null });
    // Signed-out visitors read nobody's.
    expect((await product.agent().get('/api/v1/user/prefill')).status).toBe(401);
  });

  it('the link is single-use: read again 404, a second sign-up with it is a French 400 that creates nothing', async () => {
    expect((await readInvitation(pre.token)).status).toBe(404);
    const before = await memberCount();
    const again = await signUp(product.agent(), {
      context: 'init',
      email: `second.${Date.now()}@example.fr`,
      password: 'bismillah-2026',
      invitation: pre.token,
    });
    expect(again.status).toBe(400);
    const { error } = (await again.json()) as ApiError;
    expect(error.code).toBe('INVITATION_INVALID');
    expect(error.message).toContain('n’est plus valable');
    expect(await memberCount()).toBe(before);
    // Without a link, the gender is still required.
    const noGender = await signUp(product.agent(), {
      context: 'init',
      email: `sans.genre.${Date.now()}@example.fr`,
      password: 'bismillah-2026',
    });
    expect(noGender.status).toBe(400);
    expect(await memberCount()).toBe(before);
  });

  let second: Awaited<ReturnType<typeof preRegister>>;
  it('an account opened with the link under another address still converts the lead, counted once in the funnel', async () => {
    const other = `autre.adresse.${Date.now()}@example.fr`;
    second = await preRegister(`pre2.${Date.now()}@example.fr`, 'femme');
    clock.set(new Date());
    const staff = await signInStaff(product);
    await staff.passTotp();
    const before = await staff.agent.json<{ prospects: number; accounts: number }>(staff.agent.get('/api/v1/dashboard/leads-funnel'));
    const agent = product.agent();
    const created = await signUp(agent, {
      context: 'init',
      email: other,
      password: 'bismillah-2026',
      invitation: second.token,
    });
    expect(created.status).toBe(201);
    const id = (await agent.json<{ id: string; role: string }>(agent.get('/api/v1/user/settings'))).id;
    const leads = await staff.agent.json<{ items: { id: string; status: string; member: { id: string } | null }[] }>(
      staff.agent.get('/api/v1/dashboard/leads?kind=pre_subscription&perPage=100'),
    );
    expect(leads.items.find((l) => l.id === second.id)).toMatchObject({ status: 'converti', member: { id } });
    expect(leads.items.find((l) => l.id === pre.id)).toMatchObject({ status: 'converti', member: { id: memberId } });
    const after = await staff.agent.json<typeof before>(staff.agent.get('/api/v1/dashboard/leads-funnel'));
    expect(after).toMatchObject({ prospects: before.prospects, accounts: before.accounts + 1 });
    // Its status stays converti.
    expect((await staff.agent.request('PATCH', `/api/v1/dashboard/leads/${second.id}`, { status: 'sans_suite' })).status).toBe(409);
  });

  it('the link expires after 30 days', async () => {
    const late = await preRegister(`tardif.${Date.now()}@example.fr`);
    expect((await readInvitation(late.token)).status).toBe(200);
    clock.set(new Date(clock.now().getTime() + 31 * 86_400_000));
    expect((await readInvitation(late.token)).status).toBe(404);
    const created = await signUp(product.agent(), {
      context: 'init',
      email: `tardif.compte.${Date.now()}@example.fr`,
      password: 'bismillah-2026',
      invitation: late.token,
    });
    expect(created.status).toBe(400);
    clock.set(new Date());
  });

  it('retention keeps a pre-registration that became an account through its link, drops one that did not', async () => {
    const lonely = await preRegister(`sans.suite.${Date.now()}@example.fr`);
    const db = product.database.db;
    await runRetention({ db, clock: fakeClock(new Date(clock.now().getTime() + 400 * 86_400_000)) });
    expect(await db.select().from(preSubscriptions).where(eq(preSubscriptions.id, second.id))).toHaveLength(1);
    expect(await db.select().from(preSubscriptions).where(eq(preSubscriptions.id, lonely.id))).toHaveLength(0);
  });
});
