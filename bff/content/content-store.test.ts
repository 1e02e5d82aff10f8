import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent, pagePaths } from '#bff/content/content-store.ts';
import { ContentError, renderMarkdown, slugify } from '#bff/content/markdown.ts';

describe('the site content (content/)', () => {
  const store = loadContent();

  it('has every page of the site, each with a title, a description and a heading', () => {
    const pages = store.list('pages', false);
    expect(pages.map((p) => p.slug).sort()).toEqual(Object.keys(pagePaths).sort());
    for (const page of pages) {
      expect(page.title.length, page.slug).toBeGreaterThan(10);
      expect(page.description.length, page.slug).toBeGreaterThanOrEqual(50);
      expect(page.description.length, page.slug).toBeLessThanOrEqual(170);
      expect(page.heading).toBeTruthy();
    }
  });

  it('has at least four published articles, newest first, with local covers and alt texts; drafts hidden', () => {
    const published = store.list('blog', false);
    expect(published.length).toBeGreaterThanOrEqual(4);
    expect(published.every((a) => !a.draft && a.cover?.startsWith('/images/') && (a.coverAlt ?? '').length > 10)).toBe(true);
    const all = store.list('blog', true);
    expect(all.length).toBeGreaterThan(published.length);
    expect(store.get('blog', 'erreurs-a-eviter-sur-les-sites-matrimoniaux', false)).toBeUndefined();
    expect(store.get('blog', 'erreurs-a-eviter-sur-les-sites-matrimoniaux', true)?.draft).toBe(true);
  });

  it('renders Markdown without leaving Markdown syntax in the HTML', () => {
    const doc = store.get('pages', 'accueil', false);
    const terms = store.get('pages', 'conditions-generales-de-vente', false);
    expect(doc?.html).toContain('<h2 id="une-agence-pensee-pour-le-mariage-et-seulement-pour-le-mariage">');
    // Prices are tokens, filled in at serve time (decision 106): the Markdown around one is rendered,
    // the token itself is left intact, inside a table cell too.
    expect(terms?.html).toContain('<strong>{{frais-de-dossier}} TTC</strong>');
    expect(terms?.html).toMatch(/<td>{{horizon\.nom}}<\/td>/);
    expect(terms?.html).not.toContain('**');
    expect(doc?.html).not.toMatch(/^#+ /m);
    expect(doc?.html).not.toContain('**');
  });
});

describe('markdown', () => {
  it('gives headings anchor ids and opens external links safely', () => {
    const html = renderMarkdown('## Frais de dossier\n\n[site](https://example.org) et [page](/blog)');
    expect(html).toContain('<h2 id="frais-de-dossier">Frais de dossier</h2>');
    expect(html).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">site</a>');
    expect(html).toContain('<a href="/blog">page</a>');
  });

  it('slugifies French headings', () => {
    expect(slugify('L’entretien d’accueil : « 15 minutes »')).toBe('l-entretien-d-accueil-15-minutes');
    expect(slugify('Sérénité & <em>Horizon</em>')).toBe('serenite-horizon');
  });
});

describe('content validation', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function contentDir(blog: string) {
    dir = mkdtempSync(join(tmpdir(), 'union-content-'));
    mkdirSync(join(dir, 'blog'));
    mkdirSync(join(dir, 'pages'));
    writeFileSync(join(dir, 'blog', 'article.md'), blog);
    return dir;
  }

  it('stops with the file and the field when the front matter is wrong', () => {
    const bad = contentDir(
      '---\ntitle: "Titre"\ndescription: "Une description"\ndate: 2026-01-15\ncover: "/images/x.svg"\ncoverAlt: "Alt"\n---\nTexte',
    );
    expect(() => loadContent(bad)).toThrow(ContentError);
    expect(() => loadContent(bad)).toThrow(/blog\/article\.md.*date/);
  });

  it('refuses a cover that is not a local image', () => {
    const bad = contentDir(
      '---\ntitle: "T"\ndescription: "D"\ndate: "2026-01-15"\ncover: "https://example.org/x.png"\ncoverAlt: "Alt"\n---\nTexte',
    );
    expect(() => loadContent(bad)).toThrow(/cover/);
  });
});
