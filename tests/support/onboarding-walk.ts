import { expect } from 'vitest';
import { happyPath, type HappyPathOptions, type Member } from '#tests/support/happy-path.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import type { ContextName } from '#machines/onboarding/update-contexts.ts';
import { signContract } from '#tests/support/contract-signature.ts';
import type { TestAgent } from '#tests/support/test-product.ts';

/**
 * Walks a member over HTTP along the canonical path (tests/support/happy-path.ts) up to and
 * including the step `until`, moving the product's clock to each step's time; staff steps are sent
 * by a staff session that passed its TOTP. Payments (`app`, `sub`) are not walked: they need a
 * checkout session, which each test makes as it needs.
 */
export async function walkOnboarding(input: {
  member: Member & { agent: TestAgent };
  staff: { agent: TestAgent };
  clock: { now(): Date; set(d: Date | string): void };
  until: Exclude<ContextName, 'app' | 'sub'>;
  options?: Omit<HappyPathOptions, 'start'>;
}): Promise<{ signedAt: number | null }> {
  const { member, staff, clock, until } = input;
  let signedAt: number | null = null;
  for (const step of happyPath(member, { ...input.options, start: clock.now().getTime() })) {
    if (step.context === 'app' || step.context === 'sub') continue;
    if (step.now > clock.now().getTime()) clock.set(new Date(step.now));
    const agent = step.sender === 'staff' ? staff.agent : member.agent;
    if (step.context === 'sub_date') {
      // Signed with the one-time code; the BFF sends `sub_date` itself (decision 109).
      await signContract(member);
      const settings = await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'));
      expect(settings.state, step.context).toBe(stateKey(step.stateAfter));
      signedAt = clock.now().getTime();
      if (step.context === until) return { signedAt };
      continue;
    }
    const response = await agent.post('/api/v1/user/update', step.body);
    const body = (await response.json()) as { state?: string };
    expect(response.status, `${step.context}: ${JSON.stringify(body)}`).toBe(200);
    expect(body.state, step.context).toBe(stateKey(step.stateAfter));
    if (step.context === until) return { signedAt };
  }
  throw new Error(`no step ${until} on the happy path`);
}

/** Signature, then the clock moved to the instant payment opens (00:00 Paris after the renunciation period's last day, decision 165): the member is on the payment step. */
export async function walkToPayment(input: Omit<Parameters<typeof walkOnboarding>[0], 'until'>): Promise<{ signedAt: number }> {
  const { signedAt } = await walkOnboarding({ ...input, until: 'sub_date' });
  if (signedAt === null) throw new Error('not signed');
  const opensAt = deadlinesOfSignature(signedAt).paymentOpensAtMs;
  if (opensAt > input.clock.now().getTime()) input.clock.set(new Date(opensAt));
  return { signedAt };
}
