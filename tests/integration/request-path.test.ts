import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { UnsupportedPathError } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import { SITE_URL_PLACEHOLDER } from '#bff/site/site-files.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { writeBuiltSite } from '#tests/support/built-site.ts';
import { confirmationTokenIn } from '#tests/support/sign-up.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';

/**
 * Over a real socket (decision 104): one request path. Every request goes through the app's Hono
 * chain; the prerendered pages are answered by its second middleware from compressed bytes kept
 * in memory, exactly as the site's routes answer the same page with a query string; the security
 * headers are on every kind of response, once.
 */

let dir: string;
let database: Database;
let product: Product;
let base: string;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Node's own client: `fetch` would hide Content-Encoding and Content-Length. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET', agent?: Agent, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, ...(agent ? { agent } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const cookiesOf = (answer: Answer) => ((answer.headers['set-cookie'] ?? []) as string[]).map((line) => line.split(';')[0]).join('; ');

/** A registration, then its confirmation link opened by the same client (decision 187): the confirmation's answer. */
async function registerAndConfirm(email: string, headers: Record<string, string> = {}, agent?: Agent): Promise<Answer> {
  const json = { 'content-type': 'application/json', ...headers };
  const body = JSON.stringify({ context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  const registered = await get('/api/v1/dashboard/subscription', json, 'POST', agent, body);
  expect(registered.status).toBe(202);
  const tokenHash = await confirmationTokenIn(database.db, email);
  return get('/api/v1/auth/confirmation', { ...json, cookie: cookiesOf(registered) }, 'POST', agent, JSON.stringify({ tokenHash }));
}

const withoutDate = (headers: Answer['headers']) => {
  const { date: _date, ...rest } = headers;
  return rest;
};

beforeAll(async () => {
  const page = (title: string) =>
    `<!doctype html><html lang="fr"><head><title>${title}</title><link rel="canonical" href="${SITE_URL_PLACEHOLDER}/x" /></head><body>${'<p>Sincérité, « mariage » – été</p>'.repeat(200)}</body></html>`;
  dir = writeBuiltSite('us-fast-', {
    'index.html': page('Accueil'),
    'blog/index.html': page('Blog'),
    'spa.html': page('Espace'),
    '404.html': page('Page introuvable'),
    'sitemap.xml': '<urlset/>',
    'robots.txt': 'User-agent: *\n',
    'prerender-manifest.json': JSON.stringify({ pages: ['/', '/blog'], prerenderedPatterns: ['/', '/blog'], spaRoutes: ['/connexion'] }),
    'assets/app-abc123.js': 'console.log(1)',
  });
  database = await openTestDatabase();
  product = await startProduct(
    parseConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', PUBLIC_SITE_URL: 'http://localhost:3999', DEMO_DATA: 'false' }),
    { database, clientDir: dir },
  );
  base = `http://127.0.0.1:${product.port}`;
});

afterAll(async () => {
  await product?.close();
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('one request path', () => {
  it('answers a prerendered page from memory, compressed once (brotli, gzip, identity and HEAD)', async () => {
    // The brotli version is made after the first request that accepts it (decision 092).
    const browser = { 'accept-encoding': 'gzip, deflate, br' };
    for (let i = 0; i < 200 && (await get('/blog', browser)).headers['content-encoding'] !== 'br'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const headers of [browser, { 'accept-encoding': 'gzip' }, {}] as Record<string, string>[]) {
      const fast = await get('/blog', headers);
      const viaHono = await get('/blog?utm_source=test', headers); // the same page, whatever the query
      // Every byte must come back as it was, accents included, whichever form the body leaves in.
      const coding = fast.headers['content-encoding'];
      const text = coding === 'br' ? brotliDecompressSync(fast.body) : coding === 'gzip' ? gunzipSync(fast.body) : fast.body;
      expect(text.toString('utf8')).toContain('<p>Sincérité, « mariage » – été</p>');
      expect(fast.status).toBe(200);
      expect(viaHono.status).toBe(200);
      expect(fast.body.equals(viaHono.body)).toBe(true);
      expect(withoutDate(fast.headers)).toEqual(withoutDate(viaHono.headers));
      expect(fast.headers['content-length']).toBe(String(fast.body.length));
      expect(fast.headers['content-encoding']).toBe(headers === browser ? 'br' : headers['accept-encoding'] ? 'gzip' : undefined);
    }
    const gzipped = await get('/', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('Accept-Encoding');
    const head = await get('/', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(gzipped.headers['content-length']);
  });

  it("the settings are the route's every time, a disabled account 401 at once (decision 100)", async () => {
    const email = `route.${Date.now()}@example.fr`;
    const created = await registerAndConfirm(email);
    expect(created.status).toBe(201);
    const cookie = cookiesOf(created);
    const first = await get('/api/v1/user/settings', { cookie });
    const second = await get('/api/v1/user/settings', { cookie });
    expect(first.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers['cache-control']).toBe('private, no-store');
    expect(JSON.parse(second.body.toString())).toMatchObject({ email, role: 'femme', state: 'profil', aal: 'aal1' });
    expect((await get('/api/v1/user/settings')).status).toBe(401);
    // Known a moment ago, disabled now: refused on the very next request, its cookies cleared.
    await database.query(`UPDATE members SET disabled = true WHERE email = '${email}'`);
    const refused = await get('/api/v1/user/settings', { cookie });
    expect(refused.status).toBe(401);
    expect(((refused.headers['set-cookie'] ?? []) as string[]).some((line) => /max-age=0/i.test(line))).toBe(true);
  });

  it('puts the security headers on every kind of response, once', async () => {
    for (const path of [
      '/',
      '/blog',
      '/connexion',
      '/page-inconnue',
      '/assets/app-abc123.js',
      '/api/v1/health',
      '/api/v1/inconnu',
      '/robots.txt',
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
      expect(answer.headers['content-security-policy'], path).not.toContain(',');
      expect(answer.headers['x-content-type-options'], path).toBe('nosniff');
      expect(answer.headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['permissions-policy'], path).toContain('camera=()');
      expect(answer.headers['x-frame-options'], path).toBe('DENY');
    }
    // A stored page answer carries exactly the security headers the middleware gives any other
    // answer (decision 133): the same names, the same values.
    const security = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(headers).filter(([name]) =>
          /^(content-security-policy|x-content-type-options|referrer-policy|permissions-policy|x-frame-options|cross-origin-.*|strict-transport-security)$/.test(
            name,
          ),
        ),
      );
    const page = security((await get('/')).headers);
    expect(Object.keys(page)).toHaveLength(7);
    expect(page).toEqual(security((await get('/api/v1/health')).headers));
    expect(page).toEqual(security((await get('/connexion')).headers));
    const framed = await get('/_local/booking/inconnu');
    expect(framed.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(framed.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('two sessions on one keep-alive connection are never confused', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sessions: { cookie: string; id: string }[] = [];
      for (const name of ['un', 'deux']) {
        const signup = await registerAndConfirm(`socket.${name}.${Date.now()}@example.fr`, { origin: 'http://localhost:3999' }, agent);
        expect(signup.status).toBe(201);
        const cookie = cookiesOf(signup);
        const settings = await get('/api/v1/user/settings', { cookie }, 'GET', agent);
        expect(settings.status).toBe(200);
        sessions.push({ cookie, id: (JSON.parse(settings.body.toString()) as { id: string }).id });
      }
      expect(sessions[0]?.id).not.toBe(sessions[1]?.id);
      for (let round = 0; round < 3; round += 1) {
        for (const session of sessions) {
          const answer = await get('/api/v1/user/settings', { cookie: session.cookie }, 'GET', agent);
          expect((JSON.parse(answer.body.toString()) as { id: string }).id).toBe(session.id);
        }
        expect((await get('/api/v1/user/settings', {}, 'GET', agent)).status).toBe(401);
      }
    } finally {
      agent.destroy();
    }
  });

  it("keeps an idle keep-alive connection open past Node's 5 s, so a reused one is never reset", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      let opened = 0;
      const first = await new Promise<Answer>((resolve, reject) => {
        const req = request(`${base}/api/v1/health`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.alloc(0) }));
        });
        req.on('socket', () => {
          opened += 1;
        });
        req.on('error', reject);
        req.end();
      });
      expect(first.headers['keep-alive']).toMatch(/timeout=65/);
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      const socket = Object.values(agent.freeSockets).flat()[0];
      expect(socket?.destroyed).toBe(false);
      expect((await get('/api/v1/health', {}, 'GET', agent)).status).toBe(200);
      expect(opened).toBe(1);
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it('leaves other methods, unknown and client-rendered paths to the site routes', async () => {
    expect((await get('/page-inconnue')).status).toBe(404);
    expect((await get('/connexion')).body.toString()).toContain('Espace');
    expect((await get('/blog/')).status).toBe(301);
    expect((await get('/', {}, 'POST')).status).toBe(404);
  });

  it("is routed by Hono's RegExpRouter: no route puts a literal beside a parameter (decision 139)", async () => {
    // Hono tries its RegExpRouter first and falls back to the slower TrieRouter, silently, when one
    // route has a literal where another has a parameter (`/staff/invitations` beside `/staff/:id`).
    const router = new RegExpRouter<null>();
    const refused = product.app.routes.flatMap(({ method, path }) => {
      try {
        router.add(method, path, null);
        return [];
      } catch (error) {
        if (error instanceof UnsupportedPathError) return [`${method} ${path}`];
        throw error;
      }
    });
    expect(refused).toEqual([]);
    expect(product.app.routes.length).toBeGreaterThan(250);
    expect(product.app.routes.some(({ path }) => path.startsWith('/_local/mailbox'))).toBe(true);
    await get('/api/v1/health');
    expect(product.app.router.name).toBe('SmartRouter + RegExpRouter');
  });
});
