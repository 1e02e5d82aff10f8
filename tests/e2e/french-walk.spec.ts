import { expect, type Page, test } from '@playwright/test';
import { CONSENT_VERSION } from '#machines/public-site/consent.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { englishWords, storedCodes } from '#tests/e2e/support/french-words.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';

/**
 * The French walk of the public site (issue 21): every page of the sitemap, and the 404 page, at
 * 390 px and 1440 px, as a visitor reads it once the page has finished loading (deferred parts
 * hydrated, lazy pictures fetched). It fails on a horizontal scroll, a console error or failed
 * request, an English interface word, or a stored code in what a person reads (text, alternative
 * texts, labels, placeholders); and it saves a full-page shot of each page at both widths.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

/** Everything a person reads on the page: its text, and the words assistive technology reads. */
async function readableText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = [...document.querySelectorAll('[alt], [aria-label], [placeholder], [title]')].flatMap((element) =>
      ['alt', 'aria-label', 'placeholder', 'title'].map((name) => element.getAttribute(name) ?? ''),
    );
    return [document.title, document.body.innerText, ...attributes].join('\n');
  });
}

/** Scrolls each picture into view and waits until it is drawn (or has failed), then back to the top. */
async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const image of [...document.images]) {
      image.scrollIntoView({ block: 'center' });
      await Promise.race([image.decode().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 15_000))]);
    }
    window.scrollTo(0, 0);
  });
}

async function walk(page: Page, path: string): Promise<void> {
  for (const size of WIDTHS) {
    await test.step(`${path} at ${size.width} px`, async () => {
      await page.setViewportSize(size);
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await scrollThrough(page);
      await page.waitForLoadState('networkidle');
      // Every picture, below the fold too, is drawn (raster ones come through the image endpoint).
      const broken = await page.evaluate(() =>
        [...document.images].filter((image) => !image.complete || image.naturalWidth === 0).map((image) => image.currentSrc || image.src),
      );
      expect(broken, `${path}: pictures that failed to load`).toEqual([]);
      const overflow = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
      }));
      expect(overflow.scrollWidth, `${path} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(overflow.viewport);
      const text = await readableText(page);
      expect(englishWords(text), `${path}: English words at ${size.width} px`).toEqual([]);
      expect(storedCodes(text), `${path}: stored codes at ${size.width} px`).toEqual([]);
    });
  }
}

/** A file name for a page's shots: `/` → `accueil`, `/blog/x` → `blog-x`. */
const shotName = (path: string) => (path === '/' ? 'accueil' : path.slice(1).replaceAll('/', '-'));

test.describe('French walk of the public site', () => {
  test.beforeEach(async ({ context }) => skipConsentBanner(context, CONSENT_VERSION));

  test('every page of the sitemap reads French at 390 px and 1440 px, without sideways scroll or console error', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    const sitemap = await (await request.get('/sitemap.xml')).text();
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] as string).pathname);
    expect(paths.length).toBeGreaterThanOrEqual(15);
    expect(paths).toContain('/');
    const errors = watchConsole(page);
    for (const path of paths) {
      await walk(page, path);
      await screenshots(page, shotName(path));
    }
    expect(errors).toEqual([]);
  });

  test('the 404 page reads French too, inside the site, still HTTP 404', async ({ page }) => {
    const errors = watchConsole(page, [404]);
    const response = await page.goto('/page-qui-n-existe-pas');
    expect(response?.status()).toBe(404);
    await walk(page, '/page-qui-n-existe-pas');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Page introuvable');
    await screenshots(page, '404');
    expect(errors).toEqual([]);
  });

  test('the home page uses the width of a desktop screen, and one column on a phone', async ({ page }) => {
    /** Columns of a list: how many distinct left edges its items have. */
    const columns = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((list) => new Set([...list.children].map((item) => Math.round(item.getBoundingClientRect().left))).size);
    const width = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => element.getBoundingClientRect().width);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const steps = 'section[aria-labelledby="home-steps"] ol';
    const plans = 'section[aria-labelledby="plans-title"] ul';
    expect(await columns(steps)).toBe(3);
    expect(await columns(plans)).toBe(3);
    expect(await columns('section[aria-label="Nos engagements"] ul')).toBe(4);
    // The sections span the content width (≈ 1200 px), not a 580 px text column.
    for (const list of [steps, plans, 'section[aria-labelledby="testimonials-title"] ul']) expect(await width(list)).toBeGreaterThan(1100);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await columns(steps)).toBe(1);
    expect(await columns(plans)).toBe(1);
  });

  test('the walk itself catches what it is for', async ({ page }) => {
    // A page with each fault, so that a walk that checks nothing cannot pass unnoticed.
    await page.setContent(
      '<html lang="fr"><body><p>Loading</p><p>Formule plan_serenity_month, région ile-de-france</p><input placeholder="Search..."><div style="width:2000px">large</div></body></html>',
    );
    await page.setViewportSize({ width: 390, height: 844 });
    const text = await readableText(page);
    expect(englishWords(text)).toEqual(['Loading', 'Search...']);
    expect(storedCodes(text)).toEqual(['plan_serenity_month', 'ile-de-france']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(true);
  });
});
