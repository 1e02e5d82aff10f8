import { rmSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import { startingGate } from '#bff/site/starting-gate.ts';
import { startProduct } from '#bff/start.ts';
import { writeBuiltSite } from '#tests/support/built-site.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * Decisions 091 and 104: the server listens before its database is open. Meanwhile a prerendered page is
 * answered from memory and every other request is held, then answered by the product once it is
 * ready; a failed start answers the held requests with a 503, never a dropped connection.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(base: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Settles to 'pending' when `promise` has not settled within `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

let dir: string;
let database: Database;
const config = parseConfig({
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  PUBLIC_SITE_URL: 'http://localhost:3999',
  DEMO_DATA: 'false',
});

beforeAll(async () => {
  const page = (title: string) =>
    `<!doctype html><html lang="fr"><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;
  dir = writeBuiltSite('us-starting-', {
    'index.html': page('Accueil'),
    'spa.html': page('Espace'),
    '404.html': page('Page introuvable'),
    'sitemap.xml': '<urlset/>',
    'robots.txt': 'User-agent: *\n',
    'prerender-manifest.json': JSON.stringify({ pages: ['/'], prerenderedPatterns: ['/'], spaRoutes: ['/connexion'] }),
  });
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the product with its database held closed; resolves once the server listens. */
async function startHeld() {
  const databaseOpen = deferred();
  const listening = deferred();
  let base = '';
  const starting = startProduct(config, {
    database,
    clientDir: dir,
    beforeDatabase: databaseOpen.promise,
    onListening: (port) => {
      base = `http://127.0.0.1:${port}`;
      listening.resolve();
    },
  });
  starting.catch(() => {}); // each test awaits it, after its own steps
  await listening.promise;
  return { databaseOpen, starting, base };
}

describe('the server while the product starts', () => {
  it('answers a prerendered page at once, holds the API until the database is open, then answers it', async () => {
    const { databaseOpen, starting, base } = await startHeld();
    const page = await get(base, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Accueil</h1>');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const health = get(base, '/api/v1/health');
    const member = get(base, '/api/v1/user/settings');
    expect(await within(health, 300)).toBe('pending');
    databaseOpen.resolve();
    const product = await starting;
    try {
      expect((await health).status).toBe(200);
      const refused = await member; // held, then answered by the product itself: not signed in
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body)).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
      expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect((await get(base, '/api/v1/health')).status).toBe(200);
    } finally {
      await product.close();
    }
  });

  it('answers the held requests with a 503 in French when the start fails, and closes the server', async () => {
    const { databaseOpen, starting, base } = await startHeld();
    const held = get(base, '/api/v1/health');
    expect(await within(held, 200)).toBe('pending');
    databaseOpen.reject(new Error('base de données injoignable'));
    await expect(starting).rejects.toThrow('base de données injoignable');
    const answer = await held;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBe('5');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'SERVICE_UNAVAILABLE', message: 'Service momentanément indisponible, réessayez dans un instant.' },
    });
    await expect(get(base, '/')).rejects.toThrow(/ECONNREFUSED/);
  });

  describe('limits on held requests', () => {
    let server: ServerType;
    let base: string;
    let gate: ReturnType<typeof startingGate>;

    beforeAll(async () => {
      gate = startingGate({ securityHeaders: () => [['X-Content-Type-Options', 'nosniff']], maxWaiting: 1, maxWaitMs: 300 });
      await new Promise<void>((resolve) => {
        server = serve({ fetch: gate.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
      });
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('a request past the limit gets a 503 at once; a held one gets it after the longest wait', async () => {
      const started = Date.now();
      const first = get(base, '/un');
      for (let i = 0; i < 100 && gate.waiting === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(gate.waiting).toBe(1);
      const second = await get(base, '/deux');
      expect(second.status).toBe(503);
      expect(second.headers['x-content-type-options']).toBe('nosniff');
      expect(await within(first, 50)).toBe('pending');
      const timedOut = await first;
      expect(timedOut.status).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(gate.waiting).toBe(0);
    });

    it('once ready, held and new requests go to the product in their order of arrival', async () => {
      const seen: string[] = [];
      const first = get(base, '/un');
      for (let i = 0; i < 100 && gate.waiting === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
      gate.ready({
        fetch: (request: Request) => {
          seen.push(new URL(request.url).pathname);
          return new Response('prêt');
        },
      });
      expect((await first).body).toBe('prêt');
      expect((await get(base, '/deux')).body).toBe('prêt');
      expect(seen).toEqual(['/un', '/deux']);
    });
  });
});
