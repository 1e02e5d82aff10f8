import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { startTestProduct } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * The auth service's clock runs 59 minutes behind: every access token it issues expires about a
 * minute from now in real time, inside supabase-js's 90-second margin, so the BFF must refresh
 * it on the next request and write the rotated session back as cookies.
 */
const clock = fakeClock(new Date(Date.now() - 3_540_000));
let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
});
afterAll(() => product.stop());

describe('session refresh near expiry', () => {
  it('refreshes the tokens and rewrites the cookies; the refreshed session keeps working', async () => {
    const agent = product.agent();
    const email = `rafraichir.${Date.now()}@example.fr`;
    expect((await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' })).status).toBe(201);
    const before = new Map(agent.cookies);
    const response = await agent.get('/api/v1/user/settings');
    expect(response.status).toBe(200);
    const rewritten = response.headers.getSetCookie().filter((c) => c.startsWith('sb-localhost-auth-token'));
    expect(rewritten.length).toBeGreaterThan(0);
    expect(agent.cookies).not.toEqual(before);
    expect(rewritten.every((c) => /HttpOnly/i.test(c) && /SameSite=Lax/i.test(c))).toBe(true);
    // The refreshed session keeps working.
    expect((await agent.get('/api/v1/user/settings')).status).toBe(200);
  });
});
