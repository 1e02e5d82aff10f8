import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { redirectTarget, safeRedirect } from '#src/lib/safe-redirect.ts';
import { type SecurityProduct, signUpMember, startTestProduct } from '#tests/security/support.ts';

/**
 * Brute force: sign-in and password recovery are limited per address and per account, with a
 * French 429 and Retry-After; the limits cannot be dodged by changing the e-mail's case or the
 * forwarded address when no proxy is trusted. Open redirects through `redirect` are refused.
 */

let product: SecurityProduct;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

async function expectFrench429(response: Response) {
  expect(response.status).toBe(429);
  const body = await response.json();
  expect(body.error.code).toBe('RATE_LIMITED');
  expect(body.error.message).toMatch(/^Trop de tentatives\. Réessayez dans \d+ minutes?\.$/);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('sign-in', () => {
  it(`per account: ${LIMITS.signinPerAccount.points} attempts from as many addresses, then 429 — even with the right password and another case`, async () => {
    const member = await signUpMember(product);
    for (let i = 0; i < LIMITS.signinPerAccount.points; i += 1) {
      const response = await product.agent().post('/api/v1/auth/signin', { email: member.email, password: `mauvais-mot-${i}` });
      expect(response.status).toBe(400);
    }
    await expectFrench429(await product.agent().post('/api/v1/auth/signin', { email: member.email, password: member.password }));
    await expectFrench429(
      await product.agent().post('/api/v1/auth/signin', { email: member.email.toUpperCase(), password: member.password }),
    );
  });

  it(`per address: ${LIMITS.signinPerIp.points} attempts on as many accounts, then 429`, async () => {
    const agent = product.agent();
    for (let i = 0; i < LIMITS.signinPerIp.points; i += 1) {
      const response = await agent.post('/api/v1/auth/signin', { email: `inconnu.${i}.${Date.now()}@example.fr`, password: 'mauvais-mot' });
      expect(response.status).toBe(400);
    }
    await expectFrench429(await agent.post('/api/v1/auth/signin', { email: `encore.${Date.now()}@example.fr`, password: 'mauvais-mot' }));
    // Another address is not affected.
    expect(
      (await product.agent().post('/api/v1/auth/signin', { email: `autre.${Date.now()}@example.fr`, password: 'mauvais-mot' })).status,
    ).toBe(400);
  });
});

describe('password recovery', () => {
  it(`per account: ${LIMITS.recoveryPerAccount.points} requests, then 429 (from other addresses too)`, async () => {
    const member = await signUpMember(product);
    for (let i = 0; i < LIMITS.recoveryPerAccount.points; i += 1) {
      expect((await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email: member.email })).status).toBe(200);
    }
    await expectFrench429(await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email: member.email }));
    await expectFrench429(
      await product.agent().post('/api/v1/auth/pass-recovery', { ctx: 'reco', email: ` ${member.email.toUpperCase()} ` }),
    );
  });

  it(`per address: ${LIMITS.recoveryPerIp.points} requests, then 429 — also for the token step`, async () => {
    const agent = product.agent();
    for (let i = 0; i < LIMITS.recoveryPerIp.points; i += 1) {
      expect((await agent.post('/api/v1/auth/pass-recovery', { ctx: 'reco', email: `perdu.${i}.${Date.now()}@example.fr` })).status).toBe(
        200,
      );
    }
    await expectFrench429(await agent.post('/api/v1/auth/pass-recovery', { ctx: 'reco', email: `perdu.x.${Date.now()}@example.fr` }));
    await expectFrench429(
      await agent.post('/api/v1/auth/pass-recovery', {
        ctx: 'change',
        email: 'perdu@example.fr',
        password: 'nouveau-mot-2026',
        token: 'a'.repeat(40),
      }),
    );
  });
});

describe('without a trusted proxy', () => {
  it('a forged X-Forwarded-For does not reset the per-address limit', async () => {
    const direct = await startTestProduct({ env: { TRUST_PROXY: 'false' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= LIMITS.signinPerIp.points; i += 1) {
        const response = await direct.app.request('http://localhost:3999/api/v1/auth/signin', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i + 1}` },
          body: JSON.stringify({ email: `faux.${i}.${Date.now()}@example.fr`, password: 'mauvais-mot' }),
        });
        statuses.push(response.status);
      }
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await direct.stop();
    }
  });
});

describe('open redirects through `redirect` (the SPA’s sanitiser, src/lib/safe-redirect.ts)', () => {
  const SITE = 'https://union-sincere.example';

  it('whatever the input, the result is null or a path that stays on the site', () => {
    const hostile = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.webUrl(),
      fc
        .tuple(
          fc.constantFrom('/', '//', '/\\', '\\\\', '\\/', '/\t/', '/%2F', 'https:', 'javascript:', ' /', '/./', '/../'),
          fc.string({ maxLength: 40 }),
        )
        .map(([a, b]) => a + b),
      fc.constantFrom(
        '//evil.example',
        '/\\evil.example',
        'https://evil.example',
        'HTTPS://evil.example',
        '/\u3000/evil.example',
        '/%09/evil.example',
      ),
    );
    fc.assert(
      fc.property(hostile, (input) => {
        const out = safeRedirect(input);
        if (out === null) return true;
        expect(out.startsWith('/')).toBe(true);
        expect(out.startsWith('//')).toBe(false);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
        expect(out).not.toMatch(/[\\\s\u0000-\u001f]/);
        // Resolved by a browser against the site, it never leaves the site.
        expect(new URL(out, SITE).origin).toBe(SITE);
        return true;
      }),
      { numRuns: 3000 },
    );
  });

  it('dot segments cannot produce a protocol-relative target', () => {
    for (const input of ['/..//evil.example', '/.//evil.example/mon-compte', '/a/../..//evil.example', '/..//'])
      expect(safeRedirect(input), input).toBeNull();
  });

  it('the fallback replaces any refused target', () => {
    expect(redirectTarget('//evil.example', '/mon-compte')).toBe('/mon-compte');
    expect(redirectTarget('/mon-compte/inscription', '/')).toBe('/mon-compte/inscription');
  });

  it('every screen that reads the `redirect` search parameter uses the sanitiser', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const files = (readdirSync('src', { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.test.ts'));
    const readers = files.filter((f) =>
      /\{[^}]*\bredirect\b[^}]*\}\s*=\s*\w+(\.\w+)*\.useSearch\(|search\.redirect\b/.test(readFileSync(`src/${f}`, 'utf8')),
    );
    expect(readers.length).toBeGreaterThan(0);
    for (const file of readers) expect(readFileSync(`src/${file}`, 'utf8'), file).toMatch(/safeRedirect|redirectTarget/);
  });
});
