import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzipSync } from 'node:zlib';
import { DEFAULT_PAY_IN_FULL } from '#bff/onboarding/plan-settings.ts';
import { type PayInFullSetting, payInFullSettings } from '#machines/onboarding/plans.ts';
import { type AgencyIdentity, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { escapeHtml as escapeValue, fillTokens } from '#machines/public-site/fill-tokens.ts';
import { type SocialLinks, siteValues } from '#machines/public-site/site-tokens.ts';
import { withoutEmptySocialLinks } from '#machines/public-site/social-links.ts';

/**
 * The built site read once at start-up (decision 040), for `site-pages.ts`: the prerendered pages
 * with the public address and the tokens' values in place, one version per pay-in-full setting
 * (decision 106), the signed-in pages' shells, and each page's HTML compressed once (decisions
 * 060, 092). Also the prerender manifest's shape and the placeholders `scripts/prerender.ts` writes.
 */

const brotli = promisify(brotliCompress);

export const SITE_URL_PLACEHOLDER = '__PUBLIC_SITE_URL__';
/** The path rendered into `404.html`, replaced by the requested path. */
export const NOT_FOUND_PATH_PLACEHOLDER = '/__page-introuvable__';
/** `<meta name="site-values" content="…">`: the tokens' values as JSON, for the browser (decision 106). */
export const SITE_VALUES_PLACEHOLDER = '__SITE_VALUES__';

export interface PrerenderManifest {
  /** Every prerendered path (`/`, `/blog`, `/blog/<slug>`…). */
  pages: string[];
  /** Route patterns whose every valid path is prerendered: other paths under them are 404. */
  prerenderedPatterns: string[];
  /** Route patterns rendered in the browser only (`/connexion`, `/dashboard/member/$memberId`…). */
  spaRoutes: string[];
  /**
   * The shell of each of those patterns (`spa/<pattern>.html`): `spa.html` plus the stylesheets and
   * module preloads of that route's chunks, so that a signed-in page fetches its code at once
   * instead of after the router's first pass (decision 115). Static patterns first.
   */
  spaShells?: { pattern: string; file: string; data?: string[] }[];
}

export interface SitePagesOptions {
  clientDir: string;
  publicSiteUrl: string;
  /** The agency's identity printed on the pages (the demo identity when absent). */
  agency?: AgencyIdentity | undefined;
  /** The agency's pages on the social networks (the footer hides a network without one). */
  social?: SocialLinks | undefined;
}

export const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `/dashboard/member/$memberId` → a RegExp matching `/dashboard/member/<anything but />`. */
export function routePatternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .map((segment) => {
      if (segment === '$') return '.*';
      if (segment.startsWith('$')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source === '' ? '/' : source}$`);
}

/**
 * The API answers a signed-in page asks for as it opens (`data` of its shell, with the route's
 * parameters: `/api/v1/dashboard/members/$memberId`), filled in from the path asked for, as one
 * `Link` header: the browser fetches them with the page's code instead of once that code has run
 * (decision 135), and the page's own request takes the answer. Null when the pattern has none, or
 * when a parameter is not a plain id (nothing else is ever put into the header).
 */
export function dataPreloadLink(pattern: string, data: readonly string[] | undefined, path: string): string | null {
  if (!data || data.length === 0) return null;
  const names = pattern.split('/');
  const values = path.split('/');
  if (names.length !== values.length) return null;
  const params = new Map<string, string>();
  for (const [index, name] of names.entries()) {
    if (!name.startsWith('$')) continue;
    const value = values[index] ?? '';
    if (!/^[A-Za-z0-9-]{1,64}$/.test(value)) return null;
    params.set(name, value);
  }
  const urls = data.map((url) => url.replace(/\$[A-Za-z]+/g, (name) => params.get(name) ?? name));
  if (urls.some((url) => url.includes('$'))) return null;
  return urls.map((url) => `<${url}>; rel=preload; as=fetch; crossorigin`).join(', ');
}

function readManifest(clientDir: string): PrerenderManifest | null {
  const file = join(clientDir, 'prerender-manifest.json');
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as PrerenderManifest;
}

function pageFile(clientDir: string, path: string): string {
  return path === '/' ? join(clientDir, 'index.html') : join(clientDir, ...path.slice(1).split('/'), 'index.html');
}

/** The built site, read once at start-up: for the page middleware and the site's routes. */
export interface SiteFiles {
  clientDir: string;
  manifest: PrerenderManifest | null;
  /** Prerendered pages by exact path, the public address and the tokens' values in place (current setting). */
  readonly pages: Map<string, string>;
  readonly spaHtml: string;
  /** The shell of the route rendering `path` (its chunks preloaded), else `spaHtml`. */
  spaHtmlFor(path: string): string;
  /** The `Link` header naming the API answers the page at `path` asks for as it opens, if any. */
  spaDataLinkFor(path: string): string | null;
  readonly notFoundHtml: string;
  /** The staff's pay-in-full setting the pages show now. */
  readonly payInFull: PayInFullSetting;
  /** Shows the pages of this setting from now on (bff/onboarding/plan-settings.ts `watchPayInFull`). */
  setPayInFull(setting: PayInFullSetting): void;
  generated: Map<string, { body: string; type: string }>;
  /** The answer to a page's HTML: compressed once, brotli or gzip, as the client accepts (decisions 060, 092). */
  htmlAnswer(text: string, acceptEncoding: string | undefined): HtmlAnswer;
  /** Resolves when the brotli versions begun so far are made (tests). */
  compressed(): Promise<void>;
}

export interface HtmlAnswer {
  /** The encoded bytes, made once (a Uint8Array takes @hono/node-server's direct path). */
  body: Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}

const bytesOf = (body: Buffer) => new Uint8Array(body.buffer, body.byteOffset, body.byteLength) as Uint8Array<ArrayBuffer>;

// Content-Length given, so that a HEAD answer (no body) still says it.
const compressedAnswer = (body: Buffer, plain: HtmlAnswer, coding: 'br' | 'gzip'): HtmlAnswer => ({
  body: bytesOf(body),
  headers: { ...plain.headers, 'Content-Encoding': coding, 'Content-Length': String(body.byteLength) },
});

interface PageSet {
  pages: Map<string, string>;
  spaHtml: string;
  /** By `spaShells` order: the first matching pattern wins. */
  shells: { pattern: RegExp; html: string; source: string; data?: string[] | undefined }[];
  notFoundHtml: string;
}

export function loadSiteFiles({ clientDir, publicSiteUrl, agency = DEMO_AGENCY_IDENTITY, social = {} }: SitePagesOptions): SiteFiles {
  const site = publicSiteUrl.replace(/\/+$/, '');
  const withSite = (text: string) => text.replaceAll(SITE_URL_PLACEHOLDER, escapeHtml(site));
  const manifest = readManifest(clientDir);
  const generated = new Map<string, { body: string; type: string }>();
  const variants = new Map<PayInFullSetting, PageSet>();
  if (manifest) {
    const files = new Map(manifest.pages.map((path) => [path, withSite(readFileSync(pageFile(clientDir, path), 'utf8'))]));
    const spa = withSite(readFileSync(join(clientDir, 'spa.html'), 'utf8'));
    const shells = (manifest.spaShells ?? []).map(({ pattern, file, data }) => ({
      pattern: routePatternToRegExp(pattern),
      source: pattern,
      data,
      html: withSite(readFileSync(join(clientDir, file), 'utf8')),
    }));
    const notFound = withSite(readFileSync(join(clientDir, '404.html'), 'utf8'));
    for (const setting of payInFullSettings) {
      const values = siteValues(agency, setting, social);
      const filled = (text: string) =>
        withoutEmptySocialLinks(
          fillTokens(text.replaceAll(SITE_VALUES_PLACEHOLDER, escapeHtml(JSON.stringify(values))), values, escapeValue),
          values,
        );
      variants.set(setting, {
        pages: new Map([...files].map(([path, text]) => [path, filled(text)])),
        spaHtml: filled(spa),
        shells: shells.map((shell) => ({ ...shell, html: filled(shell.html) })),
        notFoundHtml: filled(notFound),
      });
    }
    generated.set('/sitemap.xml', {
      body: withSite(readFileSync(join(clientDir, 'sitemap.xml'), 'utf8')),
      type: 'application/xml; charset=utf-8',
    });
    generated.set('/robots.txt', {
      body: withSite(readFileSync(join(clientDir, 'robots.txt'), 'utf8')),
      type: 'text/plain; charset=utf-8',
    });
  } else {
    // A plain `vite build` has no prerendered values: give the browser the tokens' values all the same.
    const index = readFileSync(join(clientDir, 'index.html'), 'utf8');
    for (const setting of payInFullSettings) {
      const meta = `<meta name="site-values" content="${escapeHtml(JSON.stringify(siteValues(agency, setting, social)))}" />`;
      const spaHtml = index.includes('name="site-values"') ? index : index.replace(/<\/head>/, `  ${meta}\n  </head>`);
      variants.set(setting, { pages: new Map(), spaHtml, shells: [], notFoundHtml: spaHtml });
    }
  }
  let payInFull: PayInFullSetting = DEFAULT_PAY_IN_FULL;
  let current = variants.get(payInFull) as PageSet;

  // Pages are fixed once loaded: compress each once (decision 060) instead of streaming it through
  // `compress()` on every request, the largest cost of serving a page in the benchmark.
  // A Uint8Array body takes @hono/node-server's fast path (an ArrayBuffer is streamed: 2× slower).
  // gzip is made at the first request (≈ 1 ms); brotli at its best quality, 12 % smaller but
  // ≈ 30 ms a page, on libuv's threads after the first request that accepts it, which gets gzip
  // meanwhile (decision 092).
  const answers = new Map<string, { plain: HtmlAnswer; gzip?: HtmlAnswer; br?: HtmlAnswer; brotli?: Promise<void> }>();
  const pending = new Set<Promise<void>>();
  const htmlAnswer = (text: string, acceptEncoding: string | undefined): HtmlAnswer => {
    let known = answers.get(text);
    if (!known) {
      const headers = { 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' };
      const bytes = Buffer.from(text, 'utf8');
      known = { plain: { body: bytesOf(bytes), headers: { ...headers, 'Content-Length': String(bytes.byteLength) } } };
      answers.set(text, known);
    }
    const accepted = acceptedCodings(acceptEncoding);
    if (accepted.br) {
      if (known.br) return known.br;
      if (!known.brotli) {
        const entry = known;
        const made = brotli(text, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
            [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
          },
        })
          .then((body) => {
            entry.br = compressedAnswer(body, entry.plain, 'br');
          })
          // Out of memory or a closing process: the page stays served gzipped.
          .catch(() => undefined)
          .finally(() => pending.delete(made));
        pending.add(made);
        known.brotli = made;
      }
    }
    if (!accepted.gzip) return known.plain;
    known.gzip ??= compressedAnswer(gzipSync(text), known.plain, 'gzip');
    return known.gzip;
  };
  const compressed = async () => {
    while (pending.size > 0) await Promise.all(pending);
  };
  return {
    clientDir,
    manifest,
    get pages() {
      return current.pages;
    },
    get spaHtml() {
      return current.spaHtml;
    },
    spaHtmlFor(path) {
      return current.shells.find((shell) => shell.pattern.test(path))?.html ?? current.spaHtml;
    },
    spaDataLinkFor(path) {
      const shell = current.shells.find((candidate) => candidate.pattern.test(path));
      return shell ? dataPreloadLink(shell.source, shell.data, path) : null;
    },
    get notFoundHtml() {
      return current.notFoundHtml;
    },
    get payInFull() {
      return payInFull;
    },
    setPayInFull(setting) {
      payInFull = setting;
      current = variants.get(setting) as PageSet;
    },
    generated,
    htmlAnswer,
    compressed,
  };
}

/** Accept-Encoding values already read (a handful of browsers' values; bounded all the same). */
const codingsByHeader = new Map<string, { br: boolean; gzip: boolean }>();
const NONE = Object.freeze({ br: false, gzip: false });

/**
 * Whether a request's Accept-Encoding (RFC 9110 §12.5.3) accepts brotli and gzip: a coding listed
 * with `q=0` is refused, `*` stands for every coding not listed.
 */
export function acceptedCodings(header: string | undefined): Readonly<{ br: boolean; gzip: boolean }> {
  if (!header) return NONE;
  let known = codingsByHeader.get(header);
  if (known) return known;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.split(';');
    const q = parameters.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim().toLowerCase(), Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  known = Object.freeze({ br: accepts('br'), gzip: weights.has('x-gzip') && !weights.has('gzip') ? accepts('x-gzip') : accepts('gzip') });
  if (codingsByHeader.size >= 256) codingsByHeader.clear();
  codingsByHeader.set(header, known);
  return known;
}
