import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '#bff/db/schema.ts';
import { staffInvitations } from '#bff/db/staff-invitations-schema.ts';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { signInStaff } from '#tests/support/staff.ts';
import {
  databaseDigest,
  digestDiff,
  isErrorShape,
  rawRequest,
  type SecurityProduct,
  startTestProduct,
  TEST_SITE,
  writeStamp,
} from '#tests/security/support.ts';

/**
 * The invitation routes (decision 126) attacked from outside: no cookie, no Origin, forged or
 * guessed link secrets, malformed bodies. Nothing is created and nothing answers 500.
 */

let product: SecurityProduct;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

const ID = '00000000-0000-4000-8000-000000000000';
const json = { 'content-type': 'application/json' };

describe('staff invitations from outside', () => {
  it('the staff routes refuse a caller without a session (401) whatever the headers; nothing is written', async () => {
    const stamp = await writeStamp(product.database);
    const digest = await databaseDigest(product.database);
    const attempts: [string, string, string | undefined][] = [
      ['GET', '/api/v1/dashboard/staff-invitations', undefined],
      ['POST', '/api/v1/dashboard/staff-invitations', JSON.stringify({ email: 'pirate@example.fr', name: 'Pirate' })],
      ['POST', `/api/v1/dashboard/staff-invitations/${ID}/resend`, '{}'],
      ['POST', `/api/v1/dashboard/staff-invitations/${ID}/revoke`, '{}'],
    ];
    for (const [method, path, body] of attempts) {
      for (const headers of [{}, json, { ...json, origin: TEST_SITE }, { ...json, authorization: 'Bearer forged.jwt.token' }]) {
        const response = await rawRequest(product, method, path, { headers, ...(body !== undefined ? { body } : {}) });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(isErrorShape(await response.json())).toBe(true);
      }
    }
    // A forged session cookie is no session.
    const forged = await rawRequest(product, 'POST', '/api/v1/dashboard/staff-invitations', {
      headers: { ...json, origin: TEST_SITE, cookie: 'sb-localhost-auth-token=base64-eyJhY2Nlc3NfdG9rZW4iOiJ4In0' },
      body: JSON.stringify({ email: 'pirate@example.fr', name: 'Pirate' }),
    });
    expect(forged.status).toBe(401);
    if ((await writeStamp(product.database)) !== stamp) {
      const after = await databaseDigest(product.database);
      expect(after, digestDiff(digest, after)).toBe(digest);
    }
  });

  it('a staff session cannot be used from another site', async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    const response = await staff.agent.post(
      '/api/v1/dashboard/staff-invitations',
      { email: 'ailleurs@agence.example.fr', name: 'Ailleurs' },
      { origin: 'https://ailleurs.example' },
    );
    expect(response.status).toBe(403);
    expect(
      await product.database.db.select().from(staffInvitations).where(eq(staffInvitations.email, 'ailleurs@agence.example.fr')),
    ).toEqual([]);
  });

  it('malformed bodies on the public routes: 400 in French, never 500, nothing written', async () => {
    const bodies = [
      '',
      'null',
      '[]',
      '{"token":["A"]}',
      '{"token":{"__proto__":{"admin":true}}}',
      `{"token":"${'A'.repeat(43)}","password":123,"passwordRepeat":123}`,
      `{"token":"${'A'.repeat(42)}'","password":"x","passwordRepeat":"x"}`,
      '{"constructor":{"prototype":{"x":1}}}',
      `{"token":"${'A'.repeat(10_000)}"}`,
    ];
    const before = await product.database.db.select().from(members);
    for (const path of ['/api/v1/staff-invitation/check', '/api/v1/staff-invitation/accept']) {
      for (const body of bodies) {
        const response = await rawRequest(product, 'POST', path, { headers: json, body });
        expect(response.status, `${path} ${body.slice(0, 60)}`).toBe(400);
        const answer = (await response.json()) as { error: { message: string } };
        expect(isErrorShape(answer)).toBe(true);
        expect(answer.error.message).not.toMatch(/undefined|TypeError|stack/i);
      }
    }
    expect(await product.database.db.select().from(members)).toHaveLength(before.length);
  });

  it(`guessing a link's secret: ${LIMITS.emailConfirmPerIp.points} tries per address, then 429`, async () => {
    const agent = product.agent();
    for (let i = 0; i < LIMITS.emailConfirmPerIp.points; i += 1) {
      const token = `${String(i).padStart(2, '0')}${'b'.repeat(41)}`;
      const response = await agent.post('/api/v1/staff-invitation/accept', {
        token,
        password: 'devine-devine-2026',
        passwordRepeat: 'devine-devine-2026',
      });
      expect(response.status).toBe(400);
    }
    const blocked = await agent.post('/api/v1/staff-invitation/check', { token: 'c'.repeat(43) });
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { error: { message: string } }).error.message).toMatch(/^Trop de tentatives/);
  });
});
