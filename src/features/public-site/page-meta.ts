/**
 * Head tags of a public page: title, description, canonical link and Open Graph tags, with
 * canonical and `og:url` = public site address + path (spec §1, decisions §7).
 *
 * In the browser `usePageMeta` (use-page-meta.ts) writes them into `<head>` after each client-side
 * navigation, loading this module then. During the prerender (no `window`) it records them, and
 * the prerender writes the same tags into the HTML with `pageHeadTags` before any script runs.
 */

export interface PageMeta {
  title: string;
  description: string;
  /** Path of the page on the site, e.g. `/qui-sommes-nous`. */
  path: string;
  /** Site path or absolute URL of the Open Graph image (default: the site's). */
  image?: string;
  imageAlt?: string;
  type?: 'website' | 'article';
  /** Keep out of search engines (e.g. the thank-you page). */
  noindex?: boolean;
}

/** Replaced by the server with `PUBLIC_SITE_URL` in every HTML page it serves. */
export const SITE_URL_PLACEHOLDER = '__PUBLIC_SITE_URL__';
const DEFAULT_OG_IMAGE = '/images/og-default.png';
const DEFAULT_OG_IMAGE_ALT = 'Union Sincère, agence matrimoniale musulmane';
const SITE_NAME = 'Union Sincère';

/** The public site address: from the page's `<meta name="public-site-url">`, else the current origin. */
function siteUrl(): string {
  if (typeof document === 'undefined') return SITE_URL_PLACEHOLDER;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="public-site-url"]')?.content ?? '';
  if (/^https?:\/\/[^/]+/.test(meta)) return meta.replace(/\/+$/, '');
  return window.location.origin;
}

function absoluteUrl(pathOrUrl: string, base: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${base}${pathOrUrl}`;
}

/** Every tag, as [kind, key, value]: what the head must hold for `meta`. */
export function headEntries(
  meta: PageMeta,
  base: string,
): { tag: 'meta' | 'link'; attr: 'name' | 'property' | 'rel'; key: string; value: string }[] {
  const url = absoluteUrl(meta.path, base);
  const image = absoluteUrl(meta.image ?? DEFAULT_OG_IMAGE, base);
  return [
    { tag: 'meta', attr: 'name', key: 'description', value: meta.description },
    { tag: 'link', attr: 'rel', key: 'canonical', value: url },
    { tag: 'meta', attr: 'property', key: 'og:url', value: url },
    { tag: 'meta', attr: 'property', key: 'og:title', value: meta.title },
    { tag: 'meta', attr: 'property', key: 'og:description', value: meta.description },
    { tag: 'meta', attr: 'property', key: 'og:type', value: meta.type ?? 'website' },
    { tag: 'meta', attr: 'property', key: 'og:site_name', value: SITE_NAME },
    { tag: 'meta', attr: 'property', key: 'og:locale', value: 'fr_FR' },
    { tag: 'meta', attr: 'property', key: 'og:image', value: image },
    { tag: 'meta', attr: 'property', key: 'og:image:alt', value: meta.imageAlt ?? DEFAULT_OG_IMAGE_ALT },
    { tag: 'meta', attr: 'name', key: 'twitter:card', value: 'summary_large_image' },
    { tag: 'meta', attr: 'name', key: 'robots', value: meta.noindex ? 'noindex, follow' : 'index, follow' },
  ];
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The tags as HTML, for the prerendered pages (`<title>` first). */
export function pageHeadTags(meta: PageMeta, base: string): string {
  const tags = headEntries(meta, base).map(({ tag, attr, key, value }) =>
    tag === 'link' ? `<link ${attr}="${key}" href="${escapeHtml(value)}" />` : `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`,
  );
  return [`<title>${escapeHtml(meta.title)}</title>`, ...tags].join('\n    ');
}

/** Writes the tags into `document.head`, updating those already there. */
export function applyPageMeta(meta: PageMeta, base = siteUrl()): void {
  document.title = meta.title;
  for (const { tag, attr, key, value } of headEntries(meta, base)) {
    let element = document.head.querySelector<HTMLElement>(`${tag}[${attr}="${key}"]`);
    if (!element) {
      element = document.createElement(tag);
      element.setAttribute(attr, key);
      document.head.append(element);
    }
    element.setAttribute(tag === 'link' ? 'href' : 'content', value);
  }
}
