import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRoutes } from '#bff/api/public-routes.ts';
import { loadContent } from '#bff/content/content-store.ts';
import { activePlans, FILE_FEE_CENTS, type PayInFullSetting } from '#machines/onboarding/plans.ts';
import { DEMO_AGENCY_IDENTITY, PLACEHOLDER_PATTERN } from '#machines/public-site/agency-identity.ts';
import { escapeHtml, fillTokens } from '#machines/public-site/fill-tokens.ts';
import { offerValues, type SocialLinks, siteValues } from '#machines/public-site/site-tokens.ts';
import { withoutEmptySocialLinks } from '#machines/public-site/social-links.ts';
import { renderPage } from '#src/entry-prerender.tsx';
import { PUBLIC_PATHS } from '../../scripts/prerender.ts';

/**
 * Every public page as the prerender renders it (the real route tree, src/entry-prerender.tsx) and
 * as the server then serves it (tokens filled in, bff/site/site-pages.ts; decision 106): no
 * "[… à compléter]" placeholder, no token left, and no price that is not an active plan's.
 */
const articles = loadContent().list('blog', false);
const paths = [...PUBLIC_PATHS, ...articles.map((article) => article.path)];
const rendered = new Map<string, string>();
const realFetch = globalThis.fetch;

/** Every amount in euros a text quotes, in cents ("1 020 €" → 102000, "95,00 €" → 9500). */
function quotedCents(html: string): number[] {
  const text = html.replace(/[\u202f\u00a0]/g, ' ').replace(/<[^>]+>/g, ' ');
  return [...text.matchAll(/(\d{1,3}(?: \d{3})*)(?:,(\d{2}))? ?€/g)].map(
    (match) => Number((match[1] as string).replace(/ /g, '')) * 100 + Number(match[2] ?? 0),
  );
}

beforeAll(async () => {
  // The blog's loaders ask the content API: answered in-process, as during the prerender.
  const content = contentRoutes(undefined, loadContent());
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://prerender.invalid');
    return content.request(`${url.pathname.slice('/api/v1'.length)}${url.search}`, init);
  }) as typeof fetch;
  for (const path of paths) {
    const page = await renderPage(path);
    expect(page.status, path).toBe(200);
    rendered.set(path, page.html);
  }
}, 60_000);
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe('prerendered public pages (decision 106)', () => {
  it('hold no placeholder, and every token is filled in once served', () => {
    expect(rendered.size).toBe(paths.length);
    for (const [path, html] of rendered) {
      expect(html, path).not.toMatch(PLACEHOLDER_PATTERN);
      for (const setting of ['cash', 'cashback'] as const) {
        const served = fillTokens(html, siteValues(DEMO_AGENCY_IDENTITY, setting), escapeHtml);
        expect(served, path).not.toContain('{{');
        expect(served, path).not.toMatch(PLACEHOLDER_PATTERN);
      }
    }
    const legal = fillTokens(rendered.get('/mentions-legales') ?? '', siteValues(DEMO_AGENCY_IDENTITY, 'cash'), escapeHtml);
    expect(legal).toContain(escapeHtml(DEMO_AGENCY_IDENTITY.address));
    expect(legal).toContain('000 000 000 00000 (démonstration)');
  });

  it.each(['cash', 'cashback'] as PayInFullSetting[])('quote only the prices of the active plans (%s)', (setting) => {
    const allowed = new Set([
      FILE_FEE_CENTS,
      ...activePlans(setting).flatMap((plan) => [
        plan.priceCents,
        plan.totalCents,
        ...(plan.discount ? [plan.discount.originalPriceCents] : []),
      ]),
    ]);
    let quoted = 0;
    for (const [path, html] of rendered) {
      // No reference price struck or said « au lieu de »: there is no former price (decision 195).
      const served = fillTokens(html, siteValues(DEMO_AGENCY_IDENTITY, setting), escapeHtml);
      expect(served, path).not.toMatch(/au lieu de|<del/i);
      // Only the offers' tokens: the identity may quote a share capital.
      for (const cents of quotedCents(fillTokens(html, offerValues(setting), escapeHtml))) {
        quoted += 1;
        expect(allowed, `${path} quotes ${cents / 100} €, not a price of an active plan (${setting})`).toContain(cents);
      }
    }
    expect(quoted).toBeGreaterThan(20);
    // The registration pages' plan cards (decision 130: no price list left in their Markdown) quote the pay-in-full prices.
    const inFull = activePlans(setting)
      .filter((plan) => plan.type !== 'monthly')
      .map((plan) => plan.totalCents);
    for (const path of [
      '/inscription-agence-matrimoniale-musulmane',
      '/inscription-agence-matrimoniale-musulmane/pour-les-femmes',
      '/inscription-agence-matrimoniale-musulmane/pour-les-hommes',
    ]) {
      const served = fillTokens(rendered.get(path) ?? '', offerValues(setting), escapeHtml);
      expect(quotedCents(served), path).toEqual(expect.arrayContaining(inFull));
    }
  });
});

describe('the footer’s social links (decision 198)', () => {
  const served = (path: string, social: SocialLinks) => {
    const values = siteValues(DEMO_AGENCY_IDENTITY, 'cash', social);
    return withoutEmptySocialLinks(fillTokens(rendered.get(path) ?? '', values, escapeHtml), values);
  };

  it('are hidden, block and title, when none is configured', () => {
    for (const path of ['/', '/mentions-legales', '/blog']) {
      const html = served(path, {});
      expect(html, path).not.toContain('Suivez-nous');
      expect(html, path).not.toMatch(/facebook|instagram|tiktok/i);
      expect(html, path).not.toContain('data-reseau');
    }
  });

  it('link to the configured pages only, never to a network’s home page', () => {
    const html = served('/', { facebook: 'https://www.facebook.com/unionsincere', tiktok: 'https://www.tiktok.com/@unionsincere' });
    expect(html).toContain('Suivez-nous');
    expect(html).toContain('href="https://www.facebook.com/unionsincere"');
    expect(html).toContain('href="https://www.tiktok.com/@unionsincere"');
    expect(html).not.toMatch(/instagram/i);
    expect(html).not.toMatch(/href="https:\/\/www\.(facebook|instagram|tiktok)\.com\/"/);
  });
});
