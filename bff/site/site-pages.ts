import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import type { SecurityHeaderEntries } from '#bff/http/security-headers.ts';
import {
  escapeHtml,
  type HtmlAnswer,
  loadSiteFiles,
  NOT_FOUND_PATH_PLACEHOLDER,
  type PrerenderManifest,
  routePatternToRegExp,
  type SiteFiles,
  type SitePagesOptions,
} from '#bff/site/site-files.ts';

/**
 * Serves the built SPA (`dist/client`) with the right status codes (decision 040):
 * - a prerendered public page (`<path>/index.html`) → 200, its `__PUBLIC_SITE_URL__` replaced by
 *   the configured public address (canonical, `og:url`, sitemap), and its `{{…}}` tokens by the
 *   agency's identity and the active offers under the staff's pay-in-full setting (decision 106:
 *   one version of each page per setting, made at start; `setPayInFull` switches between them);
 * - a route of the member or staff areas (client-rendered) → 200 with `spa.html`;
 * - anything else, unknown blog articles included → 404 with the prerendered error page
 *   ('Page introuvable : {path}', in the site's layout);
 * - files: `/assets/*` cached for a year (hashed names), others briefly; text compressed (gzip).
 * Without `prerender-manifest.json` (a plain `vite build`), every page path gets `index.html`.
 */

/** Which answer a page path gets: a prerendered page, the SPA shell, or the 404 page. */
export function classifyPath(path: string, manifest: PrerenderManifest): 'page' | 'spa' | 'not-found' {
  if (manifest.pages.includes(path)) return 'page';
  if (manifest.spaRoutes.some((pattern) => routePatternToRegExp(pattern).test(path))) return 'spa';
  return 'not-found';
}

/** Sets Cache-Control on the file a later handler served (serveStatic's `onFound` runs too late to do it). */
function cacheFor(value: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status === 200 && !c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', value);
  };
}

/**
 * A prerendered public page asked for by its exact path (GET or HEAD), answered at once from
 * memory as a CDN would (decisions 091, 104, 133): the first middleware of the app and of the
 * starting gate. Its answer is stored whole, made once per page and encoding: the bytes,
 * compressed once, and every header, the security headers of its path included (from the same
 * `securityHeaders` entries as every other answer), as one plain object, which
 * @hono/node-server writes as it is (a `Headers` object would be rebuilt and sorted on every
 * request: 40 % of the page's cost in the benchmark). Anything else goes on down the chain, whose
 * next middleware adds the security headers.
 */
export function prerenderedPages(files: SiteFiles, securityHeaders: SecurityHeaderEntries): MiddlewareHandler {
  const stored = new WeakMap<HtmlAnswer, WeakMap<readonly (readonly [string, string])[], Record<string, string>>>();
  const headersOf = (answer: HtmlAnswer, security: readonly (readonly [string, string])[]) => {
    let bySecurity = stored.get(answer);
    if (!bySecurity) {
      bySecurity = new WeakMap();
      stored.set(answer, bySecurity);
    }
    let headers = bySecurity.get(security);
    if (!headers) {
      headers = Object.freeze({ ...Object.fromEntries(security), ...answer.headers });
      bySecurity.set(security, headers);
    }
    return headers;
  };
  return async (c, next) => {
    const text = files.manifest && (c.req.method === 'GET' || c.req.method === 'HEAD') ? files.pages.get(c.req.path) : undefined;
    if (text === undefined) return next();
    const answer = files.htmlAnswer(text, c.req.header('accept-encoding'));
    return new Response(answer.body, { status: 200, headers: headersOf(answer, securityHeaders(c.req.path)) });
  };
}

export interface SitePagesRoutes {
  /**
   * Whether this request's caller would be let through by the guard of the answers a shell names
   * in its Link header (decision 160: staff at aal2, for a member's file). Absent: never named.
   */
  mayPreloadData?: ((c: Context) => Promise<boolean>) | undefined;
}

export function sitePages(source: SiteFiles | SitePagesOptions, { mayPreloadData }: SitePagesRoutes = {}) {
  const files = 'htmlAnswer' in source ? source : loadSiteFiles(source);
  const { clientDir, manifest, generated } = files;
  const html = (c: Context, text: string, extra?: Record<string, string>) => {
    const answer = files.htmlAnswer(text, c.req.header('accept-encoding'));
    return c.body(answer.body, 200, extra ? { ...answer.headers, ...extra } : answer.headers);
  };
  /**
   * A shell whose page asks for API answers as it opens names them in a Link header, fetched with
   * the page (decision 135), but only to a caller their guard lets through (decision 160): to
   * anyone else they would answer 401 or 403 before the page's own guard sends them elsewhere. The
   * answer then depends on the session cookie, and says so (`Vary`).
   */
  const shell = async (c: Context, path: string) => {
    const text = files.spaHtmlFor(path);
    const link = files.spaDataLinkFor(c.req.path);
    if (link === null) return html(c, text);
    const named = mayPreloadData ? await mayPreloadData(c).catch(() => false) : false;
    return html(c, text, named ? { Vary: 'Accept-Encoding, Cookie', Link: link } : { Vary: 'Accept-Encoding, Cookie' });
  };

  const notFound = (c: Context, path: string) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(
      manifest ? files.notFoundHtml.replaceAll(NOT_FOUND_PATH_PLACEHOLDER, escapeHtml(path)) : files.spaHtml,
      manifest ? 404 : 200,
    );
  };

  const backOfficeNotFound = (c: Context) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(files.spaHtml, 404);
  };

  return (
    new Hono()
      // gzip for HTML, JS, CSS, SVG, XML (images are already compressed).
      .use('*', compress())
      .use('/assets/*', cacheFor('public, max-age=31536000, immutable'), serveStatic({ root: clientDir }))
      .get('*', async (c, next) => {
        let path: string;
        try {
          path = decodeURIComponent(c.req.path);
        } catch {
          return notFound(c, c.req.path);
        }
        const file = generated.get(path);
        if (file) {
          c.header('Cache-Control', 'public, max-age=3600');
          return c.body(file.body, 200, { 'Content-Type': file.type });
        }
        const last = path.slice(path.lastIndexOf('/') + 1);
        if (last.includes('.')) {
          // Files: never the raw HTML pages (placeholders), the build manifest or dotfiles.
          if (/\.html?$/i.test(last) || path.split('/').some((segment) => segment.startsWith('.')) || last === 'prerender-manifest.json') {
            if (path === '/index.html') return c.redirect('/', 301);
            return notFound(c, path);
          }
          return next();
        }
        if (path.length > 1 && path.endsWith('/')) {
          const query = c.req.url.includes('?') ? c.req.url.slice(c.req.url.indexOf('?')) : '';
          // From the raw (still encoded) path, with one leading slash: `//evil.example/` or
          // `/%5Cevil.example/` must never become a protocol-relative Location (open redirect).
          const target = `/${new URL(c.req.url).pathname.replace(/^[/\\]+/, '').replace(/\/+$/, '')}`;
          return c.redirect(`${target}${query}`, 301);
        }
        if (!manifest) return html(c, files.spaHtml);
        const kind = classifyPath(path, manifest);
        // An unknown back-office path: the application's shell, whose dashboard layout says
        // « Page introuvable » (issue 63), with the status of a missing page.
        if (kind === 'not-found' && path.startsWith('/dashboard/')) return backOfficeNotFound(c);
        if (kind === 'not-found') return notFound(c, path);
        if (kind === 'page') return html(c, files.pages.get(path) as string);
        return shell(c, path);
      })
      // The build id the SPA polls must never come from a cache.
      .use('/version.json', async (c, next) => {
        await next();
        if (c.res.status === 200) c.res.headers.set('Cache-Control', 'no-cache');
      })
      .use('*', cacheFor('public, max-age=3600'), serveStatic({ root: clientDir }))
      .get('*', (c) => notFound(c, c.req.path))
  );
}
