import { describe, expect, it } from 'vitest';
import { shellFilesOf } from './bundle-budget.ts';

/** A signed-in page's shell as scripts/prerender.ts writes it (spa/…html), shortened. */
const SHELL = `<!doctype html>
<html lang="fr">
  <head>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="preload" as="style" crossorigin href="/assets/site-A.css" /><link rel="stylesheet" crossorigin href="/assets/site-A.css" disabled />
    <link rel="preload" href="/api/v1/auth/session" as="fetch" crossorigin />
    <link rel="preload" as="style" crossorigin href="/assets/forms-B.css" /><link rel="stylesheet" crossorigin href="/assets/forms-B.css" disabled />
  </head>
  <body>
    <div id="app"><div data-shell class="app-shell"></div></div>
    <script type="module" crossorigin src="/assets/index-C.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/framework-D.js">
    <link rel="modulepreload" crossorigin href="/assets/staff-E.js" />
    <link rel="modulepreload" crossorigin href="/assets/staff-E.js" />
  </body>
</html>`;

describe('shellFilesOf (the files a shell names for its first paint, decision 159)', () => {
  it('counts the entry script, each modulepreload and each stylesheet once; not the icon, the data or the style preloads', () => {
    expect(shellFilesOf(SHELL).sort()).toEqual(
      ['assets/forms-B.css', 'assets/framework-D.js', 'assets/index-C.js', 'assets/site-A.css', 'assets/staff-E.js'].sort(),
    );
  });

  it('counts nothing in a page that names no file', () => {
    expect(shellFilesOf('<!doctype html><html lang="fr"><body><div id="app"></div></body></html>')).toEqual([]);
  });
});
