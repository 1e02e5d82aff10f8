/**
 * `{{name}}` tokens of the site's copy (decision 106), filled in by the server as it serves a page
 * and by the browser as it renders the copy itself. No import: the public pages' bundle stays small.
 */

export const TOKEN_PATTERN = /\{\{([a-z][a-z0-9.-]*)\}\}/g;

export type SiteValues = Record<string, string>;

export const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The text with each known token replaced by its value, passed through `encode` (escapeHtml for
 * HTML, nothing for text); unknown tokens stay as they are (a test lists them in content/).
 */
export function fillTokens(text: string, values: SiteValues, encode: (value: string) => string = (value) => value): string {
  if (!text.includes('{{')) return text;
  return text.replace(TOKEN_PATTERN, (token, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    return value === undefined ? token : encode(value);
  });
}

/** The tokens a text uses. */
export function tokensOf(text: string): string[] {
  return [...text.matchAll(TOKEN_PATTERN)].map((match) => match[1] as string);
}
