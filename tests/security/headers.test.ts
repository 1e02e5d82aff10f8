import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import { startProduct } from '#bff/start.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { rawRequest, type SecurityProduct, signUpMember, startTestProduct, TEST_SITE } from '#tests/security/support.ts';
import { confirmationTokenIn, signUp } from '#tests/support/sign-up.ts';

/**
 * Security headers on every response (every route of the app, answered or refused), session
 * cookie attributes, HSTS behind HTTPS, and cross-site writes refused.
 */

let product: SecurityProduct;
let clientDir: string;
beforeAll(async () => {
  // A minimal built SPA so that the page routes (and their redirects) are mounted too.
  clientDir = mkdtempSync(join(tmpdir(), 'us-sec-client-'));
  mkdirSync(join(clientDir, 'assets'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><title>Union Sincère</title><script type="module" src="/assets/a.js"></script>',
  );
  writeFileSync(join(clientDir, 'assets', 'a.js'), 'console.log(1)');
  product = await startTestProduct();
  // Same database, a second app with the built SPA mounted.
  const withPages = await startProduct(
    parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE, DEMO_DATA: 'false', TRUST_PROXY: 'true' }),
    {
      database: product.database,
      listen: false,
      clientDir,
    },
  );
  pages = withPages;
});
let pages: Awaited<ReturnType<typeof startProduct>>;
afterAll(async () => {
  await pages?.close();
  await product.stop();
  rmSync(clientDir, { recursive: true, force: true });
});

function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

function checkHeaders(label: string, response: Response, options: { https?: boolean } = {}) {
  const h = response.headers;
  const csp = directives(h.get('content-security-policy'));
  expect(csp.size, `${label}: Content-Security-Policy`).toBeGreaterThan(0);
  const scriptSrc = csp.get('script-src') ?? csp.get('default-src') ?? [];
  expect(scriptSrc, `${label}: script-src`).not.toContain("'unsafe-inline'");
  expect(scriptSrc, `${label}: script-src`).not.toContain("'unsafe-eval'");
  expect(csp.get('object-src'), `${label}: object-src`).toEqual(["'none'"]);
  const framedBySite = label.includes('/_local/booking');
  expect(csp.get('frame-ancestors'), `${label}: frame-ancestors`).toEqual([framedBySite ? "'self'" : "'none'"]);
  expect(h.get('x-content-type-options'), `${label}: nosniff`).toBe('nosniff');
  expect(h.get('referrer-policy'), `${label}: Referrer-Policy`).toBe('strict-origin-when-cross-origin');
  const permissions = h.get('permissions-policy') ?? '';
  for (const feature of ['camera=()', 'microphone=()', 'geolocation=()'])
    expect(permissions, `${label}: Permissions-Policy`).toContain(feature);
  if (options.https) expect(h.get('strict-transport-security'), `${label}: HSTS`).toMatch(/max-age=\d{7,}/);
  else expect(h.get('strict-transport-security'), `${label}: no HSTS on http`).toBeNull();
}

/** A concrete path for each route pattern of the app. */
function concretePaths(app: SecurityProduct['app']): { method: string; path: string }[] {
  const seen = new Set<string>();
  const out: { method: string; path: string }[] = [];
  for (const route of app.routes) {
    const methods = route.method === 'ALL' ? ['GET', 'POST'] : [route.method];
    for (const method of methods) {
      const path = route.path
        .replace(/:[A-Za-z]+/g, 'x1')
        .replace(/\/\*$/, '/inconnu')
        .replace(/^\*$/, '/inconnu');
      const key = `${method} ${path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ method, path });
    }
  }
  return out;
}

describe('security headers on every response', () => {
  it('every route of the app, anonymous, answered or refused (including errors and 404s)', async () => {
    const routes = concretePaths(pages.app);
    expect(routes.length).toBeGreaterThan(50);
    for (const { method, path } of routes) {
      const response = await pages.app.request(`${TEST_SITE}${path}`, {
        method,
        headers: method === 'GET' || method === 'HEAD' ? {} : { 'content-type': 'application/json', origin: TEST_SITE },
        ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
      });
      expect(response.status, `${method} ${path}`).toBeLessThan(500);
      checkHeaders(`${method} ${path}`, response);
      await response.arrayBuffer();
    }
  });

  it('pages, assets, redirects and the 404 page of the built SPA', async () => {
    for (const path of ['/', '/assets/a.js', '/blog/', '/page-inconnue', '/favicon-absent.ico']) {
      const response = await pages.app.request(`${TEST_SITE}${path}`);
      expect(response.status, path).toBeLessThan(500);
      checkHeaders(path, response);
    }
  });

  // A second product, a registration and its confirmation: more than the default 30 s on a busy machine.
  it('HSTS and Secure cookies behind HTTPS; HttpOnly and SameSite=Lax always', async () => {
    const database = await openTestDatabase();
    const site = 'https://union-sincere.example';
    const https = await startProduct(
      parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: site, DEMO_DATA: 'false', TRUST_PROXY: 'true' }),
      {
        database,
        listen: false,
        clientDir: '/nonexistent',
      },
    );
    try {
      const health = await https.app.request(`${site}/api/v1/health`);
      checkHeaders('https health', health, { https: true });
      const email = `https.${Date.now()}@example.fr`;
      const json = { 'content-type': 'application/json', origin: site, 'x-forwarded-for': '203.0.113.7' };
      const signup = await https.app.request(`${site}/api/v1/dashboard/subscription`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ context: 'init', email, role: 'femme', password: 'bismillah-2026' }),
      });
      expect(signup.status).toBe(202);
      checkHeaders('https signup', signup, { https: true });
      // The registration's cookie, then the session's once the mailed link is opened (decision 187).
      const confirmed = await https.app.request(`${site}/api/v1/auth/confirmation`, {
        method: 'POST',
        headers: {
          ...json,
          cookie: signup.headers
            .getSetCookie()
            .map((line) => line.split(';')[0])
            .join('; '),
        },
        body: JSON.stringify({ tokenHash: await confirmationTokenIn(database.db, email) }),
      });
      expect(confirmed.status).toBe(201);
      checkHeaders('https confirmation', confirmed, { https: true });
      const cookies = [...signup.headers.getSetCookie(), ...confirmed.headers.getSetCookie()];
      expect(cookies.some((cookie) => cookie.startsWith('sb-'))).toBe(true);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/;\s*HttpOnly/i);
        expect(cookie).toMatch(/;\s*SameSite=Lax/i);
        expect(cookie).toMatch(/;\s*Secure/i);
        expect(cookie).toMatch(/;\s*Path=\//i);
      }
    } finally {
      await https.close();
      await database.close();
    }
  }, 90_000);

  it('session cookies on localhost: HttpOnly and SameSite=Lax (Secure only off localhost)', async () => {
    const agent = product.agent();
    const response = await signUp(agent, {
      context: 'init',
      email: `cookies.${Date.now()}@example.fr`,
      role: 'homme',
      password: 'bismillah-2026',
    });
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie().length).toBeGreaterThan(0);
    for (const cookie of response.headers.getSetCookie()) {
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    }
  });
});

describe('cross-site writes', () => {
  const writes = () =>
    [
      ...new Set(
        product.app.routes
          .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && r.path.startsWith('/api/v1/'))
          .map((r) => `${r.method} ${r.path}`),
      ),
    ]
      .filter((k) => !k.includes('/webhooks/'))
      .map((k) => k.split(' ') as [string, string]);

  it('every cookie-authenticated write of the API is refused from another site (Origin or Sec-Fetch-Site), even signed in', async () => {
    const member = await signUpMember(product);
    expect(writes().length).toBeGreaterThan(10);
    for (const [method, pattern] of writes()) {
      const path = pattern.replace(/:[A-Za-z]+/g, member.id);
      const attempts: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: 'http://localhost:3999.evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
      ];
      for (const headers of attempts) {
        // Built by hand: the agent would add its own same-origin Origin header to a body.
        const answer = await product.app.request(`${TEST_SITE}${path}`, {
          method,
          headers: {
            'content-type': 'application/json',
            cookie: [...member.agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            ...headers,
          },
          body: '{}',
        });
        expect(answer.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect((await answer.json()).error.code).toBe('CROSS_SITE_REQUEST');
      }
    }
    // The member is untouched and still signed in.
    expect((await member.agent.get('/api/v1/user/settings')).status).toBe(200);
  });

  it('same-origin writes still pass the check', async () => {
    const agent = product.agent();
    const response = await agent.post('/api/v1/consent', {}, { 'sec-fetch-site': 'same-origin' });
    expect(response.status).toBe(400);
  });

  it('the webhooks take no cookie and are exempt, but still need their signature', async () => {
    const response = await rawRequest(product, 'POST', '/api/v1/webhooks/stripe', {
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: '{}',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('INVALID_SIGNATURE');
  });

  it('the local checkout stand-in refuses a cross-site form post', async () => {
    const response = await rawRequest(product, 'POST', '/_local/checkout/file_fee', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: 'member=x',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });
});

describe('the image endpoint serves local sources only', () => {
  const refusedSources = [
    'https://evil.example/a.png',
    'http://127.0.0.1:5432/a.png',
    '//evil.example/a.png',
    '/\\evil.example/a.png',
    'file:///etc/passwd',
    '/../../../../etc/passwd',
    '/images/../../package.json',
    '/images/%2e%2e/%2e%2e/package.json',
    '/images/..%2f..%2fpackage.json',
    '/%2e%2e/%2e%2e/etc/hosts.png',
    'data:image/png;base64,iVBORw0KGgo=',
    '/images/a.png\0.svg',
    '',
    'images/a.png',
  ];
  for (const route of ['/_image', '/_vercel/image', '/_image/metadata']) {
    it(`${route} refuses ${refusedSources.length} non-local or escaping sources with 4xx in the error shape`, async () => {
      for (const source of refusedSources) {
        const response = await product.app.request(`${TEST_SITE}${route}?url=${encodeURIComponent(source)}&w=640`);
        expect(response.status, source).toBeGreaterThanOrEqual(400);
        expect(response.status, source).toBeLessThan(500);
        expect(response.headers.get('content-type'), source).toMatch(/json/);
        const body = await response.json();
        expect(typeof body.error?.code, source).toBe('string');
      }
    });
  }
});

describe('redirects stay on the site', () => {
  it('a trailing-slash redirect never leads to another host', async () => {
    for (const path of [
      '//evil.example/',
      '/%2Fevil.example/',
      '/%5Cevil.example/',
      '/\\evil.example/',
      '///evil.example//',
      '/%2F%2Fevil.example/',
      '/a%0d%0aSet-Cookie:x=1/',
    ]) {
      const response = await pages.app.request(`${TEST_SITE}${path}`);
      expect(response.status, path).toBeLessThan(500);
      const location = response.headers.get('location');
      if (location) {
        const target = new URL(location, TEST_SITE);
        expect(target.origin, `${path} → ${location}`).toBe(TEST_SITE);
        expect(location, path).not.toMatch(/^[/\\]{2}/);
        expect(location, path).not.toMatch(/[\r\n]/);
      }
    }
  });

  it('the auth service ignores a foreign redirect_to', async () => {
    for (const target of ['https://evil.example/', '//evil.example', 'http://localhost:3999.evil.example/']) {
      const response = await rawRequest(
        product,
        'GET',
        `/auth/v1/verify?type=recovery&token=${'0'.repeat(40)}&redirect_to=${encodeURIComponent(target)}`,
        { headers: { apikey: product.auth.anonKey } },
      );
      const location = response.headers.get('location') ?? '';
      expect([303, 400, 401, 403, 404, 429], target).toContain(response.status);
      if (location) expect(new URL(location).origin, target).toBe(new URL(TEST_SITE).origin);
    }
  });
});
