import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { HttpMember, SEL_PLAN, SEL_PLAN_RES } from '#tests/faults/support.ts';

/**
 * Two server instances sharing one PostgreSQL database (each its own pool, migrations run by
 * both at once): a session opened on one works on the other, rate limits are shared, and
 * concurrent events on one member through both never lose an update.
 * Skipped when no PostgreSQL server answers (DATABASE_URL or 127.0.0.1:5432).
 */

const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `faults_two_${process.pid}_${randomBytes(3).toString('hex')}`;
let available = false;
let a: Product;
let b: Product;

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  try {
    await admin((c) => c.query(`CREATE DATABASE ${name}`));
    available = true;
  } catch {
    return;
  }
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const env = { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: url.toString(), DEMO_DATA: 'false', TRUST_PROXY: 'true' };
  // Both start at once: migrations and the embedded auth keys must be safe with several instances.
  [a, b] = await Promise.all([
    startProduct(parseConfig({ ...env, PUBLIC_SITE_URL: 'http://localhost:3999' }), { clientDir: '/nonexistent' }),
    startProduct(parseConfig({ ...env, PUBLIC_SITE_URL: 'http://localhost:3999' }), { clientDir: '/nonexistent' }),
  ]);
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  if (available) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
});

const urlOf = (p: Product) => `http://127.0.0.1:${p.port}`;

/** Asks again (every 5 ms, up to 2 s) until the answer satisfies `done`; returns the last one. */
async function eventually<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  const until = performance.now() + 2_000;
  let answer = await ask();
  while (!done(answer) && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    answer = await ask();
  }
  return answer;
}

describe('two instances on one PostgreSQL', () => {
  it('a session opened on one instance works on the other', async (context) => {
    if (!available) context.skip();
    const m = new HttpMember(urlOf(a), '198.51.100.41');
    await m.signUpToPlans('deux');
    Object.assign(m, { url: urlOf(b) });
    const settings = await m.request('GET', '/api/v1/user/settings');
    expect(settings.status).toBe(200);
    expect(settings.json.id).toBe(m.id);
    expect(settings.json.state).toBe('formules');
  });

  it('each keeps members in memory, yet a change made through one is seen by the other within milliseconds', async (context) => {
    if (!available) context.skip();
    const m = new HttpMember(urlOf(a), '198.51.100.44');
    await m.signUpToPlans('memoire');
    const onB = () => {
      const other = Object.assign(Object.create(Object.getPrototypeOf(m)), m, { url: urlOf(b) }) as HttpMember;
      return other.request('GET', '/api/v1/user/settings');
    };
    const before = await onB(); // now in B's memory
    expect(before.json.state).toBe('formules');
    const changed = await m.request('POST', '/api/v1/user/update', SEL_PLAN);
    expect(changed.status).toBe(200);
    const started = performance.now();
    const seen = await eventually(onB, (r) => r.json.version === changed.json.version);
    const delay = performance.now() - started;
    expect(seen.json.state).toBe(changed.json.state);
    console.log(`two instances: a change on A seen by B after ${delay.toFixed(1)} ms`);
    expect(delay).toBeLessThan(1_000);
  });

  it('a session ended on one instance is refused by the other, which had it in memory (decision 100)', async (context) => {
    if (!available) context.skip();
    const m = new HttpMember(urlOf(a), '198.51.100.45');
    await m.signUpToPlans('fin');
    const cookie = m.cookie();
    const onB = async () => {
      const response = await fetch(`${urlOf(b)}/api/v1/user/settings`, { headers: { cookie, 'x-forwarded-for': '198.51.100.46' } });
      await response.arrayBuffer();
      return response.status;
    };
    // Read twice on B: the member and its sessions are now in B's memory.
    expect(await onB()).toBe(200);
    expect(await onB()).toBe(200);
    expect((await m.request('POST', '/api/v1/auth/signout', {})).status).toBe(200);
    // B hears of it by the sessions trigger's NOTIFY: allowed up to 1 s (measured in ms).
    const started = performance.now();
    let status = await onB();
    while (status !== 401 && performance.now() - started < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      status = await onB();
    }
    const delay = performance.now() - started;
    console.log(`two instances: a sign-out on A refused by B after ${delay.toFixed(1)} ms`);
    expect(status).toBe(401);
    expect(delay).toBeLessThan(1_000);
    const exported = await fetch(`${urlOf(b)}/api/v1/user/export`, { headers: { cookie, 'x-forwarded-for': '198.51.100.46' } });
    expect(exported.status).toBe(401);
  });

  it('rate limits are shared: attempts on both count against one account', async (context) => {
    if (!available) context.skip();
    const m = new HttpMember(urlOf(a), '198.51.100.42');
    await m.signUpToPlans('limite');
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.signinPerAccount.points; i += 1) {
      const via = i % 2 === 0 ? a : b;
      const response = await fetch(`${urlOf(via)}/api/v1/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i + 1}` },
        body: JSON.stringify({ email: m.email, password: `mauvais-${i}` }),
      });
      statuses.push(response.status);
    }
    expect(statuses.every((s) => s === 400)).toBe(true);
    for (const via of [a, b]) {
      const limited = await fetch(`${urlOf(via)}/api/v1/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.200' },
        body: JSON.stringify({ email: m.email, password: 'bismillah-2026' }),
      });
      expect(limited.status).toBe(429);
    }
  });

  it('concurrent events on one member through both instances never lose an update', async (context) => {
    if (!available) context.skip();
    const m = new HttpMember(urlOf(a), '198.51.100.43');
    await m.signUpToPlans('concurrence');
    const start = Number((await m.request('GET', '/api/v1/user/settings')).json.version);
    const accepted: number[] = [];
    const refused: number[] = [];
    // 40 rounds of the same two events, fired at once through A and B.
    for (let round = 0; round < 40; round += 1) {
      const body = round % 2 === 0 ? SEL_PLAN : SEL_PLAN_RES;
      const answers = await Promise.all(
        [a, b, a, b].map(async (via) => {
          const response = await fetch(`${urlOf(via)}/api/v1/user/update`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', cookie: m.cookie(), origin: 'http://localhost:3999' },
            body: JSON.stringify(body),
          });
          return { status: response.status, json: (await response.json()) as { version?: number } };
        }),
      );
      for (const answer of answers) {
        if (answer.status === 200) accepted.push(Number(answer.json.version));
        else refused.push(answer.status);
      }
    }
    // Exactly one of each burst is allowed by the chart; the others are refused, never applied twice.
    expect(new Set(accepted).size, 'two accepted events with the same version: a lost update').toBe(accepted.length);
    expect(refused.every((s) => s === 409)).toBe(true);
    // Each instance keeps members in memory (decision 090): B's last change reaches A by NOTIFY.
    const final = await eventually(
      () => m.request('GET', '/api/v1/user/settings'),
      (r) => Number(r.json.version) === start + accepted.length,
    );
    expect(Number(final.json.version)).toBe(start + accepted.length);
    const rows = await admin(async () => {
      const url = new URL(SERVER);
      url.pathname = `/${name}`;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query('select count(*)::int as n, max(version) as v from onboarding_events where member_id = $1', [m.id]))
          .rows[0] as { n: number; v: number };
      } finally {
        await client.end();
      }
    });
    expect(rows.n).toBe(start + accepted.length);
    expect(Number(rows.v)).toBe(start + accepted.length);
    expect(accepted.length).toBeGreaterThanOrEqual(40);
  }, 120_000);
});
