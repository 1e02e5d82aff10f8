import { describe, expect, it } from 'vitest';
import { renderPage } from '#src/entry-prerender.tsx';

/** bff/site/site-files.ts's placeholder (src never imports the BFF; site-pages.test.ts checks the pair). */
const NOT_FOUND_PATH_PLACEHOLDER = '/__page-introuvable__';

/** The text a person reads: tags dropped, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('the 404 page (issue 21)', () => {
  it('is French, inside the site header and footer, with a way home and useful links', async () => {
    const page = await renderPage('/page-qui-n-existe-pas');
    expect(page.status).toBe(404);
    const text = textOf(page.html);
    expect(text).toContain('Page introuvable : /page-qui-n-existe-pas');
    expect(page.html).toMatch(/<h1[^>]*>Page introuvable<\/h1>/);
    expect(page.html).toMatch(/<a[^>]*href="\/"[^>]*>Retour à l’accueil<\/a>/);
    for (const href of [
      '/qui-sommes-nous',
      '/blog',
      '/contactez-agence-matrimoniale-musulmane',
      '/inscription-agence-matrimoniale-musulmane',
    ])
      expect(page.html).toContain(`href="${href}"`);
    expect(page.html).toMatch(/<header[\s>]/);
    expect(page.html).toMatch(/<footer[\s>]/);
    expect(text).toContain('Plan du site');
    expect(page.html).toMatch(/<main[^>]*id="contenu"/);
    expect(text).not.toMatch(/Not Found|Go back home|Page not found/);
  });

  it('renders the placeholder path the server replaces in 404.html', async () => {
    const page = await renderPage(NOT_FOUND_PATH_PLACEHOLDER);
    expect(page.status).toBe(404);
    expect(page.html).toContain(`Page introuvable : ${NOT_FOUND_PATH_PLACEHOLDER}`);
  });
});
