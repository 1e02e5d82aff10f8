import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { describe, expect, it } from 'vitest';
import { secureHeadersOptions, securityHeaderEntries, securityHeaders } from '#bff/http/security-headers.ts';

const plain = { https: false };
const POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "frame-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'self'; object-src 'none'";

/** What our wrapper of Hono's `secureHeaders` adds, and the policy it is given (decision 215). */
describe('security headers (Hono’s secureHeaders with our policy)', () => {
  it('are exactly the headers Hono’s secureHeaders sets with our options', async () => {
    const entries = await securityHeaderEntries(plain);
    for (const [path, framed] of [
      ['/api/v1/user/settings', false],
      ['/_local/booking/x', true],
    ] as const) {
      const hono = await new Hono()
        .use(secureHeaders(secureHeadersOptions(plain, framed)))
        .get('*', (c) => c.body(null, 204))
        .request(path);
      expect(new Map(entries(path))).toEqual(new Map(hono.headers));
    }
  });

  it('pin our policy: the CSP, framing by path, referrer, permissions, no HSTS on http', async () => {
    const entries = await securityHeaderEntries(plain);
    const everywhere = new Map(entries('/'));
    expect(everywhere.get('content-security-policy')).toBe(POLICY);
    expect(everywhere.get('x-frame-options')).toBe('DENY');
    expect(everywhere.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(everywhere.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=(), payment=(), usb=()');
    expect(everywhere.get('x-content-type-options')).toBe('nosniff');
    expect(everywhere.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(everywhere.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(everywhere.has('strict-transport-security')).toBe(false);
    // The scheduling stand-in is framed by the site itself, nothing else is.
    const framed = new Map(entries('/_local/booking/rdv'));
    expect(framed.get('content-security-policy')).toBe(POLICY.replace("frame-ancestors 'none'", "frame-ancestors 'self'"));
    expect(framed.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('allow the tag manager and the scheduling page only when configured; HSTS behind HTTPS', async () => {
    const entries = await securityHeaderEntries({ https: true, gtmId: 'GTM-X', calendlyOrigin: 'https://calendly.com' });
    const headers = new Map(entries('/'));
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' https://www.googletagmanager.com;");
    expect(csp).toContain("frame-src 'self' https://calendly.com;");
    expect(csp).toContain("connect-src 'self' https://*.google-analytics.com");
    expect(headers.get('strict-transport-security')).toBe('max-age=63072000; includeSubDomains');
  });

  it('are set before the handler (a context-built answer has them) and again on an answer the handler built itself', async () => {
    const entries = await securityHeaderEntries(plain);
    let seenByHandler: string | undefined;
    const app = new Hono()
      .use(securityHeaders(entries))
      .get('/json', (c) => {
        seenByHandler = c.res.headers.get('content-security-policy') ?? undefined;
        return c.json({ ok: true });
      })
      .get('/raw', () => new Response('raw', { headers: { 'Content-Security-Policy': 'default-src *' } }));
    const json = await app.request('/json');
    expect(seenByHandler).toBe(POLICY);
    expect(json.headers.get('content-security-policy')).toBe(POLICY);
    const raw = await app.request('/raw');
    expect(raw.headers.get('content-security-policy')).toBe(POLICY);
    expect(raw.headers.get('x-frame-options')).toBe('DENY');
  });
});
