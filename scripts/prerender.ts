/**
 * Prerenders every public page to static HTML (decision 040): run after `vite build`.
 *
 *   node --import tsx scripts/prerender.ts [--out dist/client]
 *
 * 1. builds `src/entry-prerender.tsx` for Node with the same Vite config (routes, vanilla-extract,
 *    build-time content), into `dist/prerender/`;
 * 2. renders each public path with the real route tree on a memory history, its loaders fed by
 *    the content API in-process (no server, no network);
 * 3. writes `dist/client/<path>/index.html` with the page in `#app` and its title, description,
 *    canonical, `og:url` and Open Graph tags in `<head>`, plus the CSS and module preloads of the
 *    page's route chunks (no flash of unstyled content, no waterfall);
 * 4. writes `spa.html` (the shell for the member and staff areas), `404.html`, `sitemap.xml`,
 *    `robots.txt`, the Open Graph image `images/og-default.png`, and `prerender-manifest.json`
 *    that the server (`bff/site/site-files.ts`) reads to answer 404 to unknown paths.
 *
 * The public site address is not known at build time: pages hold `__PUBLIC_SITE_URL__`, which
 * the server replaces with `PUBLIC_SITE_URL` when it serves them. Likewise the agency's identity
 * and the offers: the copy's `{{…}}` tokens and `<meta name="site-values">` are filled in by the
 * server from the configuration and the staff's pay-in-full setting (decision 106).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  criticalStylesheets,
  deferredStylesheets,
  inlineStylesheets,
  pageBeasties,
  preloadedStylesheets,
  scriptsAfterContent,
} from './prerender-html.ts';
import { listRouteFiles, routeFilesFor } from './route-files.ts';
import sharp from 'sharp';
import { build } from 'vite';
import { contentRoutes } from '../bff/api/public-routes.ts';
import { loadContent } from '../bff/content/content-store.ts';
import {
  NOT_FOUND_PATH_PLACEHOLDER,
  type PrerenderManifest,
  SITE_URL_PLACEHOLDER,
  SITE_VALUES_PLACEHOLDER,
} from '../bff/site/site-files.ts';

const root = join(import.meta.dirname, '..');
/** `--out <dir>`: the client build to complete (default `dist/client`). */
const outFlag = process.argv.indexOf('--out');
const clientDir = resolve(outFlag > 0 && process.argv[outFlag + 1] ? (process.argv[outFlag + 1] as string) : join(root, 'dist', 'client'));
/** The Node build of the entry: inside the project so that its imports resolve from node_modules. */
const serverDir = join(root, 'node_modules', '.cache', 'union-prerender', String(process.pid));

/** The public pages (spec §2), then one page per published article. */
export const PUBLIC_PATHS = [
  '/',
  '/bio',
  '/blog',
  '/conditions-generales-de-vente',
  '/mentions-legales',
  '/politique-de-confidentialite',
  '/qui-sommes-nous',
  '/contactez-agence-matrimoniale-musulmane',
  '/formulaire-inscription',
  '/inscription-agence-matrimoniale-musulmane',
  '/inscription-agence-matrimoniale-musulmane/pour-les-femmes',
  '/inscription-agence-matrimoniale-musulmane/pour-les-hommes',
  '/pre-inscription/merci',
] as const;
const BLOG_ARTICLE_PATTERN = '/blog/$slug';

/**
 * What a signed-in page's shell paints before its JavaScript runs: the site's name and a loading
 * line, marked `data-shell` so that the SPA renders over it instead of hydrating it (src/main.tsx).
 */
const SHELL_MARKUP =
  '<div data-shell class="app-shell"><p class="app-shell-brand">Union Sincère</p><p class="app-shell-status" role="status">Chargement de votre espace…</p></div>';
/**
 * The shells' own rules. A framed step's shell (`renderShell`, decision 142) also has the page's
 * rules for its heading and introduction, inlined as a public page's are.
 */
const SHELL_STYLE =
  '<style>body{margin:0}.app-shell{max-width:72rem;margin:0 auto;padding:1rem 1.25rem;font-family:system-ui,sans-serif;color:#14532d}.app-shell-frame{padding-block:1rem}.app-shell-brand{margin:0 0 2rem;font-weight:700;font-size:1.25rem;color:#14532d}.app-shell-status{margin:0;color:#374151}.app-shell-frame .app-shell-status{margin-top:1.5rem}</style>';

interface ManifestChunk {
  file: string;
  src?: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}
type ViteManifest = Record<string, ManifestChunk>;

interface RenderedPage {
  path: string;
  status: number;
  html: string;
  meta: { title: string; description: string; path: string; noindex?: boolean } | null;
  routeIds: string[];
}
interface ServerEntry {
  renderPage(path: string): Promise<RenderedPage>;
  routePaths(): string[];
  renderShell(pattern: string): { html: string; title: string } | null;
  pageHeadTags(meta: NonNullable<RenderedPage['meta']>, base: string): string;
}

/** `src/routes/_default/blog/$slug.tsx?tsr-split=component` → `/_default/blog/$slug`. */
export function routeIdOfFile(src: string): string | null {
  const match = /^src\/routes\/(.+)\.tsx?(\?.*)?$/.exec(src);
  if (!match?.[1]) return null;
  const path = `/${match[1]}`;
  if (path === '/__root') return '__root__';
  if (path.endsWith('/route')) return path.slice(0, -'/route'.length) || '/';
  if (path.endsWith('/index')) return path.slice(0, -'index'.length);
  return path;
}

/**
 * The code a signed-in route's `beforeLoad` fetches before anything renders (src/lib/route-guards.ts,
 * src/lib/session.ts): dynamic imports, so that public pages do not carry them, but certain on the
 * member and staff areas. Their shells preload them with the route's chunks; otherwise each is one
 * more round trip after the router's first pass.
 */
function guardEntries(pattern: string): string[] {
  const session = ['src/lib/session-settings.ts', 'src/lib/guards.ts'];
  if (!(pattern === '/mon-compte' || pattern.startsWith('/mon-compte/'))) return session;
  // The home's and the steps' guards also fetch what the step guard imports (the onboarding's
  // state: the member's current step), one more round trip otherwise (`+dynamic`, `assetsOf`).
  const guard = 'src/features/onboarding/step-guard.ts';
  const withState = pattern === '/mon-compte' || pattern.startsWith('/mon-compte/inscription');
  return [...session, withState ? `${guard}+dynamic` : guard];
}

/**
 * The API answers a signed-in page asks for as it opens, with its route's parameters: the server
 * names them in a `Link: rel=preload` header of the page (`dataPreloadLink`, decision 135), so that
 * they are fetched with the page's code. The page must ask for them exactly so (same URL, a plain
 * GET with the session cookie) to take the preloaded answer.
 */
function dataEntries(pattern: string): string[] | undefined {
  // src/features/dashboard/member-page.tsx: the file's header and the file, asked at once (decision 209).
  if (pattern === '/dashboard/member/$memberId')
    return ['/api/v1/dashboard/members/$memberId/summary', '/api/v1/dashboard/members/$memberId'];
  return undefined;
}

/** CSS files and JS chunks a page's routes need (their chunks, everything they import, and `extra` manifest entries). */
function assetsOf(routeIds: string[], manifest: ViteManifest, extra: string[] = []): { css: string[]; js: string[] } {
  const css = new Set<string>();
  const js = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    if (key !== 'index.html') js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const wanted = new Set(routeIds);
  for (const [key, chunk] of Object.entries(manifest)) {
    const id = chunk.src ? routeIdOfFile(chunk.src) : null;
    if (id && wanted.has(id)) visit(key);
  }
  // `<module>+dynamic`: the module and the chunks it imports dynamically.
  for (const entry of extra) {
    const key = entry.replace(/\+dynamic$/, '');
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} n’est plus un module du build : mettez à jour guardEntries`);
    visit(key);
    if (entry !== key) for (const imported of chunk.dynamicImports ?? []) visit(imported);
  }
  const entry = manifest['index.html'];
  const entryCss = new Set(entry?.css ?? []);
  return { css: [...css].filter((file) => !entryCss.has(file)), js: [...js] };
}

/** The built `index.html` without its generic title and description. */
function baseTemplate(): string {
  const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
  if (!html.includes('<div id="app"></div>')) {
    throw new Error('dist/client/index.html n’est pas le gabarit vierge de Vite : relancez `vite build` avant le prérendu.');
  }
  return html.replace(/\s*<title>[\s\S]*?<\/title>/, '').replace(/\s*<meta\s+name="description"[\s\S]*?>/, '');
}

function pageHtml(template: string, head: string, app: string): string {
  const siteMeta = [
    `<meta name="public-site-url" content="${SITE_URL_PLACEHOLDER}" />`,
    `<meta name="site-values" content="${SITE_VALUES_PLACEHOLDER}" />`,
  ].join('\n    ');
  return template
    .replace(/\s*<\/head>/, `\n    ${siteMeta}\n    ${head}\n  </head>`)
    .replace('<div id="app"></div>', `<div id="app">${app}</div>`);
}

/** Stylesheets and module preloads of the page's chunks that the template does not load already. */
function assetTags(assets: { css: string[]; js: string[] }, template: string): string {
  const missing = (file: string) => !template.includes(`"/${file}"`);
  return [
    ...assets.css.filter(missing).map((file) => `<link rel="stylesheet" crossorigin href="/${file}" />`),
    ...assets.js.filter(missing).map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`),
  ].join('\n    ');
}

/** React 19 writes the route's `<title>`/`<meta>` where HeadContent renders them: the head has its own. */
function stripHoistables(html: string): string {
  return html
    .replace(/<title>[\s\S]*?<\/title>/g, '')
    .replace(/<meta [^>]*?\/?>/g, '')
    .replace(/<link rel="(?:canonical|icon)"[^>]*?\/?>/g, '');
}

function outputFile(path: string): string {
  return path === '/' ? join(clientDir, 'index.html') : join(clientDir, ...path.slice(1).split('/'), 'index.html');
}

function write(file: string, text: string) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function buildServerEntry(): Promise<ServerEntry> {
  rmSync(serverDir, { recursive: true, force: true });
  await build({
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      ssr: join(root, 'src', 'entry-prerender.tsx'),
      outDir: serverDir,
      emptyOutDir: true,
      copyPublicDir: false,
      manifest: false,
      rollupOptions: { output: { entryFileNames: 'entry-prerender.js' } },
    },
  });
  return (await import(pathToFileURL(join(serverDir, 'entry-prerender.js')).href)) as ServerEntry;
}

/** Loaders call `fetch('/api/v1/content/…')`: answered in-process by the content API. */
function serveContentInProcess() {
  const content = contentRoutes(undefined, loadContent());
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://prerender.invalid');
    if (!url.pathname.startsWith('/api/v1/content/')) throw new Error(`Requête interdite pendant le prérendu : ${url.pathname}`);
    return content.request(`${url.pathname.slice('/api/v1'.length)}${url.search}`, init);
  }) as typeof fetch;
}

async function writeOgImage() {
  const target = join(clientDir, 'images', 'og-default.png');
  mkdirSync(dirname(target), { recursive: true });
  await sharp(join(root, 'public', 'images', 'og-default.svg'), { density: 72 })
    .resize(1200, 630)
    .png({ compressionLevel: 9 })
    .toFile(target);
}

function sitemap(pages: RenderedPage[], dates: Map<string, string>): string {
  const urls = pages
    .filter((page) => page.meta && !page.meta.noindex)
    .map((page) => {
      const lastmod = dates.get(page.path);
      return `  <url><loc>${SITE_URL_PLACEHOLDER}${page.path === '/' ? '/' : page.path}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

const robots = `User-agent: *
Allow: /
Disallow: /mon-compte
Disallow: /dashboard
Disallow: /connexion
Disallow: /api/
Disallow: /pre-inscription/merci

Sitemap: ${SITE_URL_PLACEHOLDER}/sitemap.xml
`;

export async function prerender(): Promise<PrerenderManifest> {
  const started = Date.now();
  const manifest = JSON.parse(readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
  const template = baseTemplate();
  const cssCache = new Map<string, string>();
  const readCss = (file: string) => {
    let css = cssCache.get(file);
    if (css === undefined) {
      css = readFileSync(join(clientDir, file), 'utf8');
      cssCache.set(file, css);
    }
    return css;
  };
  const beasties = pageBeasties();
  const entry = await buildServerEntry();
  serveContentInProcess();

  const articles = loadContent().list('blog', false);
  const dates = new Map(articles.map((article) => [article.path, article.date ?? '']));
  const paths = [...PUBLIC_PATHS, ...articles.map((article) => article.path)];
  const pages: RenderedPage[] = [];
  for (const path of paths) {
    const page = await entry.renderPage(path);
    if (page.status !== 200 || !page.meta)
      throw new Error(`Prérendu de ${path} : statut ${page.status}${page.meta ? '' : ', sans usePageMeta'}`);
    if (page.meta.path !== path) throw new Error(`Prérendu de ${path} : usePageMeta annonce ${page.meta.path}`);
    const head = [entry.pageHeadTags(page.meta, SITE_URL_PLACEHOLDER), assetTags(assetsOf(page.routeIds, manifest), template)]
      .filter(Boolean)
      .join('\n    ');
    const html = inlineStylesheets(pageHtml(template, head, stripHoistables(page.html)), readCss);
    write(outputFile(path), scriptsAfterContent(await criticalStylesheets(html, beasties)));
    pages.push(page);
  }

  // Unknown paths: the error page, its path filled in by the server.
  const missing = await entry.renderPage(NOT_FOUND_PATH_PLACEHOLDER);
  if (missing.status !== 404) throw new Error(`La page d’erreur a le statut ${missing.status}`);
  const notFoundHead = [
    `<title>Page introuvable (404) — Union Sincère</title>`,
    `<meta name="robots" content="noindex" />`,
    assetTags(assetsOf(missing.routeIds, manifest), template),
  ].join('\n    ');
  const notFoundHtml = inlineStylesheets(pageHtml(template, notFoundHead, stripHoistables(missing.html)), readCss);
  write(join(clientDir, '404.html'), scriptsAfterContent(await criticalStylesheets(notFoundHtml, beasties)));

  // The member and staff areas render in the browser only: one shell, and the same shell per route
  // with that route's stylesheets and chunks preloaded (decision 115). Each paints the site's name
  // at once; the SPA replaces it when the page is ready.
  // The session answer is asked for with the page, not once the code has arrived: src/lib/session.ts
  // makes the same request (same URL, mode and credentials), which takes this one.
  const spaHead = (title: string) =>
    `<title>${title}</title>\n    <meta name="robots" content="noindex" />\n    ${SHELL_STYLE}\n    <link rel="preload" href="/api/v1/auth/session" as="fetch" crossorigin />`;
  // The shell's markup has its own few rules (SHELL_STYLE); the stylesheets load with the page
  // (`preload`) without holding the first paint back (`disabled`, switched on by the SPA as for the
  // public pages), the scripts come after the content. A framed step's shell has the rules its
  // heading and introduction use inlined, cut down as a public page's (decision 142).
  const shellHtml = async (head: string, frame: string | null = null) =>
    scriptsAfterContent(
      preloadedStylesheets(
        frame === null
          ? deferredStylesheets(pageHtml(template, head, SHELL_MARKUP))
          : await criticalStylesheets(inlineStylesheets(pageHtml(template, head, frame), readCss), beasties),
      ),
    );
  write(join(clientDir, 'spa.html'), await shellHtml(spaHead('Union Sincère')));
  const prerenderedPatterns = [...PUBLIC_PATHS, BLOG_ARTICLE_PATTERN];
  const spaRoutes = entry.routePaths().filter((path) => !prerenderedPatterns.includes(path));
  const routeFiles = listRouteFiles(join(root, 'src', 'routes'));
  const spaShells: { pattern: string; file: string; data?: string[] }[] = [];
  // Static patterns before those with parameters (`/dashboard/equipe` before `/dashboard/$x`).
  for (const pattern of [...spaRoutes].sort((a, b) => (a.match(/\$/g)?.length ?? 0) - (b.match(/\$/g)?.length ?? 0))) {
    const ids = routeFilesFor(pattern, routeFiles)
      .map((file) => routeIdOfFile(`src/routes/${file}`))
      .filter((id): id is string => id !== null);
    if (ids.length === 0) continue;
    const file = `spa/${pattern.replace(/^\/+/, '').replace(/[^a-zA-Z0-9-]+/g, '_') || 'index'}.html`;
    const assets = assetsOf(ids, manifest, guardEntries(pattern));
    const frame = entry.renderShell(pattern);
    write(
      join(clientDir, file),
      await shellHtml(`${spaHead(frame?.title ?? 'Union Sincère')}\n    ${assetTags(assets, template)}`, frame?.html),
    );
    const data = dataEntries(pattern);
    spaShells.push(data ? { pattern, file, data } : { pattern, file });
  }

  await writeOgImage();
  write(join(clientDir, 'sitemap.xml'), sitemap(pages, dates));
  write(join(clientDir, 'robots.txt'), robots);

  const result: PrerenderManifest = {
    pages: pages.map((page) => page.path),
    prerenderedPatterns,
    spaRoutes,
    spaShells,
  };
  write(join(clientDir, 'prerender-manifest.json'), `${JSON.stringify(result, null, 2)}\n`);
  rmSync(serverDir, { recursive: true, force: true });
  console.log(`Prérendu : ${pages.length} pages, 404.html, spa.html, sitemap.xml, robots.txt (${Date.now() - started} ms)`);
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  prerender().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
