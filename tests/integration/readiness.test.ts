import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READY_TIMEOUT_MS } from '#bff/api/api.ts';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * Liveness and readiness (decision 107): `/api/v1/health` says the process answers and never
 * touches the database; `/api/v1/ready` answers 200 when the database answers `SELECT 1` in time,
 * else 503 in the error shape, in French. The database here can be made to fail, to hang, or be
 * closed for real.
 */

let real: Database;
let mode: 'ok' | 'failing' | 'hanging' = 'ok';
let queries = 0;
let product: Product;

beforeAll(async () => {
  real = await openTestDatabase();
  const database: Database = {
    ...real,
    query: (sqlText, params) => {
      queries += 1;
      if (mode === 'failing')
        return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
      if (mode === 'hanging') return new Promise(() => {});
      return real.query(sqlText, params);
    },
  };
  const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: 'http://localhost:3999', DEMO_DATA: 'false' });
  product = await startProduct(config, { database, listen: false, clientDir: '/nonexistent' });
});
afterAll(async () => {
  await product.close();
  await real.close().catch(() => {}); // closed by the last test already
});

const get = (path: string) => product.app.request(`http://localhost:3999${path}`);

async function expectNotReady(response: Response) {
  expect(response.status).toBe(503);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('retry-after')).toBe('5');
  const body = (await response.json()) as { error: { code: string; message: string; requestId: string } };
  expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(body.error.message).toMatch(/base de données ne répond pas/);
  expect(body.error.requestId).toBe(response.headers.get('x-request-id'));
}

describe('liveness and readiness', () => {
  it('is ready when the database answers', async () => {
    const ready = await get('/api/v1/ready');
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready', database: real.kind });
  });

  it('health never reaches the database', async () => {
    const before = queries;
    const health = await get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(queries).toBe(before);
  });

  it('is not ready (503) while the database refuses connections; health stays 200', async () => {
    mode = 'failing';
    try {
      await expectNotReady(await get('/api/v1/ready'));
      expect((await get('/api/v1/health')).status).toBe(200);
    } finally {
      mode = 'ok';
    }
    expect((await get('/api/v1/ready')).status).toBe(200);
  });

  it('is not ready (503) when the database does not answer in time', async () => {
    mode = 'hanging';
    try {
      const started = performance.now();
      await expectNotReady(await get('/api/v1/ready'));
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(READY_TIMEOUT_MS + 2_000);
    } finally {
      mode = 'ok';
    }
  });

  it('is not ready (503) once the database is closed', async () => {
    await real.close();
    await expectNotReady(await get('/api/v1/ready'));
    expect((await get('/api/v1/health')).status).toBe(200);
  });
});
