import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSiteFiles, SITE_VALUES_PLACEHOLDER } from '#bff/site/site-files.ts';
import { DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { writeBuiltSite } from '#tests/support/built-site.ts';

/**
 * The browser fills the copy's tokens from the page's `<meta name="site-values">` exactly as the
 * server filled the prerendered HTML (decision 106): a client render, after a navigation or at
 * hydration, shows the same identity and prices, character for character.
 */
const copy =
  '<p>Siège : {{agence.adresse}} &amp; co, {{agence.raison-sociale}}</p><p>{{horizon.une-fois}} en une fois{{horizon.une-fois-detail}}</p>';
const agency = { ...DEMO_AGENCY_IDENTITY, address: '12 rue "des" <Lilas> & Cie, 69003 Lyon' };

async function browserWith(metaContent: string | null) {
  vi.stubGlobal('document', {
    querySelector: (selector: string) =>
      selector === 'meta[name="site-values"]' && metaContent !== null ? { content: metaContent } : null,
  });
  vi.resetModules();
  return import('#src/features/public-site/site-values.ts');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('site values in the browser', () => {
  it('renders the copy as the server served it, for each pay-in-full setting', async () => {
    const dir = writeBuiltSite('union-site-values-', {
      'index.html': `<html><head><meta name="site-values" content="${SITE_VALUES_PLACEHOLDER}" /></head><body><div id="app">${copy}</div></body></html>`,
      'spa.html': '',
      '404.html': '',
      'sitemap.xml': '',
      'robots.txt': '',
      'prerender-manifest.json': JSON.stringify({ pages: ['/'], prerenderedPatterns: ['/'], spaRoutes: [] }),
    });
    try {
      const files = loadSiteFiles({ clientDir: dir, publicSiteUrl: 'https://www.union-sincere.fr', agency });
      for (const setting of ['cash', 'cashback'] as const) {
        files.setPayInFull(setting);
        const served = files.pages.get('/') ?? '';
        const meta = /<meta name="site-values" content="([^"]*)"/.exec(served)?.[1] ?? '';
        const decoded = meta
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&');
        const { siteHtml } = await browserWith(decoded);
        const app = /<div id="app">(.*)<\/div><\/body>/.exec(served)?.[1];
        expect(siteHtml(copy)).toBe(app);
        expect(app).toContain('12 rue &quot;des&quot; &lt;Lilas&gt; &amp; Cie');
        expect(app).not.toContain('{{');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fills text nodes unescaped (React escapes them)', async () => {
    const { siteText } = await browserWith(JSON.stringify({ 'agence.adresse': '1 rue <A> & B' }));
    expect(siteText('Adresse : {{agence.adresse}}, {{inconnu}}')).toBe('Adresse : 1 rue <A> & B, {{inconnu}}');
  });

  it('leaves the tokens to the server during the prerender and on a page without values', async () => {
    vi.resetModules();
    const prerender = await import('#src/features/public-site/site-values.ts');
    expect(prerender.siteHtml(copy)).toBe(copy);
    expect((await browserWith(SITE_VALUES_PLACEHOLDER)).siteHtml(copy)).toBe(copy);
    expect((await browserWith('{"agence.adresse": 42}')).siteText('{{agence.adresse}}')).toBe('{{agence.adresse}}');
    expect((await browserWith(null)).siteText('{{agence.adresse}}')).toBe('{{agence.adresse}}');
  });
});
