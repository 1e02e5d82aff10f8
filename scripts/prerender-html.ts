import Beasties from 'beasties';

/**
 * The HTML transforms of a prerendered page (decisions 092, 115), for `prerender.ts`: scripts
 * after the content, stylesheets inlined and cut down to the page's critical rules, their links
 * `disabled` for the SPA to switch on, and preloaded in a signed-in page's shell.
 */

/**
 * The page's scripts (`<script type="module">` and its `modulepreload` links) at the end of
 * `<body>`: they run after parsing anyway, and the browser then paints the page's HTML without
 * waiting for their requests (the first paint of a prerendered page needs no JavaScript).
 */
export function scriptsAfterContent(html: string): string {
  const scripts: string[] = [];
  const head = html.replace(/\s*<link rel="modulepreload"[^>]*>|\s*<script type="module"[^>]*><\/script>/g, (tag) => {
    scripts.push(tag.trim());
    return '';
  });
  return head.replace(/\s*<\/body>/, `\n    ${scripts.join('\n    ')}\n  </body>`);
}

/**
 * The page's stylesheets inlined (`<style>`: the CSP allows inline styles, not inline scripts), so
 * that the first paint waits for no CSS request. Each stays named by a `disabled` link, which the
 * browser does not fetch until the SPA switches it on (`criticalStylesheets` below, decision 092),
 * and which tells Vite's preloader, on a later client-side navigation, that the file is already
 * there (it would otherwise add it a second time).
 */
/** Every stylesheet link `disabled`: named for the SPA to switch on, not blocking the first paint. */
export function deferredStylesheets(html: string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)"\s*\/?>/g, (_tag, file: string) => {
    return `<link rel="stylesheet" crossorigin href="/${file}" disabled />`;
  });
}

/**
 * A signed-in page's shell fetches its `disabled` stylesheets with the page (`preload`), not once
 * the SPA has started and switches them on: the SPA draws the page over the shell only once they
 * are applied, and their requests would otherwise start after every script (one more round trip
 * before the page's first real paint). They still do not block the shell's first paint.
 */
export function preloadedStylesheets(html: string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)" disabled \/>/g, (tag, file: string) => {
    return `<link rel="preload" as="style" crossorigin href="/${file}" />${tag}`;
  });
}

export function inlineStylesheets(html: string, readCss: (file: string) => string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)"\s*\/?>/g, (_tag, file: string) => {
    const css = readCss(file).trim().replaceAll('</style', '<\\/style');
    return `<style>${css}</style><link rel="stylesheet" crossorigin href="/${file}" disabled />`;
  });
}

const INLINE_STYLE = /<style>([\s\S]*?)<\/style>/g;

/**
 * The inlined stylesheets cut down to the rules the page's own HTML uses (decision 092): beasties
 * matches every selector against the document (media queries, keyframes and `:hover`-like states
 * of the elements present are kept). Only the `<style>` contents are taken from its output; the
 * rest of the page stays byte for byte as React rendered it. The full stylesheets, still named by
 * their `disabled` links, are switched on by the SPA as it starts (`src/lib/full-stylesheets.ts`),
 * before any state or route can show an element this page does not have.
 */
export async function criticalStylesheets(html: string, beasties: Pick<Beasties, 'process'>): Promise<string> {
  // Each `<style>` numbered, so that one beasties empties (and removes) is told from the others.
  let count = 0;
  const numbered = html.replace(/<style>/g, () => `<style data-critical="${count++}">`);
  const critical = new Map<string, string>();
  for (const match of (await beasties.process(numbered)).matchAll(/<style data-critical="(\d+)">([\s\S]*?)<\/style>/g))
    critical.set(match[1] ?? '', match[2] ?? '');
  let index = 0;
  return html.replace(INLINE_STYLE, () => {
    const css = critical.get(String(index++));
    return css ? `<style>${css}</style>` : '';
  });
}

export function pageBeasties() {
  return new Beasties({ external: false, reduceInlineStyles: true, mergeStylesheets: false, fonts: false, logLevel: 'warn' });
}
