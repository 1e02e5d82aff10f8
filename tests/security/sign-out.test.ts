import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OutsideProduct, startOutsideProduct } from '#tests/security/outsider.ts';

/**
 * Issue 60, point 6: sign-out is a write. A GET (a link, an image on another site) changes
 * nothing and shows a page with a button; a POST from another site is refused by the Origin rule
 * of every write; a POST from the site's own page signs out.
 */
let target: OutsideProduct;
beforeAll(async () => {
  target = await startOutsideProduct();
});
afterAll(() => target.stop());

async function signedInCookie(): Promise<string> {
  const { agent } = await target.registeredMember();
  return [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

async function stillSignedIn(cookie: string): Promise<boolean> {
  const response = await target.outside('/api/v1/user/settings', { headers: { cookie } });
  return response.status === 200;
}

describe('sign-out', () => {
  it('a GET signs no one out: it shows a French page whose button posts the sign-out', async () => {
    const cookie = await signedInCookie();
    const page = await target.outside('/api/v1/auth/signout', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.getSetCookie()).toEqual([]);
    const text = await page.text();
    expect(text).toContain('<html lang="fr">');
    expect(text).toMatch(/<form method="post" action="\/api\/v1\/auth\/signout"><button type="submit">Me déconnecter<\/button><\/form>/);
    expect(await stillSignedIn(cookie)).toBe(true);
  });

  it('a POST from another site is refused (Origin or Sec-Fetch-Site), and the session lives on', async () => {
    const cookie = await signedInCookie();
    const foreign = await target.outside('/api/v1/auth/signout', {
      method: 'POST',
      headers: { cookie, origin: 'https://site-malveillant.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.code).toBe('CROSS_SITE_REQUEST');
    const crossSite = await target.outside('/api/v1/auth/signout', {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
      body: '',
    });
    expect(crossSite.status).toBe(403);
    expect(await stillSignedIn(cookie)).toBe(true);
  });

  it('the page’s form, posted from the site, signs out and leads home', async () => {
    const cookie = await signedInCookie();
    const response = await target.outside('/api/v1/auth/signout', {
      method: 'POST',
      headers: { cookie, origin: target.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    expect(await stillSignedIn(cookie)).toBe(false);
  });

  it('the SPA’s call (JSON, same origin) signs out', async () => {
    const cookie = await signedInCookie();
    const response = await target.outside('/api/v1/auth/signout', { method: 'POST', headers: { cookie, origin: target.base } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(await stillSignedIn(cookie)).toBe(false);
  });
});
