import { describe, expect, it } from 'vitest';
import * as serverSide from '#bff/site/site-files.ts';
import { contentPlugin } from './vite-plugin-content.ts';
import { headEntries, pageHeadTags, SITE_URL_PLACEHOLDER } from '#src/features/public-site/page-meta.ts';
import { imageSrcSet, imageUrl } from '#src/features/public-site/responsive-image.tsx';
import { PUBLIC_PATHS, routeIdOfFile } from './prerender.ts';
import { criticalStylesheets, deferredStylesheets, inlineStylesheets, pageBeasties, preloadedStylesheets } from './prerender-html.ts';

describe('prerender', () => {
  it('maps route chunks to route ids', () => {
    expect(routeIdOfFile('src/routes/_default/blog/$slug.tsx?tsr-split=component')).toBe('/_default/blog/$slug');
    expect(routeIdOfFile('src/routes/_default/route.tsx?tsr-split=component')).toBe('/_default');
    expect(routeIdOfFile('src/routes/_default/index.tsx?tsr-split=component')).toBe('/_default/');
    expect(routeIdOfFile('src/routes/bio.tsx')).toBe('/bio');
    expect(routeIdOfFile('src/routes/__root.tsx')).toBe('__root__');
    expect(routeIdOfFile('src/features/x.tsx')).toBeNull();
  });

  it('covers every public page of the spec', () => {
    expect(PUBLIC_PATHS).toHaveLength(13);
    expect(PUBLIC_PATHS).toContain('/inscription-agence-matrimoniale-musulmane/pour-les-femmes');
  });

  it('uses the placeholder the server replaces', () => {
    expect(SITE_URL_PLACEHOLDER).toBe(serverSide.SITE_URL_PLACEHOLDER);
  });
});

describe('critical stylesheets (decision 092)', () => {
  const css = [
    ':root{--brand:#15803d}',
    '.used{color:var(--brand)}',
    '.used:hover{color:red}',
    '.unused{color:blue}',
    '@media (min-width:40em){.used{margin:0}.unused{margin:1px}}',
    '.panel[data-open=true]{position:fixed}',
  ].join('');
  const page = `<!doctype html><html lang="fr"><head><link rel="stylesheet" crossorigin href="/assets/site-abc.css"></head><body><p class="used">Salam ’ « texte »</p><div class="panel" data-open="false"></div></body></html>`;

  it('inlines only the rules the page uses, keeps its link disabled, and leaves the rest of the HTML as it was', async () => {
    const inlined = inlineStylesheets(page, () => css);
    expect(inlined).toContain('<link rel="stylesheet" crossorigin href="/assets/site-abc.css" disabled />');
    const critical = await criticalStylesheets(inlined, pageBeasties());
    const style = /<style>([\s\S]*?)<\/style>/.exec(critical)?.[1] ?? '';
    expect(style).toContain('.used{color:var(--brand)}');
    expect(style).toContain('.used:hover');
    expect(style).toContain('--brand');
    expect(style).toMatch(/@media \(min-width: ?40em\)\{\.used\{margin:0\}\}/);
    expect(style).not.toContain('.unused');
    expect(style).not.toContain('position:fixed');
    const withoutStyle = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, '<style></style>');
    expect(withoutStyle(critical)).toBe(withoutStyle(inlined));
  });

  it('drops a stylesheet none of whose rules the page uses, and keeps the others in their place', async () => {
    const files: Record<string, string> = { 'assets/a.css': '.unused{color:blue}', 'assets/b.css': '.used{color:red}' };
    const twoSheets = page.replace(
      /<link[^>]*>/,
      '<link rel="stylesheet" crossorigin href="/assets/a.css"><link rel="stylesheet" crossorigin href="/assets/b.css">',
    );
    const critical = await criticalStylesheets(
      inlineStylesheets(twoSheets, (file) => files[file] ?? ''),
      pageBeasties(),
    );
    expect(critical).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/a.css" disabled /><style>.used{color:red}</style><link rel="stylesheet" crossorigin href="/assets/b.css" disabled />',
    );
    expect(critical.match(/<style>/g)).toHaveLength(1);
  });
});

describe('signed-in shells (decisions 115, 135)', () => {
  it('fetch their stylesheets with the page, still switched off until the SPA applies them', () => {
    const html = deferredStylesheets('<link rel="stylesheet" crossorigin href="/assets/site-abc.css">');
    expect(preloadedStylesheets(html)).toBe(
      '<link rel="preload" as="style" crossorigin href="/assets/site-abc.css" /><link rel="stylesheet" crossorigin href="/assets/site-abc.css" disabled />',
    );
  });
});

describe('page head tags', () => {
  const meta = { title: 'Qui sommes-nous ? « L’agence »', description: 'Une "description" & plus', path: '/qui-sommes-nous' };

  it('sets canonical and og:url to the site address + path, with the default Open Graph image', () => {
    const entries = Object.fromEntries(headEntries(meta, 'https://www.union-sincere.fr').map((e) => [e.key, e.value]));
    expect(entries.canonical).toBe('https://www.union-sincere.fr/qui-sommes-nous');
    expect(entries['og:url']).toBe('https://www.union-sincere.fr/qui-sommes-nous');
    expect(entries['og:image']).toBe('https://www.union-sincere.fr/images/og-default.png');
    expect(entries.robots).toBe('index, follow');
    expect(Object.fromEntries(headEntries({ ...meta, noindex: true }, 'https://x.fr').map((e) => [e.key, e.value])).robots).toBe(
      'noindex, follow',
    );
  });

  it('escapes values in the prerendered HTML', () => {
    const html = pageHeadTags(meta, 'https://x.fr');
    expect(html.startsWith('<title>Qui sommes-nous ? « L’agence »</title>')).toBe(true);
    expect(html).toContain('<meta name="description" content="Une &quot;description&quot; &amp; plus" />');
  });
});

describe('responsive images', () => {
  it('asks the image endpoint for breakpoint widths up to twice the display width', () => {
    expect(imageUrl('/images/a.png', 640, 80)).toBe('/_image?url=%2Fimages%2Fa.png&w=640&q=80');
    const { src, srcSet } = imageSrcSet('/images/a.png', 400);
    expect(src).toBe('/_image?url=%2Fimages%2Fa.png&w=640');
    expect(srcSet.split(', ').map((entry) => entry.split(' ')[1])).toEqual(['320w', '640w', '768w']);
  });
});

describe('vite content plugin', () => {
  const plugin = contentPlugin();
  const context = {
    addWatchFile: () => {},
    error: (message: string) => {
      throw new Error(message);
    },
  };
  const load = (id: string) => (plugin.load as unknown as (this: typeof context, id: string) => string | null).call(context, `\0${id}`);

  it('gives each page its title, description, heading and HTML, with no Markdown left', () => {
    expect((plugin.resolveId as unknown as (id: string) => string | null)('virtual:content/pages/mentions-legales')).toBe(
      '\0virtual:content/pages/mentions-legales',
    );
    const code = load('virtual:content/pages/mentions-legales') ?? '';
    const page = JSON.parse(code.replace(/^export default /, '').replace(/;$/, '')) as Record<string, string>;
    expect(Object.keys(page).sort()).toEqual(['description', 'heading', 'html', 'title']);
    expect(page.heading).toBe('Mentions légales');
    expect(page.html).toContain('<h2 id="editeur-du-site">Éditeur du site</h2>');
  });

  it('validates the data files and refuses unknown names', () => {
    const faq = JSON.parse((load('virtual:content/data/faq') ?? '').replace(/^export default /, '').replace(/;$/, '')) as unknown[];
    expect(faq.length).toBeGreaterThan(5);
    expect(() => load('virtual:content/data/secrets')).toThrow(/inconnues/);
    expect(() => load('virtual:content/pages/../../package')).toThrow(/invalide/);
  });
});
