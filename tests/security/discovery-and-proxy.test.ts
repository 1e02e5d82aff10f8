import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { type OutsideProduct, startOutsideProduct } from '#tests/security/outsider.ts';

/**
 * Issue 60, point 8: the auth service's discovery says what it does (public sign-up closed), and
 * TRUST_PROXY counts the proxies in front: the client is the hop the outermost one appended, so
 * an outsider who rotates the hops he writes himself stays one client.
 */
let oneProxy: OutsideProduct;
beforeAll(async () => {
  oneProxy = await startOutsideProduct({ TRUST_PROXY: '1' });
});
afterAll(() => oneProxy.stop());

describe('GET /auth/v1/settings', () => {
  it('reports public sign-up as closed, as POST /signup behaves', async () => {
    const settings = await oneProxy.outside('/auth/v1/settings');
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ disable_signup: true });
    const signup = await oneProxy.outside('/auth/v1/signup', {
      body: { email: `x.${Date.now()}@example.fr`, password: 'Un-long-secret-2026!' },
    });
    expect(signup.status).toBe(422);
    expect(await signup.json()).toMatchObject({ error_code: 'signup_disabled' });
  });
});

describe('TRUST_PROXY=1', () => {
  it('rotating the hops an outsider writes himself does not reset the per-address limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.signinPerIp.points; i += 1) {
      const response = await oneProxy.outside('/api/v1/auth/signin', {
        body: { email: `rotation.${i}.${Date.now()}@example.fr`, password: 'pas-le-bon-mot-de-passe' },
        // What our proxy forwards: the header the caller sent, then the address it saw.
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}, 192.0.2.60` },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, LIMITS.signinPerIp.points).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another visitor, as our proxy names him, is not affected.
    const other = await oneProxy.outside('/api/v1/auth/signin', {
      body: { email: `autre.${Date.now()}@example.fr`, password: 'pas-le-bon-mot-de-passe' },
      headers: { 'x-forwarded-for': '203.0.113.1, 192.0.2.61' },
    });
    expect(other.status).toBe(400);
  });
});

describe('the TRUST_PROXY setting', () => {
  const trust = (value: string) => parseConfig({ NODE_ENV: 'test', TRUST_PROXY: value }).trustProxy;
  it('takes a number of proxies; true and false still mean 1 and 0', () => {
    expect(trust('2')).toBe(2);
    expect(trust('1')).toBe(1);
    expect(trust('true')).toBe(1);
    expect(trust('false')).toBe(0);
    expect(parseConfig({ NODE_ENV: 'test' }).trustProxy).toBe(0);
    expect(() => trust('beaucoup')).toThrow(/TRUST_PROXY doit être le nombre de proxys/);
  });
});
