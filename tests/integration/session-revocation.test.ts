import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailbox } from '#bff/db/schema.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, TEST_SITE, type TestAgent } from '#tests/support/test-product.ts';
import { signUp as register } from '#tests/support/sign-up.ts';

/**
 * A session ends everywhere at once (decision 100): whatever ended it — sign-out, a password
 * reset, a ban, an erasure, a removed second factor — the very cookie that worked a moment
 * before is refused (401) by every member route, including the settings and the export. And no
 * token that the auth service did not issue, or issued for another session, ever passes or
 * breaks a route (401, never 5xx).
 */

let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

/** Every member GET route of the API (a signed-in caller reaches each handler). */
const MEMBER_ROUTES = [
  '/api/v1/user/settings',
  '/api/v1/user/export',
  '/api/v1/user/consents',
  '/api/v1/user/messages',
  '/api/v1/user/booking',
  '/api/v1/user/booking-link',
  '/api/v1/user/payment-link',
  '/api/v1/user/contract.pdf',
  '/api/v1/user/contract/signed.pdf',
  '/api/v1/user/email',
  '/api/v1/auth/mfa',
];
/** The staff GET routes, for the staff account whose factor goes. */
const STAFF_ROUTES = ['/api/v1/dashboard/funnel', '/api/v1/dashboard/members', '/api/v1/dashboard/messages', '/api/v1/dashboard/staff'];

let n = 0;
async function signUp(): Promise<{ agent: TestAgent; email: string; id: string }> {
  n += 1;
  const agent = product.agent();
  const email = `revocation.${n}.${Date.now()}@example.fr`;
  const created = await register(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  expect(created.status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, email, id };
}

/** A browser that kept a copy of the cookies: it replays them as they were. */
function replay(cookies: Map<string, string>): TestAgent {
  const agent = product.agent();
  for (const [name, value] of cookies) agent.cookies.set(name, value);
  return agent;
}

/** Each route twice (the second from the member cache, when anything was kept), with the copy. */
async function expectRefusedEverywhere(cookies: Map<string, string>, routes: string[]) {
  for (const path of routes) {
    for (let i = 0; i < 2; i += 1) {
      const answer = await replay(cookies).get(path);
      expect(answer.status, `${path} (${i + 1})`).toBe(401);
    }
  }
  const session = await replay(cookies).json<{ user: unknown }>(replay(cookies).get('/api/v1/auth/session'));
  expect(session.user).toBeNull();
}

/** The cookies work on every member route (read twice: the member cache keeps the row). */
async function expectAccepted(cookies: Map<string, string>, routes: string[]) {
  for (const path of routes) {
    for (let i = 0; i < 2; i += 1) {
      const answer = await replay(cookies).get(path);
      expect([401, 403, 500, 502, 503], `${path}: ${answer.status}`).not.toContain(answer.status);
    }
  }
}

const SESSION_COOKIE = 'sb-localhost-auth-token';

/** The session stored in the cookie (@supabase/ssr: `base64-` and base64url JSON). */
function sessionOf(cookies: Map<string, string>): Record<string, unknown> & { access_token: string } {
  const raw = cookies.get(SESSION_COOKIE);
  expect(raw?.startsWith('base64-')).toBe(true);
  return JSON.parse(Buffer.from((raw as string).slice(7), 'base64url').toString('utf8'));
}

function cookieWith(session: Record<string, unknown>): Map<string, string> {
  return new Map([[SESSION_COOKIE, `base64-${Buffer.from(JSON.stringify(session)).toString('base64url')}`]]);
}

describe('an ended session is refused at once by every member route', () => {
  it('after sign-out', async () => {
    const { agent } = await signUp();
    const copy = new Map(agent.cookies);
    await expectAccepted(copy, MEMBER_ROUTES);
    expect((await agent.post('/api/v1/auth/signout', {})).status).toBe(200);
    await expectRefusedEverywhere(copy, MEMBER_ROUTES);
  });

  it('after a password reset through the BFF (the reset ends every session of the account)', async () => {
    const { agent, email } = await signUp();
    const copy = new Map(agent.cookies);
    await expectAccepted(copy, MEMBER_ROUTES);
    expect((await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email })).status).toBe(200);
    await product.flushMail();
    // The recovery mail (the welcome mail, decision 111, went to the same address at sign-up).
    // The sign-up's confirmation link carries a token too (decision 187): the recovery mail's is read.
    const mail = (await product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, email))).find(
      (m) => m.subject !== 'Confirmez votre adresse e-mail' && m.textBody.includes('token_hash='),
    );
    const token = mail?.textBody.match(/token_hash=([0-9a-f]+)/)?.[1];
    expect(token).toBeDefined();
    const changed = await product
      .agent()
      .post('/api/v1/auth/pass-recovery', { ctx: 'change', email, password: 'nouveau-jardin-2026', token });
    expect(changed.status).toBe(200);
    await expectRefusedEverywhere(copy, MEMBER_ROUTES);
    expect((await agent.get('/api/v1/user/settings')).status).toBe(401);
  });

  it('after a ban by staff (401, the agency’s message, cookies cleared)', async () => {
    const { agent, id } = await signUp();
    const copy = new Map(agent.cookies);
    await expectAccepted(copy, MEMBER_ROUTES);
    const staff = await signInStaff(product);
    await staff.passTotp();
    expect((await staff.agent.post('/api/v1/auth/ban', { disable: true, uid: id })).status).toBe(200);
    const refused = await replay(copy).get('/api/v1/user/settings');
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'Ce compte est désactivé. Contactez l’agence.',
      requestId: expect.any(String),
    });
    expect(refused.headers.getSetCookie().some((line) => line.startsWith(SESSION_COOKIE) && /max-age=0/i.test(line))).toBe(true);
    await expectRefusedEverywhere(copy, MEMBER_ROUTES);
    // Signing in again is refused on the sign-in route itself, as before: 403 ACCOUNT_DISABLED.
    const email = (await product.database.query<{ email: string }>('SELECT email FROM members WHERE id = $1', [id]))[0]?.email;
    const again = await product.agent().post('/api/v1/auth/signin', { email, password: 'bismillah-2026' });
    expect(again.status).toBe(403);
    expect((await again.json()).error.code).toBe('ACCOUNT_DISABLED');
  });

  it('after an erasure (the auth user goes, its sessions with it), in another browser too', async () => {
    const { agent, email } = await signUp();
    const second = product.agent();
    expect((await second.post('/api/v1/auth/signin', { email, password: 'bismillah-2026' })).status).toBe(200);
    const copies = [new Map(agent.cookies), new Map(second.cookies)];
    for (const copy of copies) await expectAccepted(copy, ['/api/v1/user/settings', '/api/v1/user/export']);
    expect((await agent.post('/api/v1/user/erase', { email })).status).toBe(200);
    for (const copy of copies) await expectRefusedEverywhere(copy, MEMBER_ROUTES);
  });

  it('after a staff account’s TOTP factor is removed through the auth API (the session falls back to aal1)', async () => {
    const staff = await signInStaff(product);
    const { factorId } = await staff.passTotp();
    const copy = new Map(staff.agent.cookies);
    await expectAccepted(copy, [...STAFF_ROUTES, '/api/v1/user/settings', '/api/v1/auth/mfa']);
    const { access_token } = sessionOf(copy);
    expect(decodeJwt(access_token).aal).toBe('aal2');
    const removed = await product.app.request(`${TEST_SITE}/auth/v1/factors/${factorId}`, {
      method: 'DELETE',
      headers: { apikey: product.auth.anonKey, authorization: `Bearer ${access_token}`, 'x-forwarded-for': '198.51.100.77' },
    });
    expect(removed.status, await removed.clone().text()).toBe(200);
    await expectRefusedEverywhere(copy, [...STAFF_ROUTES, ...MEMBER_ROUTES]);
  });

  it('a session ended in the database by hand is refused too (the trigger, not the code path, evicts)', async () => {
    const { agent, id } = await signUp();
    const copy = new Map(agent.cookies);
    await expectAccepted(copy, ['/api/v1/user/settings']);
    await product.database.query('DELETE FROM embedded_auth.sessions WHERE user_id = $1', [id]);
    await expectRefusedEverywhere(copy, ['/api/v1/user/settings', '/api/v1/user/export']);
  });
});

describe('a session this instance has not heard of yet', () => {
  it('is read from the database before being refused (its notification may still be on the way)', async () => {
    const { agent, email } = await signUp();
    expect((await agent.get('/api/v1/user/settings')).status).toBe(200); // the member is kept, with one session
    // As if the new session's notification had not arrived yet (another instance, a hosted GoTrue).
    await product.database.query('ALTER TABLE embedded_auth.sessions DISABLE TRIGGER sessions_changed');
    try {
      const second = product.agent();
      expect((await second.post('/api/v1/auth/signin', { email, password: 'bismillah-2026' })).status).toBe(200);
      expect((await second.get('/api/v1/user/settings')).status).toBe(200);
      expect((await agent.get('/api/v1/user/settings')).status).toBe(200);
    } finally {
      await product.database.query('ALTER TABLE embedded_auth.sessions ENABLE TRIGGER sessions_changed');
    }
  });
});

describe('tokens the service did not issue for a live session: always 401, never 5xx', () => {
  it('refuses every forged, broken or stale token placed in a correctly shaped cookie', async () => {
    const { agent, id } = await signUp();
    const genuine = sessionOf(agent.cookies);
    const token = genuine.access_token;
    const header = decodeProtectedHeader(token);
    const claims = decodeJwt(token);
    const [rawHeader, rawPayload, signature] = token.split('.') as [string, string, string];
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);

    // The service's own key, to sign tokens it never issued (expired, missing claims…): a valid
    // signature alone must not be enough.
    const [key] = await product.database.query<{ private_jwk: JWK; kid: string }>(
      "SELECT private_jwk, kid FROM embedded_auth.signing_keys WHERE slot = 'current'",
    );
    const serviceKey = await importJWK(key?.private_jwk as JWK, 'ES256');
    const signed = (payload: JWTPayload, kid = key?.kid as string) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(serviceKey);
    const other = await generateKeyPair('ES256', { extractable: true });
    expect(await exportJWK(other.publicKey)).toBeTruthy();

    const liveClaims = { ...claims };
    const forged: [string, string][] = [
      ['alg none with the real kid, no signature', `${b64({ ...header, alg: 'none' })}.${rawPayload}.`],
      ['alg none with the real kid, the real signature', `${b64({ ...header, alg: 'none' })}.${rawPayload}.${signature}`],
      [
        'HS256 signed with the anon key',
        await new SignJWT(liveClaims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(product.auth.anonKey)),
      ],
      [
        'HS256 signed with the anon key, the real kid',
        await new SignJWT(liveClaims)
          .setProtectedHeader({ alg: 'HS256', kid: header.kid as string, typ: 'JWT' })
          .sign(new TextEncoder().encode(product.auth.anonKey)),
      ],
      [
        'another key, a kid nobody knows',
        await new SignJWT(liveClaims).setProtectedHeader({ alg: 'ES256', kid: 'autre' }).sign(other.privateKey),
      ],
      [
        'another key, the real kid',
        await new SignJWT(liveClaims).setProtectedHeader({ alg: 'ES256', kid: header.kid as string }).sign(other.privateKey),
      ],
      ['claims changed under the real signature', `${rawHeader}.${b64({ ...claims, sub: randomUUID() })}.${signature}`],
      ['truncated', token.slice(0, -12)],
      ['header and payload only', `${rawHeader}.${rawPayload}`],
      ['huge', `${rawHeader}.${b64({ ...claims, pad: 'x'.repeat(60_000) })}.${signature}`],
      ['not base64', 'éé%%.@@@@.####'],
      ['empty', ''],
      ['three dots', '...'],
      ['expired, signed by the service', await signed({ ...claims, iat: now - 7200, exp: now - 3600 })],
      ['without sub', await signed({ ...claims, sub: undefined })],
      ['without session_id', await signed({ ...claims, session_id: undefined })],
      ['sub not a uuid', await signed({ ...claims, sub: 'admin' })],
      ['sub of nobody', await signed({ ...claims, sub: randomUUID() })],
      ['session_id not a uuid', await signed({ ...claims, session_id: "x' OR '1'='1" })],
      ['session_id of no session', await signed({ ...claims, session_id: randomUUID() })],
      ['sub an object', await signed({ ...claims, sub: { id } as unknown as string })],
    ];
    const shapes = (forgedToken: string) => [
      // As the cookie says: valid for an hour (the fast path), then due for a refresh that fails.
      cookieWith({ ...genuine, access_token: forgedToken, refresh_token: 'pas-un-jeton' }),
      cookieWith({ ...genuine, access_token: forgedToken, refresh_token: 'pas-un-jeton', expires_at: now - 10 }),
    ];
    for (const [name, forgedToken] of forged) {
      for (const cookies of shapes(forgedToken)) {
        for (const path of MEMBER_ROUTES) {
          const answer = await replay(cookies).get(path);
          expect(answer.status, `${name}: ${path}`).toBe(401);
        }
        expect((await replay(cookies).json<{ user: unknown }>(replay(cookies).get('/api/v1/auth/session'))).user, name).toBeNull();
      }
    }
    // Cookies that are not a session at all.
    for (const value of [
      'base64-',
      'base64-@@@',
      'base64-bnVsbA',
      '%7B',
      'null',
      `base64-${b64([token])}`,
      `base64-${b64({ access_token: 42 })}`,
    ]) {
      const answer = await replay(new Map([[SESSION_COOKIE, value]])).get('/api/v1/user/settings');
      expect(answer.status, value).toBe(401);
    }
    // And the genuine session still works: nothing above disturbed it.
    expect((await agent.get('/api/v1/user/settings')).status).toBe(200);
  });
});
