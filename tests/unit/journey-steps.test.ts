import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentRoutes } from '#bff/api/public-routes.ts';
import { loadContent } from '#bff/content/content-store.ts';
import { steps } from '#machines/onboarding/steps.ts';
import { renderPage } from '#src/entry-prerender.tsx';

/**
 * The journey's steps, wherever the public site tells them, are the member area's: the same
 * number, in the same order, under the same names (issue 65, decision 198). The copy quotes
 * them through `{{etape.<id>}}` tokens, filled from the onboarding chart's `steps`; this reads
 * the prerendered pages, so a page that numbers the journey by hand (six, ten or eleven steps, as
 * it once did) fails here.
 */
const pages = [
  '/',
  '/inscription-agence-matrimoniale-musulmane',
  '/inscription-agence-matrimoniale-musulmane/pour-les-femmes',
  '/inscription-agence-matrimoniale-musulmane/pour-les-hommes',
  '/pre-inscription/merci',
  '/blog/notre-accompagnement-etape-par-etape',
];

const text = (html: string) =>
  html
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, '’')
    .replace(/[\u202f\u00a0\s]+/g, ' ');

/** Where each step title shows as a step (a card's or heading's title, a list item's lead), in page order. */
function stepTitlesIn(html: string): string[] {
  const found: { at: number; title: string }[] = [];
  for (const step of steps) {
    const pattern = new RegExp(`<(h2|h3|strong)[^>]*>(?:${step.number}\\. )?${step.title}</\\1>`, 'g');
    for (const match of html.matchAll(pattern)) found.push({ at: match.index, title: step.title });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.title);
}

// The blog article's loader asks the content API, answered in-process as the prerender does.
const realFetch = globalThis.fetch;
beforeAll(() => {
  const content = contentRoutes(undefined, loadContent());
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://prerender.invalid');
    return content.request(`${url.pathname.slice('/api/v1'.length)}${url.search}`, init);
  }) as typeof fetch;
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

describe('the journey told by the public site is the chart’s', () => {
  it.each(pages)(
    '%s names every step of the chart, once, in order',
    async (path) => {
      const page = await renderPage(path);
      expect(page.status).toBe(200);
      expect(stepTitlesIn(page.html)).toEqual(steps.map((step) => step.title));
      expect(page.html, 'a token left unfilled').not.toMatch(/\{\{etapes?\./);
      const plain = text(page.html);
      expect(plain, 'the number of steps said in words').not.toMatch(/\b(six|dix|onze) étapes\b/i);
      expect(plain, 'no step numbered past the chart').not.toMatch(new RegExp(`Étape ${steps.length + 1}\\b`));
    },
    60_000,
  );
});
