import { expect } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import { stripeLibrary } from '#bff/payments/stripe-library.ts';
import { stripeWebhookSecret } from '#bff/payments/stripe-settings.ts';
import { happyPath } from '#tests/support/happy-path.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import type { PlanId } from '#machines/onboarding/plans.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { signContract } from '#tests/support/contract-signature.ts';
import { payFileFeeAndPlan, type SignedUpMember, sendUpdate } from '#tests/support/member-walk.ts';
import { TEST_SITE, type TestAgent, type TestProduct } from '#tests/support/test-product.ts';

/**
 * The steps the contract-ledger tests (decision 175) take through a member's successive
 * contracts: a renewal walked to a paid contract, a charging pass of the instalments stand-in,
 * and a signed Stripe event posted as Stripe would.
 */

type Clock = { now(): Date; set(d: Date | string): void };

/** After `renew`: the plan, the pre-contract information, the meeting, the contract and its signature, then day 7 and both payments. */
export async function renewToPaidContract(input: {
  member: SignedUpMember;
  staff: { agent: TestAgent };
  clock: Clock;
  planId?: PlanId;
}): Promise<{ signedAt: number }> {
  const { member, staff, clock, planId = 'plan_serenity_month' } = input;
  const renewed = await sendUpdate(member.agent, { context: 'renew' });
  expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
  expect(renewed.body.state).toBe('formules');
  let signedAt: number | null = null;
  const skipped = new Set(['profil', 'questionnaire', 'form_per_inf', 'app', 'sub', 'meeting_mm']);
  for (const step of happyPath(member, { start: clock.now().getTime(), planId })) {
    if (skipped.has(step.context)) continue;
    if (step.now > clock.now().getTime()) clock.set(new Date(step.now));
    if (step.context === 'sub_date') {
      await signContract(member);
      signedAt = clock.now().getTime();
      break;
    }
    const agent = step.sender === 'staff' ? staff.agent : member.agent;
    const answer = await sendUpdate(agent, step.body);
    expect(answer.status, `${step.context}: ${JSON.stringify(answer.body)}`).toBe(200);
    expect(answer.body.state, step.context).toBe(stateKey(step.stateAfter));
  }
  if (signedAt === null) throw new Error('not signed');
  clock.set(new Date(deadlinesOfSignature(signedAt).paymentOpensAtMs));
  await payFileFeeAndPlan(member, planId);
  return { signedAt };
}

/** One pass of the instalments stand-in for one member (as `POST /_local/instalments`). */
export async function chargeInstalments(product: TestProduct, memberId: string, outcome: 'paid' | 'failed' = 'paid') {
  const response = await product
    .agent()
    .request('POST', '/_local/instalments', new URLSearchParams({ member: memberId, outcome }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      origin: TEST_SITE,
    });
  expect(response.status).toBe(200);
  return (await response.json()) as { paid: number; failed: number; amountCents: number };
}

/** Posts `event` to the Stripe webhook, signed with the product's secret at the clock's time. */
export async function postSignedStripeEvent(product: TestProduct, clock: Clock, event: unknown) {
  const payload = JSON.stringify(event);
  const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE });
  const secret = await stripeWebhookSecret(config, product.database.db);
  const signature = (await stripeLibrary()).webhooks.generateTestHeaderString({
    payload,
    secret,
    timestamp: Math.floor(clock.now().getTime() / 1000),
  });
  const response = await product.agent().request('POST', '/api/v1/webhooks/stripe', payload, {
    'content-type': 'application/json',
    'stripe-signature': signature,
  });
  return { status: response.status, body: (await response.json()) as { outcome: string } };
}
