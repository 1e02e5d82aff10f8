import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBuiltSite } from '#tests/support/built-site.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  acceptedCodings,
  dataPreloadLink,
  loadSiteFiles,
  NOT_FOUND_PATH_PLACEHOLDER,
  type PrerenderManifest,
  routePatternToRegExp,
  SITE_URL_PLACEHOLDER,
  SITE_VALUES_PLACEHOLDER,
} from '#bff/site/site-files.ts';
import { classifyPath, sitePages } from '#bff/site/site-pages.ts';
import { DEMO_AGENCY_IDENTITY, PLACEHOLDER_PATTERN } from '#machines/public-site/agency-identity.ts';
import { siteValues } from '#machines/public-site/site-tokens.ts';

const manifest: PrerenderManifest = {
  pages: ['/', '/blog', '/blog/un-article', '/qui-sommes-nous'],
  prerenderedPatterns: ['/', '/blog', '/blog/$slug', '/qui-sommes-nous'],
  spaRoutes: ['/connexion', '/mon-compte', '/mon-compte/inscription/profil', '/dashboard/member/$memberId'],
  spaShells: [
    { pattern: '/mon-compte', file: 'spa/mon-compte.html' },
    { pattern: '/dashboard/member/$memberId', file: 'spa/dashboard_member_memberId.html' },
  ],
};

function page(title: string) {
  return `<!doctype html><html lang="fr"><head><title>${title}</title><link rel="canonical" href="${SITE_URL_PLACEHOLDER}/x" /></head><body><div id="app">${title}</div></body></html>`;
}

describe('route patterns', () => {
  it.each([
    ['/dashboard/member/$memberId', '/dashboard/member/abc-123', true],
    ['/dashboard/member/$memberId', '/dashboard/member/abc/def', false],
    ['/dashboard/member/$memberId', '/dashboard/member', false],
    ['/files/$', '/files/a/b/c', true],
    ['/', '/', true],
    ['/connexion', '/connexionx', false],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(routePatternToRegExp(pattern).test(path)).toBe(expected);
  });

  it('names the API answers a page asks for as it opens, with its parameters, in a Link header (decision 135)', () => {
    const data = ['/api/v1/dashboard/members/$memberId', '/api/v1/dashboard/members/$memberId/follow-up'];
    expect(dataPreloadLink('/dashboard/member/$memberId', data, '/dashboard/member/0b6c9f7e-2f6e-4a53')).toBe(
      '</api/v1/dashboard/members/0b6c9f7e-2f6e-4a53>; rel=preload; as=fetch; crossorigin, ' +
        '</api/v1/dashboard/members/0b6c9f7e-2f6e-4a53/follow-up>; rel=preload; as=fetch; crossorigin',
    );
    // Only a plain id goes into the header; a pattern without data has none.
    expect(dataPreloadLink('/dashboard/member/$memberId', data, '/dashboard/member/a%3E%2C%20%3C')).toBeNull();
    expect(dataPreloadLink('/dashboard/member/$memberId', data, '/dashboard/member/a;b')).toBeNull();
    expect(dataPreloadLink('/mon-compte', undefined, '/mon-compte')).toBeNull();
  });

  it('classifies prerendered pages, client-rendered areas and unknown paths', () => {
    expect(classifyPath('/blog/un-article', manifest)).toBe('page');
    expect(classifyPath('/blog/article-inconnu', manifest)).toBe('not-found');
    expect(classifyPath('/dashboard/member/42', manifest)).toBe('spa');
    expect(classifyPath('/mon-compte', manifest)).toBe('spa');
    expect(classifyPath('/mon-compte/nimporte', manifest)).toBe('not-found');
    expect(classifyPath('/nimporte', manifest)).toBe('not-found');
  });
});

describe('sitePages', () => {
  let dir: string;
  let app: ReturnType<typeof sitePages>;
  beforeAll(() => {
    dir = writeBuiltSite('union-site-', {
      'index.html': page('Accueil'),
      'blog/index.html': page('Blog'),
      'blog/un-article/index.html': page('Un article'),
      'qui-sommes-nous/index.html': page('Qui sommes-nous'),
      'spa.html': page('Espace'),
      'spa/mon-compte.html': page('Espace du membre'),
      'spa/dashboard_member_memberId.html': page('Espace équipe, fiche'),
      '404.html': page(`Page introuvable : ${NOT_FOUND_PATH_PLACEHOLDER}`),
      'sitemap.xml': `<urlset><url><loc>${SITE_URL_PLACEHOLDER}/blog</loc></url></urlset>`,
      'robots.txt': `Sitemap: ${SITE_URL_PLACEHOLDER}/sitemap.xml\n`,
      'prerender-manifest.json': JSON.stringify(manifest),
      'assets/app-abc123.js': 'console.log(1)',
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'version.json': '{"version":"b42"}',
      '.vite/manifest.json': '{}',
    });
    app = sitePages({ clientDir: dir, publicSiteUrl: 'https://www.union-sincere.fr/' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the build id the SPA polls for new versions, never from a cache', async () => {
    const response = await app.request('/version.json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ version: 'b42' });
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect((await app.request('/favicon.svg')).headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('serves prerendered pages with 200 and the public address in place of the placeholder', async () => {
    const response = await app.request('/blog/un-article');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Un article');
    expect(html).toContain('<link rel="canonical" href="https://www.union-sincere.fr/x" />');
    expect(html).not.toContain(SITE_URL_PLACEHOLDER);
    expect(await (await app.request('/')).text()).toContain('Accueil');
  });

  it('serves the client shell with 200 for the member and staff areas: the route’s own shell, else spa.html', async () => {
    for (const [path, shell] of [
      ['/connexion', '<title>Espace</title>'],
      ['/mon-compte', '<title>Espace du membre</title>'],
      ['/mon-compte/inscription/profil', '<title>Espace</title>'],
      ['/dashboard/member/42', '<title>Espace équipe, fiche</title>'],
    ] as const) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain(shell);
    }
  });

  it('answers 404 with the error page naming the path (escaped) for anything else', async () => {
    for (const path of ['/nimporte', '/blog/article-inconnu', '/mon-compte/nimporte']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain(`Page introuvable : ${path}`);
    }
    const hostile = await app.request('/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(hostile.status).toBe(404);
    const text = await hostile.text();
    expect(text).toContain('Page introuvable : /&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).not.toContain('<script>alert(1)');
  });

  it('answers an unknown back-office path with the application’s shell and 404: its layout says « Page introuvable » (issue 63)', async () => {
    for (const path of ['/dashboard/nimporte', '/dashboard/member/42/de-trop']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      const text = await response.text();
      expect(text, path).toContain('<title>Espace</title>');
      expect(text, path).not.toContain('Page introuvable : ');
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('redirects a trailing slash and /index.html to the canonical path', async () => {
    const slash = await app.request('/qui-sommes-nous/?a=1');
    expect(slash.status).toBe(301);
    expect(slash.headers.get('location')).toBe('/qui-sommes-nous?a=1');
    const index = await app.request('/index.html');
    expect(index.status).toBe(301);
    expect(index.headers.get('location')).toBe('/');
  });

  it('serves sitemap.xml and robots.txt with the public address', async () => {
    const sitemap = await app.request('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toMatch(/application\/xml/);
    expect(await sitemap.text()).toContain('<loc>https://www.union-sincere.fr/blog</loc>');
    expect(await (await app.request('/robots.txt')).text()).toBe('Sitemap: https://www.union-sincere.fr/sitemap.xml\n');
  });

  it('serves files, hashed assets for a year, and never the raw pages, the build manifests or dotfiles', async () => {
    const asset = await app.request('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await app.request('/favicon.svg')).status).toBe(200);
    for (const path of [
      '/spa.html',
      '/404.html',
      '/blog/index.html',
      '/prerender-manifest.json',
      '/.vite/manifest.json',
      '/assets/absent.js',
      '/absent.png',
    ]) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });

  it('serves a page in brotli once made (gzip meanwhile), gzip or identity as the client accepts', async () => {
    const files = loadSiteFiles({ clientDir: dir, publicSiteUrl: 'https://www.union-sincere.fr/' });
    const site = sitePages(files);
    const text = files.pages.get('/blog') as string;
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' };
    const first = await site.request('/blog', { headers: browser });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(new Uint8Array(await first.arrayBuffer())).toString()).toBe(text);
    await files.compressed();
    const second = await site.request('/blog', { headers: browser });
    expect(second.headers.get('content-encoding')).toBe('br');
    expect(second.headers.get('vary')).toBe('Accept-Encoding');
    expect(brotliDecompressSync(new Uint8Array(await second.arrayBuffer())).toString()).toBe(text);
    const gzipOnly = await site.request('/blog', { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzipOnly.headers.get('content-encoding')).toBe('gzip');
    const plain = await site.request('/blog', { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(text);
  });

  it('reads Accept-Encoding with its weights', () => {
    expect(acceptedCodings(undefined)).toEqual({ br: false, gzip: false });
    expect(acceptedCodings('gzip, deflate, br, zstd')).toEqual({ br: true, gzip: true });
    expect(acceptedCodings('gzip;q=1.0, br; q=0')).toEqual({ br: false, gzip: true });
    expect(acceptedCodings('BR')).toEqual({ br: true, gzip: false });
    expect(acceptedCodings('*')).toEqual({ br: true, gzip: true });
    expect(acceptedCodings('*;q=0.5, gzip;q=0')).toEqual({ br: true, gzip: false });
    expect(acceptedCodings('x-gzip')).toEqual({ br: false, gzip: true });
    expect(acceptedCodings('identity;q=1, *;q=0')).toEqual({ br: false, gzip: false });
  });

  it('compresses pages and scripts for clients that accept gzip', async () => {
    const big = 'x'.repeat(5000);
    writeFileSync(join(dir, 'assets', 'big-abc.js'), `console.log("${big}")`);
    const response = await app.request('/assets/big-abc.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const plain = await app.request('/assets/big-abc.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
  });

  it('without a prerender manifest, answers every page path with index.html (plain vite build)', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'union-plain-'));
    try {
      writeFileSync(join(plain, 'index.html'), page('Shell'));
      const shell = sitePages({ clientDir: plain, publicSiteUrl: 'http://localhost:3000' });
      const response = await shell.request('/nimporte');
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('Shell');
      // The browser still gets the tokens' values (decision 106).
      expect(text).toMatch(/<meta name="site-values" content="\{&quot;agence\.raison-sociale&quot;:/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('the agency identity and the offers in served pages (decision 106)', () => {
  let dir: string;
  const legal = `<!doctype html><html lang="fr"><head><meta name="site-values" content="${SITE_VALUES_PLACEHOLDER}" /></head><body><div id="app"><p>Siège : {{agence.adresse}}, SIRET {{agence.siret}}</p><p>Horizon : {{horizon.une-fois}} en une fois{{horizon.une-fois-detail}}</p></div></body></html>`;
  const agency = {
    ...DEMO_AGENCY_IDENTITY,
    legalName: 'Union Sincère SAS',
    address: '12 rue des Lilas, 69003 Lyon',
    siret: '123 456 789 00012',
  };
  beforeAll(() => {
    dir = writeBuiltSite('union-site-tokens-', {
      'index.html': legal,
      'spa.html': legal,
      '404.html': legal,
      'sitemap.xml': '<urlset/>',
      'robots.txt': '',
      'prerender-manifest.json': JSON.stringify({ pages: ['/'], prerenderedPatterns: ['/'], spaRoutes: [] }),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fills the tokens with the configured identity, escaped, and gives the browser the same values', async () => {
    const files = loadSiteFiles({
      clientDir: dir,
      publicSiteUrl: 'https://www.union-sincere.fr',
      agency: { ...agency, address: '12 rue <des> "Lilas"' },
    });
    const html = await (await sitePages(files).request('/')).text();
    expect(html).toContain('Siège : 12 rue &lt;des&gt; &quot;Lilas&quot;, SIRET 123 456 789 00012</p>');
    expect(html).not.toContain('{{');
    const meta = /<meta name="site-values" content="([^"]*)"/.exec(html)?.[1] ?? '';
    const values = JSON.parse(
      meta
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
    expect(values).toEqual(siteValues({ ...agency, address: '12 rue <des> "Lilas"' }, 'cash'));
  });

  it('never prints a placeholder, and the demo identity says it is one', async () => {
    const html = await (await sitePages({ clientDir: dir, publicSiteUrl: 'http://localhost:3000' }).request('/')).text();
    expect(html).not.toMatch(PLACEHOLDER_PATTERN);
    expect(html).toContain('SIRET 000 000 000 00000 (démonstration)');
  });

  it('shows the pay-in-full price of the staff setting, switched without a restart', async () => {
    const files = loadSiteFiles({ clientDir: dir, publicSiteUrl: 'https://www.union-sincere.fr', agency });
    const app = sitePages(files);
    const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
    expect(files.payInFull).toBe('cash');
    expect(plain(await (await app.request('/')).text())).toContain('Horizon : 570 € en une fois</p>');
    files.setPayInFull('cashback');
    const discounted = plain(await (await app.request('/')).text());
    expect(discounted).toContain('Horizon : 513 € en une fois (10 % de moins que les 6 mensualités, qui font 570 €)</p>');
    expect(plain(await (await app.request('/page-inconnue')).text())).toContain('513 €');
    files.setPayInFull('cash');
    expect(plain(await (await app.request('/')).text())).not.toContain('513');
  });
});
