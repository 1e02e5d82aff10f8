import { escapeHtml, fillTokens, type SiteValues } from '#machines/public-site/fill-tokens.ts';

/**
 * The values of the copy's `{{…}}` tokens (the agency's identity, the active offers: decision 106),
 * from the page's `<meta name="site-values">` that the server fills in. During the prerender there
 * is no document: the tokens stay in the HTML, and the server fills them in as it serves the page,
 * with the same values and the same escaping, so the browser's render matches the served HTML.
 */
let read: SiteValues | null | undefined;

function isValues(value: unknown): value is SiteValues {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

export function pageSiteValues(): SiteValues | null {
  if (typeof document === 'undefined') return null;
  if (read !== undefined) return read;
  read = null;
  const content = document.querySelector<HTMLMetaElement>('meta[name="site-values"]')?.content ?? '';
  if (content.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(content);
      if (isValues(parsed)) read = parsed;
    } catch {
      // A page without the server's values keeps its tokens.
    }
  }
  return read;
}

/** Text of the copy (a React text node), its tokens filled in when the page says their values. */
export function siteText(text: string): string {
  const values = pageSiteValues();
  return values ? fillTokens(text, values) : text;
}

/** HTML of the copy, its tokens filled in (escaped) when the page says their values. */
export function siteHtml(html: string): string {
  const values = pageSiteValues();
  return values ? fillTokens(html, values, escapeHtml) : html;
}
