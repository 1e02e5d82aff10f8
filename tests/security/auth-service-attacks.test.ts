import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * The embedded auth service attacked as an outsider would (issue 19): plain HTTP to `/auth/v1` on
 * the product's own socket, with no header the product's code adds, and with the headers an
 * attacker would add (`sb-forwarded-for`, `X-Forwarded-For`) to dodge the per-address limits.
 */
let product: Product;
let database: Database;
let base: string;
const PASSWORD = 'bismillah-2026';

beforeAll(async () => {
  database = await openTestDatabase();
  const config = parseConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false' });
  product = await startProduct(config, { database, clientDir: '/nonexistent' });
  base = `http://127.0.0.1:${product.port}`;
});
afterAll(async () => {
  await product.close();
  await database.close();
});

let members = 0;
/** A member registered as the site does it (the BFF, in-process), returning the address. */
async function registeredMember(): Promise<string> {
  members += 1;
  const email = `attaque.${members}.${Date.now()}@example.fr`;
  const agent = new TestAgent(product.app, database);
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: PASSWORD });
  expect(created.status).toBe(201);
  return email;
}

/** A request from outside: the anon key as `apikey`, as supabase-js sends it, and nothing else. */
function outside(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${base}/auth/v1${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      apikey: product.auth.anonKey,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    redirect: 'manual',
  });
}

let spoofed = 0;
/** A different forged client address on every call: it must change nothing. */
function spoof(): Record<string, string> {
  spoofed += 1;
  const address = `203.0.113.${(spoofed % 250) + 1}`;
  return { 'sb-forwarded-for': address, 'x-forwarded-for': address };
}

/**
 * The six-digit code of the newest recovery mail to `email`, as the outbox holds it. Ordered by id:
 * without ORDER BY, PostgreSQL returns rows in no set order (the welcome mail, updated once sent,
 * may come last), and the welcome mail holds no code.
 */
async function recoveryCode(email: string): Promise<string> {
  const [mail] = await database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'auth-recovery')))
    .orderBy(desc(mailOutbox.id))
    .limit(1);
  const code = mail?.textBody.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no recovery code mailed to ${email}`);
  return code;
}

/** Tokens a bucket refilling one every `seconds` has regained since `since` (the limits run on the real clock). */
function refilled(since: number, seconds: number): number {
  return Math.ceil((Date.now() - since) / (seconds * 1000));
}

describe('the embedded auth service, attacked from outside', () => {
  it('refuses public sign-up: 422 signup_disabled, and nothing is created', async () => {
    const email = `squat.${Date.now()}@example.fr`;
    const response = await outside('/signup', { body: { email, password: 'mot-de-passe-du-squatteur' } });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error_code: 'signup_disabled' });
    const { data } = await adminClient(product.auth).auth.admin.listUsers({ page: 1, perPage: 1000 });
    expect(data.users.some((user) => user.email === email)).toBe(false);
  });

  it('an auth user without a member row never blocks the real owner: registration replaces it', async () => {
    const email = `orphelin.${Date.now()}@example.fr`;
    const orphan = await adminClient(product.auth).auth.admin.createUser({ email, password: 'autre-secret', email_confirm: true });
    expect(orphan.error).toBeNull();
    const agent = new TestAgent(product.app, database);
    const created = await signUp(agent, { context: 'init', email, role: 'homme', password: PASSWORD });
    expect(created.status).toBe(201);
    const settings = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
    expect(settings.id).not.toBe(orphan.data.user?.id);
    // The orphan's password opens nothing any more.
    const stale = await outside('/token?grant_type=password', { body: { email, password: 'autre-secret' }, headers: spoof() });
    expect(stale.status).toBe(400);
    // A second registration of a real member's address changes nothing (decision 187): the same
    // answer as any registration, and the member's password still opens the account.
    const again = await new TestAgent(product.app).post('/api/v1/dashboard/subscription', {
      context: 'init',
      email,
      role: 'homme',
      password: 'autre-jardin-du-squatteur',
    });
    expect(again.status).toBe(202);
    expect((await outside('/token?grant_type=password', { body: { email, password: PASSWORD }, headers: spoof() })).status).toBe(200);
  });

  it('recovery-link guessing meets 429 early, whatever address the caller claims, and never signs in', async () => {
    const started = Date.now();
    const email = await registeredMember();
    expect((await outside('/recover', { body: { email } })).status).toBe(200);
    const code = await recoveryCode(email);
    const statuses: number[] = [];
    // GoTrue's own hash of the right code first, then guesses: POST and GET alike.
    const bareHash = (otp: string) =>
      createHash('sha224')
        .update(email + otp)
        .digest('hex');
    for (let i = 0; i < 40; i += 1) {
      const guess = i === 0 ? code : String(100000 + i);
      const response =
        i % 2 === 0
          ? await outside('/verify', { body: { type: 'recovery', token_hash: bareHash(guess) }, headers: spoof() })
          : await outside(`/verify?type=recovery&token=${bareHash(guess)}&redirect_to=${encodeURIComponent(base)}`, {
              headers: spoof(),
            });
      statuses.push(response.status);
      const location = response.headers.get('location') ?? '';
      expect(location, 'no session in a redirect').not.toContain('access_token');
      if (response.status === 429) break;
    }
    expect(statuses).not.toContain(200);
    expect(statuses.at(-1)).toBe(429);
    // 30 at once, then one more every 10 s (GoTrue's verify bucket): a slow machine gets its refills.
    expect(statuses.length).toBeLessThanOrEqual(31 + refilled(started, 10));
  });

  it('code guessing by e-mail is limited per account, whatever the address, and a limited account stays limited', async () => {
    const email = await registeredMember();
    // Through the app in-process (no socket, so another client than 127.0.0.1, whose /verify
    // bucket the last test spent); X-Forwarded-For changes on every guess and is not trusted.
    const agent = new TestAgent(product.app);
    expect((await agent.post('/api/v1/auth/pass-recovery', { ctx: 'reco', email })).status).toBe(200);
    const code = await recoveryCode(email);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      const response = await product.app.request('/auth/v1/verify', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i + 1}` },
        body: JSON.stringify({ type: 'recovery', email, token: wrong }),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Even the right code is refused now: the guesser cannot get lucky on the eleventh try.
    const right = await product.app.request('/auth/v1/verify', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.99' },
      body: JSON.stringify({ type: 'recovery', email, token: code }),
    });
    expect(right.status).toBe(429);
  });

  it('password guessing meets 429 per account (ten failures) and per address (thirty attempts), spoofed headers or not', async () => {
    const started = Date.now();
    const email = await registeredMember();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const response = await outside('/token?grant_type=password', { body: { email, password: `mauvais-${i}` }, headers: spoof() });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    // The right password does not get through the lock either.
    const right = await outside('/token?grant_type=password', { body: { email, password: PASSWORD }, headers: spoof() });
    expect(right.status).toBe(429);
    // Per address: this client has spent 12 of its 30; other accounts make up the rest.
    const perAddress: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      const response = await outside('/token?grant_type=password', {
        body: { email: `inconnu.${i}.${Date.now()}@example.fr`, password: 'x-y-z-1-2-3' },
        headers: spoof(),
      });
      perAddress.push(response.status);
      if (response.status === 429) break;
    }
    expect(perAddress.at(-1)).toBe(429);
    // The /token bucket gives one more attempt every 2 s (150 per 5 minutes): a slow run gets those too.
    expect(perAddress.length).toBeLessThanOrEqual(19 + refilled(started, 2));
  });

  it('forged tokens get 4xx on every user route, never 5xx', async () => {
    const anonHeader = product.auth.anonKey.split('.')[0] ?? '';
    const header = JSON.parse(Buffer.from(anonHeader, 'base64url').toString()) as { kid: string };
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: '00000000-0000-4000-8000-000000000000',
      session_id: '00000000-0000-4000-8000-000000000001',
      exp: now + 600,
      role: 'service_role',
    };
    const forged = [
      `${b64({ alg: 'none', kid: header.kid, typ: 'JWT' })}.${b64(claims)}.`,
      `${b64({ alg: 'none', kid: header.kid })}.${b64(claims)}`,
      `${b64({ alg: 'HS256', kid: header.kid })}.${b64(claims)}.c2lnbmF0dXJl`,
      `${b64({ alg: 'ES256', kid: 'autre' })}.${b64(claims)}.AAAA`,
      `${b64({ alg: 'ES256', kid: header.kid })}.${b64({ ...claims, exp: 'demain' })}.AAAA`,
      'not-a-jwt',
      '...',
      `${'a'.repeat(6000)}.${'b'.repeat(6000)}.${'c'.repeat(6000)}`,
      `${b64({ alg: 'ES256', kid: header.kid })}.%%%.AAAA`,
    ];
    const routes: [string, string][] = [
      ['GET', '/user'],
      ['PUT', '/user'],
      ['POST', '/logout'],
      ['POST', '/factors'],
      ['GET', '/admin/users'],
      ['POST', '/admin/users'],
      ['GET', '/admin/users/00000000-0000-4000-8000-000000000000'],
    ];
    for (const token of forged) {
      for (const [method, path] of routes) {
        const response = await outside(path, {
          method,
          headers: { authorization: `Bearer ${token}` },
          ...(method === 'GET' ? {} : { body: {} }),
        });
        expect(response.status, `${method} ${path} with ${token.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${method} ${path} with ${token.slice(0, 40)}`).toBeLessThan(500);
      }
    }
  });
});

describe('oversized bodies', () => {
  /** Sends `megabytes` of body to `path`, declared (Content-Length) or streamed (chunked); resolves with the status. */
  function flood(path: string, megabytes: number, declared: boolean): Promise<number> {
    return new Promise((resolve, reject) => {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const total = megabytes * 1024 * 1024;
      const req = httpRequest(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: product.url,
          ...(declared ? { 'content-length': String(total) } : { 'transfer-encoding': 'chunked' }),
        },
      });
      let sent = 0;
      let answered = false;
      req.on('response', (response) => {
        answered = true;
        response.resume();
        resolve(response.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!answered) req.end();
      };
      pump();
    });
  }

  it('refuses them while they stream, on /auth/v1 as on /api/v1, with memory kept flat', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    const statuses = await Promise.all([
      flood('/auth/v1/token?grant_type=password', 100, true),
      flood('/auth/v1/token?grant_type=password', 100, false),
      flood('/api/v1/auth/signin', 100, true),
      flood('/api/v1/auth/signin', 100, false),
    ]);
    const grown = process.memoryUsage().rss - before;
    expect(statuses).toEqual([413, 413, 413, 413]);
    // Four bodies of 100 MB read whole would add hundreds of MB; refused early, a few MB at most.
    expect(grown).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('the local mailbox', () => {
  it('answers loopback clients only', async () => {
    expect((await fetch(`${base}/_local/mailbox?format=json`)).status).toBe(200);
    // Through a reverse proxy on this machine, every visitor connects from loopback: a forwarded
    // request from elsewhere is refused whatever TRUST_PROXY says.
    const proxied = await fetch(`${base}/_local/mailbox?format=json`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(404);
  });
});
