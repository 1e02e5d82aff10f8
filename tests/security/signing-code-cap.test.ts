import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { eventSentence } from '#machines/onboarding/event-labels.ts';
import { lastSignatureCodeIn } from '#tests/support/contract-signature.ts';
import { walkOnboarding } from '#tests/support/onboarding-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';
import { MEMBER_PASSWORD } from '#tests/security/outsider.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * Issue 60, point 5: the contract's six-digit signing code has a daily ceiling. Five tries per
 * code and a new code every minute allowed about 7 200 guesses a day; now a member (or whoever
 * holds the session) gets a fixed number of codes and tries a day, is then told to contact the
 * agency, and staff see it in the member's history.
 */
const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

async function memberAtSignature() {
  const agent = product.agent();
  const email = `plafond.${Date.now()}@example.fr`;
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: MEMBER_PASSWORD });
  expect(created.status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  const member = { agent, id, email, gender: 'femme' as const };
  await walkOnboarding({ member, staff, clock, until: 'contractForm' });
  const next = new Date(clock.now().getTime() + 24 * 3600_000);
  clock.set(new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth(), next.getUTCDate(), 8)));
  return member;
}

describe('the contract’s signing code', () => {
  it('stops guessing after a daily ceiling, tells the member to contact the agency, and shows it to staff', async () => {
    const member = await memberAtSignature();
    let checked = 0;
    let refusal: { status: number; body: { error: { code: string; message: string } } } | undefined;
    // A determined guesser: a new code every minute, five wrong tries each.
    for (let round = 0; round < 40 && !refusal; round += 1) {
      clock.set(new Date(clock.now().getTime() + 61_000));
      const asked = await member.agent.post('/api/v1/user/contract/signature-code', {});
      if (asked.status === 429) {
        refusal = { status: 429, body: await asked.json() };
        break;
      }
      expect(asked.status).toBe(200);
      const code = await lastSignatureCodeIn(product.database.db, member.email);
      for (let i = 0; i < 5; i += 1) {
        const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
        const tried = await member.agent.post('/api/v1/user/contract/sign', { code: wrong });
        const body = await tried.json();
        if (body.error?.code === 'SIGNATURE_CODE_DAILY_LIMIT') {
          refusal = { status: tried.status, body };
          break;
        }
        expect(tried.status).toBe(400);
        checked += 1;
      }
    }
    expect(refusal?.status).toBe(429);
    expect(refusal?.body.error.code).toBe('SIGNATURE_CODE_DAILY_LIMIT');
    expect(refusal?.body.error.message).toMatch(/Contactez l’agence/);
    expect(checked).toBeLessThanOrEqual(LIMITS.contractTriesPerDay.points);
    // Even the right code is refused for the rest of the day.
    const code = await lastSignatureCodeIn(product.database.db, member.email);
    const right = await member.agent.post('/api/v1/user/contract/sign', { code });
    expect(right.status).toBe(429);
    // Staff see it in the member's history, once.
    const file = await staff.agent.json<{ events: { context: string; event: string; actorRole: string }[] }>(
      staff.agent.get(`/api/v1/dashboard/members/${member.id}`),
    );
    const capped = file.events.filter((e) => e.context === 'signature_code_cap');
    expect(capped).toHaveLength(1);
    expect(eventSentence({ context: 'signature_code_cap', event: 'SIGNATURE_CODE_CAP', outcome: null, planId: null })).toMatch(
      /^Plafond quotidien des codes de signature atteint/,
    );
  });
});
