import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { type SecurityProduct, signUpMember, startTestProduct, TEST_SITE } from '#tests/security/support.ts';
import { signInStaff } from '#tests/support/staff.ts';

/**
 * Regressions found by the fuzz suite: a JSON string holding a lone UTF-16 surrogate (`"\ud800"`)
 * or a NUL (`"\u0000"`) reached PostgreSQL, which refused it, and the caller got a 500. Such a
 * body or query is now refused with a 400 before any route, and nothing is written.
 */

let product: SecurityProduct;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

describe('text that is not well-formed Unicode', () => {
  it('POST /api/v1/user/update with a lone surrogate: 400, the member unchanged', async () => {
    const m = await signUpMember(product);
    const profil = samplePayloads({ id: m.id, email: m.email, gender: 'femme' }, Date.now()).profil;
    const [before] = await product.database.query<{ version: number }>('SELECT version FROM members WHERE id = $1', [m.id]);
    const body = JSON.stringify({ ...profil, practiceDetails: 'x' }).replace('"practiceDetails":"x"', '"practiceDetails":"\\ud800"');
    const refused = await m.agent.request('POST', '/api/v1/user/update', body);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe('INVALID_TEXT');
    const [after] = await product.database.query<{ version: number }>('SELECT version FROM members WHERE id = $1', [m.id]);
    expect(after?.version).toBe(before?.version);
    // A well-formed pair (an emoji written as two escapes) is text, and accepted.
    const emoji = JSON.stringify({ ...profil, practiceDetails: 'x' }).replace(
      '"practiceDetails":"x"',
      '"practiceDetails":"\\ud83d\\ude0a"',
    );
    expect((await m.agent.request('POST', '/api/v1/user/update', emoji)).status).toBe(200);
  });

  it('public forms too (a lone low surrogate in a key or a value, a NUL)', async () => {
    const agent = product.agent();
    for (const body of ['{"name":"\\udc00"}', '{"\\udfff":1}', '["\\ud800x"]', '{"subject":"Bonjour","body":"\\u0000"}']) {
      const response = await agent.request('POST', '/api/v1/contact', body);
      expect(response.status, body).toBe(400);
      expect((await response.json()).error.code, body).toBe('INVALID_TEXT');
    }
  });

  it('a NUL in a staff message (found by the fuzz suite, seed of 2026-11-21) or in a query: 400', async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    const m = await signUpMember(product);
    const before = await product.database.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox');
    const message = await staff.agent.request(
      'POST',
      `/api/v1/dashboard/members/${m.id}/messages`,
      '{"subject":"Bonjour","body":"a\\u0000b"}',
    );
    expect(message.status).toBe(400);
    expect((await message.json()).error.code).toBe('INVALID_TEXT');
    expect(await product.database.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox')).toEqual(before);
    const search = await staff.agent.get('/api/v1/dashboard/members?q=a%00b');
    expect(search.status).toBe(400);
    expect((await search.json()).error.code).toBe('INVALID_TEXT');
  });
});

describe('the embedded auth service (/auth/v1), reached from outside', () => {
  it('a NUL token hash (found by the fuzz suite, seed 951838667 of 2026-11-29) and its kin: 400 validation_failed, never 500', async () => {
    const headers = { apikey: product.auth.anonKey, 'content-type': 'application/json' };
    const posts: [string, string][] = [
      ['/auth/v1/verify', '{"type":"recovery","token_hash":"\\u0000"}'],
      ['/auth/v1/verify', '{"type":"signup","token_hash":"ab\\ud800"}'],
      ['/auth/v1/token?grant_type=refresh_token', '{"refresh_token":"a\\u0000"}'],
      ['/auth/v1/token?grant_type=pkce', '{"auth_code":"\\u0000","code_verifier":"x"}'],
    ];
    for (const [path, body] of posts) {
      const response = await product.app.request(`${TEST_SITE}${path}`, { method: 'POST', headers, body });
      expect(response.status, `${path} ${body}`).toBe(400);
      expect(await response.json(), `${path} ${body}`).toMatchObject({ error_code: 'validation_failed' });
    }
    // The body's declared type does not matter: the service reads every body as JSON.
    const plain = await product.app.request(`${TEST_SITE}/auth/v1/verify`, {
      method: 'POST',
      headers: { apikey: product.auth.anonKey, 'content-type': 'text/plain' },
      body: '{"type":"recovery","token_hash":"\\u0000"}',
    });
    expect(plain.status).toBe(400);
    const link = await product.app.request(`${TEST_SITE}/auth/v1/verify?type=recovery&token=%00`, {
      headers: { apikey: product.auth.anonKey },
    });
    expect(link.status).toBe(400);
    expect(await link.json()).toMatchObject({ error_code: 'validation_failed' });
    // A well-formed but unknown token hash is the usual refusal, not this one.
    const unknown = await product.app.request(`${TEST_SITE}/auth/v1/verify`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'recovery', token_hash: 'a'.repeat(56) }),
    });
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toMatchObject({ error_code: 'otp_expired' });
  });
});
