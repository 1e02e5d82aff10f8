import { and, asc, eq, like } from 'drizzle-orm';
import { expect } from 'vitest';
import { mailOutbox } from '#bff/db/schema.ts';
import type { Product } from '#bff/start.ts';
import type { PlanId } from '#machines/onboarding/plans.ts';
import { walkToPayment } from '#tests/support/onboarding-walk.ts';
import { TEST_SITE, type TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * The HTTP steps that the contract tests (agency mails, rights, termination, instalments) walk a
 * member through, written once: sign-up, a `/user/update`, a payment on the checkout stand-in,
 * the two payments after signature, and the agency's mails in the outbox.
 */
export interface SignedUpMember {
  agent: TestAgent;
  id: string;
  email: string;
  gender: 'femme';
}

let n = 0;

/** A new member signed up through the API (`init`), signed in on her own agent; `prefix` names the test's addresses. */
export async function signUpMember(product: { agent(): TestAgent }, prefix: string): Promise<SignedUpMember> {
  n += 1;
  const agent = product.agent();
  const email = `${prefix}.${n}.${Date.now()}@example.fr`;
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  expect(created.status).toBe(201);
  const settings = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id: settings.id, email, gender: 'femme' };
}

export type UpdateAnswer = { state?: string; error?: { code: string; message: string; state?: string } };

/** One `POST /api/v1/user/update`, its status and answer. */
export async function sendUpdate(agent: TestAgent, body: unknown): Promise<{ status: number; body: UpdateAnswer }> {
  const response = await agent.post('/api/v1/user/update', body);
  return { status: response.status, body: (await response.json()) as UpdateAnswer };
}

/** The member pays on the checkout stand-in as a browser would (opens the page, posts the form), and answers the csid. */
export async function payOnCheckout(agent: TestAgent, offer: string, email: string): Promise<string> {
  const { url } = await agent.json<{ url: string }>(agent.get(`/api/v1/user/payment-link?offer=${offer}`));
  return (await payOnStandIn(agent, url, email)).csid;
}

/** The member pays at payment link `linkUrl` on the stand-in as a browser would: open the link, submit, follow the redirect. */
export async function payOnStandIn(agent: TestAgent, linkUrl: string, email: string) {
  const link = new URL(linkUrl);
  const page = await agent.get(`${link.pathname}${link.search}`);
  expect(page.status).toBe(200);
  const pageHtml = await page.text();
  const form = new URLSearchParams({
    client_reference_id: link.searchParams.get('client_reference_id') ?? '',
    prefilled_promo_code: link.searchParams.get('prefilled_promo_code') ?? '',
    email,
  });
  const paid = await agent.request('POST', link.pathname, form.toString(), {
    'content-type': 'application/x-www-form-urlencoded',
    origin: TEST_SITE,
  });
  expect(paid.status, await paid.clone().text()).toBe(303);
  const location = new URL(paid.headers.get('location') ?? '', TEST_SITE);
  return { pageHtml, location, csid: location.searchParams.get('csid') ?? '' };
}

/** On the payment step (signature + 7 days): the file fee (`app`), then the plan (`sub`), both accepted. */
export async function payFileFeeAndPlan(member: { agent: TestAgent; email: string }, planId: string): Promise<void> {
  const app = await payOnCheckout(member.agent, 'file_fee', member.email);
  expect((await sendUpdate(member.agent, { context: 'app', email: member.email, csid: app })).status).toBe(200);
  const sub = await payOnCheckout(member.agent, planId, member.email);
  const answer = await sendUpdate(member.agent, { context: 'sub', email: member.email, csid: sub });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

/**
 * Walks a new member along the happy path to a signed and paid contract: signature, the clock moved
 * to signature + 7 days, then the file fee and the plan paid (the member is then in the withdrawal
 * period). Returns when she signed.
 */
export async function walkToPaidContract(input: {
  member: SignedUpMember;
  staff: { agent: TestAgent };
  clock: { now(): Date; set(d: Date | string): void };
  planId?: PlanId;
  renounce?: boolean;
}): Promise<{ signedAt: number }> {
  const { member, staff, clock, planId = 'plan_serenity_month', renounce } = input;
  const { signedAt } = await walkToPayment({ member, staff, clock, options: { planId, ...(renounce ? { renounce } : {}) } });
  await payFileFeeAndPlan(member, planId);
  return { signedAt };
}

/** The agency's mails (decision 111) queued for one address, oldest first (invoices' mails are another feature's). */
export function agencyMailsOf(product: Pick<Product, 'database'>, email: string) {
  return product.database.db
    .select({
      kind: mailOutbox.kind,
      key: mailOutbox.dedupeKey,
      subject: mailOutbox.subject,
      text: mailOutbox.textBody,
      attachments: mailOutbox.attachments,
    })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), like(mailOutbox.kind, 'agency-%')))
    .orderBy(asc(mailOutbox.id));
}
