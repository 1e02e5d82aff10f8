/**
 * Where to go back to after sign-in. Only same-site relative paths are honoured: the value must
 * start with exactly one `/` (so `//evil.example` and `/\evil.example`, which browsers read as
 * protocol-relative URLs, are refused), carry no scheme, no control characters, and resolve to
 * this origin. Anything else gives `null` and the caller uses its default.
 */
const PLACEHOLDER_ORIGIN = 'https://same-site.invalid';

export function safeRedirect(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value.length === 0 || value.length > 2048) return null;
  if (!value.startsWith('/')) return null;
  // Second character `/` or `\` makes a protocol-relative URL in browsers.
  if (value[1] === '/' || value[1] === '\\') return null;
  // Control characters and white space: browsers strip some of them before parsing.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (/[\u0000-\u001f\u007f\s\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN) return null;
  // Dot segments can leave a protocol-relative path: `/..//evil.example` → `//evil.example`.
  if (url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `safeRedirect` with a fallback. */
export function redirectTarget(value: unknown, fallback: string): string {
  return safeRedirect(value) ?? fallback;
}
