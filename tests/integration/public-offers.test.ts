import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '#bff/content/content-store.ts';
import { SITE_VALUES_PLACEHOLDER } from '#bff/site/site-files.ts';
import { writePayInFull } from '#bff/onboarding/plan-settings.ts';
import type { Plan } from '#machines/onboarding/plans.ts';
import { PLACEHOLDER_PATTERN } from '#machines/public-site/agency-identity.ts';
import { formatPrice } from '#machines/public-site/site-tokens.ts';
import { writeBuiltSite } from '#tests/support/built-site.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct } from '#tests/support/test-product.ts';
import { renderPage } from '#src/entry-prerender.tsx';

/**
 * One source for the agency's identity and the offers (decision 106), through the running product:
 * the prerendered pages (here the home page as the prerender renders it, with its plan cards, and
 * the real copy of the legal notice: tokens in place) are served with the configured identity, and with the prices of the
 * plans the app offers, following the staff's pay-in-full setting without a restart.
 */
const content = loadContent();
const shell = (html: string) =>
  `<!doctype html><html lang="fr"><head><meta name="site-values" content="${SITE_VALUES_PLACEHOLDER}" /></head><body><div id="app">${html}</div></body></html>`;
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('public pages and the app show the same offers, and the configured agency', () => {
  let dir: string;
  let product: Awaited<ReturnType<typeof startTestProduct>>;
  beforeAll(async () => {
    dir = writeBuiltSite('union-offers-', {
      'index.html': shell((await renderPage('/')).html),
      'mentions-legales/index.html': shell(content.get('pages', 'mentions-legales', false)?.html ?? ''),
      'spa.html': shell(''),
      '404.html': shell(''),
      'sitemap.xml': '<urlset/>',
      'robots.txt': '',
      'prerender-manifest.json': JSON.stringify({
        pages: ['/', '/mentions-legales'],
        prerenderedPatterns: ['/', '/mentions-legales'],
        spaRoutes: [],
      }),
    });
    product = await startTestProduct({
      env: { AGENCY_ADDRESS: '12 rue des Lilas, 69003 Lyon', AGENCY_LEGAL_NAME: 'Union Sincère SAS' },
      clientDir: dir,
    });
  });
  afterAll(async () => {
    await product.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const page = async (path: string) => plain(await (await product.agent().request('GET', path)).text());
  const offers = async () =>
    (await (await product.agent().request('GET', '/api/v1/subscription/offers')).json()) as { plans: Plan[]; payInFull: string };
  const inFullPrices = (plans: Plan[]) =>
    plans.filter((plan) => plan.type !== 'monthly').map((plan) => plain(formatPrice(plan.totalCents)));

  it('names the configured agency, never a placeholder', async () => {
    const legal = await page('/mentions-legales');
    expect(legal).toContain('<strong>Union Sincère SAS</strong>');
    expect(legal).toContain('siège social : 12 rue des Lilas, 69003 Lyon');
    expect(legal).not.toMatch(PLACEHOLDER_PATTERN);
    expect(legal).not.toContain('{{');
  });

  it('quotes the pay-in-full prices the app offers, before and after staff change the setting', async () => {
    const before = await offers();
    expect(before.payInFull).toBe('cash');
    const home = await page('/');
    for (const price of inFullPrices(before.plans)) expect(home).toContain(`${price} en une seule fois`);
    expect(home).not.toContain('513 €');

    await writePayInFull(product.database.db, 'cashback', new Date());
    const after = await offers();
    expect(after.payInFull).toBe('cashback');
    // Every instance re-reads the setting within a few seconds (watchPayInFull).
    let discounted = home;
    for (let i = 0; i < 60 && discounted === home; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      discounted = await page('/');
    }
    for (const price of inFullPrices(after.plans)) expect(discounted).toContain(`${price} en une seule fois`);
    expect(discounted).toContain('513 € en une seule fois');
    // Compared with the same plan's instalments, offered at the same time (decision 195), never « au lieu de ».
    expect(discounted).toContain('10 % de moins que les 6 mensualités, qui font 570 €');
    expect(discounted).not.toContain('au lieu de');
  }, 15_000);

  it('follows a staff change through the dashboard at once on this instance', async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    const set = await staff.agent.request('PUT', '/api/v1/dashboard/settings/plans', { payInFull: 'cash' });
    expect(set.status).toBe(200);
    const home = await page('/');
    expect(home).toContain('570 € en une seule fois');
    expect(home).not.toContain('513 €');
    expect(inFullPrices((await offers()).plans)).toEqual(['570 €', '1 020 €']);
  });
});
