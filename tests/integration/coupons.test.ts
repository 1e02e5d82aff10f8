import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { couponRedemptions, coupons } from '#bff/db/coupons-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { checkoutSessions, members } from '#bff/db/schema.ts';
import { addCalendarDays } from '#machines/onboarding/legal-deadlines.ts';
import { FILE_FEE_CENTS } from '#machines/onboarding/plans.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import { payOnStandIn } from '#tests/support/member-walk.ts';
import { walkToPayment } from '#tests/support/onboarding-walk.ts';
import { signUp } from '#tests/support/sign-up.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';

/**
 * Codes a regulator would accept (decision 195, issue 59 point 5), over HTTP: staff create them
 * (aal2), a member types one on the payment step, the server checks it in the event's transaction
 * (window on the agency's clock, uses below the limit) and a refused code changes nothing.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: Awaited<ReturnType<typeof signInStaff>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
  staff = await signInStaff(product);
  await staff.passTotp();
});
afterAll(() => product.stop());

let n = 0;
async function memberAtPayment() {
  n += 1;
  const agent = product.agent();
  const email = `code.${n}.${Date.now()}@example.fr`;
  expect((await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' })).status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  const member = { agent, id, email, gender: 'femme' as const };
  await walkToPayment({ member, staff, clock });
  return member;
}

const today = () => parisDayOf(clock.now().getTime());

async function createCode(body: Record<string, unknown>) {
  const response = await staff.agent.post('/api/v1/dashboard/coupons', {
    discount: { kind: 'waiver' },
    validFrom: addCalendarDays(today(), -1),
    validUntil: addCalendarDays(today(), 30),
    maxUses: 10,
    ...body,
  });
  return { status: response.status, body: (await response.json()) as { coupon: { id: number; code: string; uses: number } } };
}

async function apply(agent: TestAgent, code: unknown) {
  const response = await agent.post('/api/v1/user/update', { context: 'coupon', code });
  return { status: response.status, body: (await response.json()) as { state?: string; error?: { code: string; message: string } } };
}

async function memberRow(id: string) {
  const [row] = await product.database.db.select().from(members).where(eq(members.id, id));
  return row;
}

async function usesOf(code: string) {
  const [row] = await product.database.db.select().from(coupons).where(eq(coupons.code, code));
  return row?.uses;
}

describe('staff create codes', () => {
  it('staff at aal2 create, list and switch off a code; members and visitors cannot; a bad or taken code is refused in French', async () => {
    const created = await createCode({ code: 'PRINTEMPS2027', maxUses: 3 });
    expect(created.status).toBe(201);
    expect(created.body.coupon).toMatchObject({ code: 'PRINTEMPS2027', uses: 0, active: true, discount: { kind: 'waiver' } });
    const again = await createCode({ code: 'PRINTEMPS2027' });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('Ce code existe déjà');
    const bad = await staff.agent.post('/api/v1/dashboard/coupons', {
      code: 'é',
      discount: { kind: 'amount', amountCents: 50 },
      validFrom: '2027-03-10',
      validUntil: '2027-03-01',
      maxUses: 0,
    });
    expect(bad.status).toBe(400);
    const issues = JSON.stringify(await bad.json());
    expect(issues).toContain('lettres sans accent');
    expect(issues).toContain('au moins 1,00');

    const list = await staff.agent.json<{ coupons: { code: string }[] }>(staff.agent.get('/api/v1/dashboard/coupons'));
    expect(list.coupons.map((c) => c.code)).toContain('PRINTEMPS2027');
    const off = await staff.agent.request('PATCH', `/api/v1/dashboard/coupons/${created.body.coupon.id}`, { active: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ coupon: { active: false } });
    expect((await staff.agent.request('PATCH', '/api/v1/dashboard/coupons/999999', { active: true })).status).toBe(404);

    const member = product.agent();
    expect(
      (await signUp(member, { context: 'init', email: `pas-staff.${Date.now()}@example.fr`, role: 'homme', password: 'bismillah-2026' }))
        .status,
    ).toBe(201);
    expect(
      (
        await member.post('/api/v1/dashboard/coupons', {
          code: 'GRATUIT',
          discount: { kind: 'waiver' },
          validFrom: today(),
          validUntil: today(),
          maxUses: 99,
        })
      ).status,
    ).toBe(403);
    expect((await product.agent().get('/api/v1/dashboard/coupons')).status).toBe(401);
    expect((await product.database.db.select().from(coupons).where(eq(coupons.code, 'GRATUIT'))).length).toBe(0);
  });
});

describe('a member types a code on the payment step', () => {
  it('no code, no discount: the file fee costs 169 € and its link carries no promotion code', async () => {
    const member = await memberAtPayment();
    const link = await member.agent.json<{ url: string; amountCents: number }>(
      member.agent.get('/api/v1/user/payment-link?offer=file_fee'),
    );
    expect(link.amountCents).toBe(FILE_FEE_CENTS);
    expect(new URL(link.url).searchParams.has('prefilled_promo_code')).toBe(false);
    // The one-click coupon of before is gone: a coupon without a code is refused.
    const bare = await member.agent.post('/api/v1/user/update', { context: 'coupon' });
    expect(bare.status).toBe(400);
    expect((await memberRow(member.id))?.onboarding).toMatchObject({ couponApplied: false });
  });

  it('a code waiving the fee settles it: no checkout, no 0 € invoice, and the subscription alone is left to pay', async () => {
    await createCode({ code: 'OFFERTMARS' });
    const member = await memberAtPayment();
    const applied = await apply(member.agent, '  offertmars ');
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.state).toBe('frais-de-dossier');
    expect((await memberRow(member.id))?.onboarding).toMatchObject({
      couponApplied: true,
      applicationFeesPaid: true,
      fileFeeDiscountCents: FILE_FEE_CENTS,
    });
    expect(await usesOf('OFFERTMARS')).toBe(1);
    // Nothing to pay for the file fee: no « Payer 0,00 € ».
    const fee = await member.agent.get('/api/v1/user/payment-link?offer=file_fee');
    expect(fee.status).toBe(409);
    // The subscription is paid; no invoice or session for the file fee exists.
    const sub = await member.agent.json<{ url: string }>(member.agent.get('/api/v1/user/payment-link?offer=plan_serenity_month'));
    const paid = await payOnStandIn(member.agent, sub.url, member.email);
    const subscribed = await member.agent.post('/api/v1/user/update', { context: 'sub', email: member.email, csid: paid.csid });
    expect(subscribed.status).toBe(200);
    expect(((await subscribed.json()) as { state: string }).state).toBe('attente.delai-retractation');
    const sessions = await product.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.memberId, member.id));
    expect(sessions.map((s) => s.offerId)).toEqual(['plan_serenity_month']);
    const billed = await product.database.db.select().from(invoices).where(eq(invoices.memberId, member.id));
    expect(billed.map((i) => i.totalCents)).toEqual([8_500]);
  });

  it('a code of an amount takes it off the file fee: the link and the checkout ask for the rest, and `app` accepts it', async () => {
    await createCode({ code: 'MOINS50', discount: { kind: 'amount', amountCents: 5_000 } });
    const member = await memberAtPayment();
    expect((await apply(member.agent, 'moins50')).status).toBe(200);
    const link = await member.agent.json<{ url: string; amountCents: number }>(
      member.agent.get('/api/v1/user/payment-link?offer=file_fee'),
    );
    expect(link.amountCents).toBe(FILE_FEE_CENTS - 5_000);
    expect(new URL(link.url).searchParams.get('prefilled_promo_code')).toBe('MOINS50');
    const { pageHtml, csid } = await payOnStandIn(member.agent, link.url, member.email);
    expect(pageHtml).toMatch(/Payer 119,00/);
    const app = await member.agent.post('/api/v1/user/update', { context: 'app', email: member.email, csid });
    expect(app.status).toBe(200);
    const billed = await product.database.db.select().from(invoices).where(eq(invoices.memberId, member.id));
    expect(billed.map((i) => i.totalCents)).toEqual([11_900]);
  });

  it('a wrong, expired, not yet valid, switched-off or used-up code is refused in French and changes nothing', async () => {
    await createCode({ code: 'HIVERFINI', validFrom: addCalendarDays(today(), -60), validUntil: addCalendarDays(today(), -1) });
    await createCode({ code: 'ETE2027', validFrom: addCalendarDays(today(), 90), validUntil: addCalendarDays(today(), 120) });
    const off = await createCode({ code: 'ARRETE' });
    await staff.agent.request('PATCH', `/api/v1/dashboard/coupons/${off.body.coupon.id}`, { active: false });
    await createCode({ code: 'UNEFOIS', maxUses: 1 });
    const first = await memberAtPayment();
    expect((await apply(first.agent, 'UNEFOIS')).status).toBe(200);

    const member = await memberAtPayment();
    const before = await memberRow(member.id);
    const cases: [string, string][] = [
      ['INCONNU', 'Ce code n’existe pas'],
      ['HIVERFINI', 'n’est plus valable'],
      ['ETE2027', 'n’est valable qu’à partir du'],
      ['ARRETE', 'Ce code n’existe pas'],
      ['UNEFOIS', 'déjà été utilisé'],
    ];
    for (const [code, message] of cases) {
      const answer = await apply(member.agent, code);
      expect(answer.status, code).toBe(422);
      expect(answer.body.error?.code).toBe('COUPON_REFUSED');
      expect(answer.body.error?.message, code).toContain(message);
    }
    expect((await apply(member.agent, 'é!')).status).toBe(400);
    const after = await memberRow(member.id);
    expect(after?.version).toBe(before?.version);
    expect(after?.onboarding).toEqual(before?.onboarding);
    expect(await usesOf('UNEFOIS')).toBe(1);
    const redeemed = await product.database.db.select().from(couponRedemptions).where(eq(couponRedemptions.memberId, member.id));
    expect(redeemed).toEqual([]);
  });

  it('the window is read on the agency’s clock: a code valid until today works all that Paris day, not the next', async () => {
    const member = await memberAtPayment();
    const other = await memberAtPayment();
    await createCode({ code: 'DERNIERJOUR', validFrom: today(), validUntil: today() });
    // The same Paris day it counts; the next day it no longer does.
    expect((await apply(member.agent, 'DERNIERJOUR')).status).toBe(200);
    clock.set(new Date(parisDayStartMs(addCalendarDays(today(), 1))));
    const late = await apply(other.agent, 'DERNIERJOUR');
    expect(late.status).toBe(422);
    expect(late.body.error?.message).toContain('n’est plus valable');
  });

  it('parallel redemptions at the limit: exactly the limit pass, the others are refused and keep their record', async () => {
    const crowd = [];
    for (let i = 0; i < 5; i += 1) crowd.push(await memberAtPayment());
    await createCode({ code: 'DEUXPLACES', maxUses: 2 });
    const answers = await Promise.all(crowd.map((member) => apply(member.agent, 'DEUXPLACES')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    const refused = answers.filter((a) => a.status === 422);
    expect(refused).toHaveLength(3);
    for (const answer of refused) expect(answer.body.error?.message).toContain('déjà été utilisé');
    expect(await usesOf('DEUXPLACES')).toBe(2);
    const applied = await Promise.all(crowd.map(async (member) => (await memberRow(member.id))?.onboarding as { couponApplied: boolean }));
    expect(applied.filter((record) => record.couponApplied)).toHaveLength(2);
  });

  it('a member applies one code only', async () => {
    await createCode({ code: 'PREMIER' });
    await createCode({ code: 'SECOND', discount: { kind: 'amount', amountCents: 1_000 } });
    const member = await memberAtPayment();
    expect((await apply(member.agent, 'SECOND')).status).toBe(200);
    const twice = await apply(member.agent, 'PREMIER');
    expect(twice.status).toBe(409);
    expect(await usesOf('PREMIER')).toBe(0);
  });
});
