import type { SiteValues } from '#machines/public-site/fill-tokens.ts';

/**
 * The agency's pages on the social networks (decision 198): configuration (`SOCIAL_*_URL`,
 * bff/config.ts), never a network's home page; a network without an address is not shown.
 * No other import: the footer of every page reads it.
 */

/** The networks the footer can link to, in its order. */
export const socialNetworks = [
  { key: 'facebook', label: 'Facebook' },
  { key: 'instagram', label: 'Instagram' },
  { key: 'tiktok', label: 'TikTok' },
] as const;
export type SocialNetwork = (typeof socialNetworks)[number]['key'];

export type SocialLinks = Partial<Record<SocialNetwork, string>>;

/** Tokens `reseau.facebook`…: the page's address, or '' when none is configured. */
export function socialValues(social: SocialLinks): SiteValues {
  return Object.fromEntries(socialNetworks.map(({ key }) => [`reseau.${key}`, social[key] ?? '']));
}

/**
 * The prerendered HTML without the footer's links that have no address (`<li data-reseau="…">`
 * whose token was filled with ''), and without the whole block (`<div data-reseaux="">`) when no
 * network has one: what the browser renders from the same values.
 */
export function withoutEmptySocialLinks(html: string, values: SiteValues): string {
  if (!html.includes('data-reseaux=')) return html;
  const empty = socialNetworks.filter(({ key }) => !values[`reseau.${key}`]);
  if (empty.length === socialNetworks.length) return html.replace(/<div data-reseaux="">[\s\S]*?<\/ul><\/div>/, '');
  let result = html;
  for (const { key } of empty) result = result.replace(new RegExp(`<li data-reseau="${key}">[\\s\\S]*?</li>`), '');
  return result;
}
