import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '#bff/stand-ins/auth-service/rate-limit.ts';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { MEMBER_PASSWORD, type OutsideProduct, startOutsideProduct, tally } from '#tests/security/outsider.ts';

/**
 * Issue 60, point 1: limits hold when the guesses arrive all at once. A limit checked before the
 * work and taken after it let every request in flight through (100 of 100 from 100 addresses,
 * 16 of 30 from one): now the token is taken first.
 */
let target: OutsideProduct;
beforeAll(async () => {
  // Behind one proxy: each X-Forwarded-For value is a different client.
  target = await startOutsideProduct({ TRUST_PROXY: 'true' });
});
afterAll(() => target.stop());

const GUESSES = 100;
const perAccount = DEFAULT_LIMITS.passwordFailures.points;

async function parallelGuesses(send: (i: number) => Promise<Response>): Promise<Record<number, number>> {
  const responses = await Promise.all(Array.from({ length: GUESSES }, (_, i) => send(i)));
  return tally(responses.map((r) => r.status));
}

describe('100 parallel wrong passwords for one account', () => {
  it(`on /auth/v1/token from one address: at most ${perAccount} checked, the rest 429`, async () => {
    const { email } = await target.registeredMember();
    const counts = await parallelGuesses(() =>
      target.outside('/auth/v1/token?grant_type=password', { body: { email, password: 'pas-le-bon-mot-de-passe' } }),
    );
    expect(counts[400] ?? 0).toBeLessThanOrEqual(perAccount);
    expect(counts[400] ?? 0).toBeGreaterThan(0);
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(GUESSES);
  });

  it(`on /auth/v1/token from ${GUESSES} addresses: at most ${perAccount} checked, the rest 429`, async () => {
    const { email } = await target.registeredMember();
    const counts = await parallelGuesses((i) =>
      target.outside('/auth/v1/token?grant_type=password', {
        body: { email, password: 'pas-le-bon-mot-de-passe' },
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      }),
    );
    expect(counts[400] ?? 0).toBeLessThanOrEqual(perAccount);
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(GUESSES);
  });

  it(`on /api/v1/auth/signin from ${GUESSES} addresses: at most ${LIMITS.signinPerAccount.points} checked, the rest 429`, async () => {
    const { email } = await target.registeredMember();
    const counts = await parallelGuesses((i) =>
      target.outside('/api/v1/auth/signin', {
        body: { email, password: 'pas-le-bon-mot-de-passe' },
        headers: { 'x-forwarded-for': `198.18.0.${i + 1}` },
      }),
    );
    expect(counts[400] ?? 0).toBeLessThanOrEqual(LIMITS.signinPerAccount.points);
    expect((counts[400] ?? 0) + (counts[429] ?? 0)).toBe(GUESSES);
  });

  it('a right password after a few wrong ones does not spend the account’s allowance', async () => {
    const { email } = await target.registeredMember();
    // Another client than the earlier tests (whose per-address bucket they spent).
    const headers = { 'x-forwarded-for': '192.0.2.77' };
    for (let i = 0; i < perAccount - 1; i += 1) {
      const wrong = await target.outside('/auth/v1/token?grant_type=password', { body: { email, password: `faux-${i}` }, headers });
      expect(wrong.status).toBe(400);
    }
    for (let i = 0; i < 3; i += 1) {
      const right = await target.outside('/auth/v1/token?grant_type=password', { body: { email, password: MEMBER_PASSWORD }, headers });
      expect(right.status).toBe(200);
    }
  });
});
