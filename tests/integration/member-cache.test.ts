import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberCacheOf } from '#bff/auth/member-cache.ts';
import { signUpMember } from '#tests/security/support.ts';
import { startTestProduct } from '#tests/support/test-product.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';

/**
 * The member cache of decision 090 against a real database (PGlite here, PostgreSQL in
 * `npm run test:db`): authenticated requests are served from memory, and every committed change
 * to a member — through the product, by hand-written SQL, or (PostgreSQL) by another connection
 * such as another instance — is seen by the next request.
 */

/**
 * pg's warning when a query is sent on a connection still busy with another (pg 9 will refuse
 * it): heard from the file's start, since Node prints a deprecation once per process.
 */
const overlappingQueries: string[] = [];
process.on('warning', (warning) => {
  if (warning.message.includes('already executing a query')) overlappingQueries.push(warning.message);
});

let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

const member = () => signUpMember(product);

/**
 * On PostgreSQL every listening connection (the pool's and the dedicated listener) hears each
 * notification, at slightly different times: a late copy of an earlier change (the sign-up's
 * sessions, the hand-written UPDATE below) rightly evicts the entry. Tests that count misses wait
 * until the feed has been silent for a while, so that they measure the write, not those copies.
 */
const feedQuiet = (silentMs = 150) =>
  new Promise<void>((resolve) => {
    let timer = setTimeout(done, silentMs);
    const unsubscribe = product.database.changes.subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(done, silentMs);
    });
    function done() {
      unsubscribe();
      resolve();
    }
  });

const cache = () => {
  const found = memberCacheOf(product.database);
  if (!found) throw new Error('no member cache');
  return found;
};

describe('member cache', () => {
  it('serves repeated authenticated requests from memory', async () => {
    const m = await member();
    await feedQuiet();
    await m.agent.get('/api/v1/user/settings');
    const before = { hits: cache().hits, misses: cache().misses };
    for (let i = 0; i < 5; i += 1) expect((await m.agent.get('/api/v1/user/settings')).status).toBe(200);
    expect(cache().hits - before.hits).toBe(5);
    expect(cache().misses - before.misses).toBe(0);
  });

  it('an event applied through the product is in the very next answer', async () => {
    const m = await member();
    const samples = samplePayloads({ id: m.id, email: m.email, gender: 'femme' }, Date.now());
    for (const body of [samples.profil, samples.questionnaire, samples.form_per_inf]) {
      expect((await m.agent.get('/api/v1/user/settings')).status).toBe(200); // cached before each change
      expect((await m.agent.post('/api/v1/user/update', body)).status).toBe(200);
      const after = await m.agent.json<{ version: number }>(m.agent.get('/api/v1/user/settings'));
      const [row] = await product.database.query<{ version: number }>('SELECT version FROM members WHERE id = $1', [m.id]);
      expect(after.version).toBe(row?.version);
    }
    expect((await m.agent.json<{ state: string }>(m.agent.get('/api/v1/user/settings'))).state).toBe('formules');
  });

  it("a member's own event keeps the row its UPDATE returned: no reload, the stored row, and any other change still evicts it", async () => {
    const m = await member();
    const samples = samplePayloads({ id: m.id, email: m.email, gender: 'femme' }, Date.now());
    for (const body of [samples.profil, samples.questionnaire]) {
      await feedQuiet();
      expect((await m.agent.get('/api/v1/user/settings')).status).toBe(200);
      const misses = cache().misses;
      expect((await m.agent.post('/api/v1/user/update', body)).status).toBe(200);
      const kept = await (await m.agent.get('/api/v1/user/settings')).text();
      expect(cache().misses - misses).toBe(0);
      // A change by anyone else (here by hand, changing nothing) evicts it: the row read afresh is the same.
      await product.database.query('UPDATE members SET updated_at = updated_at WHERE id = $1', [m.id]);
      await feedQuiet();
      const reread = await (await m.agent.get('/api/v1/user/settings')).text();
      expect(cache().misses - misses).toBe(1);
      expect(reread).toBe(kept);
    }
    const [row] = await product.database.query<{ version: number }>('SELECT version FROM members WHERE id = $1', [m.id]);
    expect((await m.agent.json<{ version: number; state: string }>(m.agent.get('/api/v1/user/settings'))).version).toBe(row?.version);
  });

  it('a change made by hand-written SQL is seen by the next request (a disabled account is refused at once)', async () => {
    const m = await member();
    expect((await m.agent.get('/api/v1/user/settings')).status).toBe(200);
    await product.database.query('UPDATE members SET disabled = true WHERE id = $1', [m.id]);
    const refused = await m.agent.get('/api/v1/user/settings');
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.message).toBe('Ce compte est désactivé. Contactez l’agence.');
  });

  it('nothing is served from memory while the change feed is interrupted', async () => {
    const m = await member();
    await m.agent.get('/api/v1/user/settings');
    product.database.changes.setLive(false);
    try {
      const before = cache().misses;
      await m.agent.get('/api/v1/user/settings');
      await m.agent.get('/api/v1/user/settings');
      expect(cache().misses - before).toBe(2);
      expect(cache().size).toBe(0);
    } finally {
      product.database.changes.setLive(true);
    }
  });

  it.runIf(product_is_postgres())('PostgreSQL: each pool connection listens before its first query, never beside it', async () => {
    // Eight queries at once: the pool opens a connection for each its idle ones cannot take. The
    // warning check covers every connection opened since the file began.
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => product.database.query<{ channel: string }>('SELECT pg_listening_channels() AS channel')),
    );
    for (const rows of answers) expect(rows.map((row) => row.channel)).toEqual(['member_changed']);
    expect(overlappingQueries).toEqual([]);
  });

  it.runIf(product_is_postgres())('PostgreSQL: a change committed by another connection (another instance) reaches this one', async () => {
    const m = await member();
    expect((await m.agent.get('/api/v1/user/settings')).status).toBe(200);
    const [{ db } = { db: '' }] = await product.database.query<{ db: string }>('SELECT current_database() AS db');
    const url = new URL(process.env.DATABASE_URL as string);
    url.pathname = `/${db}`;
    const other = new pg.Client({ connectionString: url.toString() });
    await other.connect();
    try {
      await other.query('UPDATE members SET disabled = true WHERE id = $1', [m.id]);
      const started = performance.now();
      let status = 200;
      while (status === 200 && performance.now() - started < 2_000) {
        // In-process requests answered from memory never wait for I/O: let the event loop read the
        // notification from the socket between two tries (a server's requests arrive through I/O).
        await new Promise((resolve) => setTimeout(resolve, 5));
        status = (await m.agent.get('/api/v1/user/settings')).status;
      }
      expect(status).toBe(401);
      // Delivered by LISTEN/NOTIFY within milliseconds; two seconds is the test's patience only.
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      await other.end();
    }
  });
});

function product_is_postgres() {
  return Boolean(process.env.DATABASE_URL);
}
