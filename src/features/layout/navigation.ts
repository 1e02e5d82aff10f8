import type { FileRoutesByTo } from '#src/route-tree.gen.ts';

/** Menus and links of the public site (spec §2 "Header" and "Footer"). */

/** A path of the route tree without parameters: menus are type-checked against the routes. */
export type SitePath = Exclude<keyof FileRoutesByTo, `${string}$${string}`>;

export interface NavItem {
  label: string;
  to: SitePath;
  children?: readonly NavItem[];
}

export const REGISTRATION_PATH = '/inscription-agence-matrimoniale-musulmane' satisfies SitePath;

export const mainNav: readonly NavItem[] = [
  { label: 'Accueil', to: '/' },
  { label: 'L’agence', to: '/qui-sommes-nous' },
  {
    label: 'Inscription',
    to: REGISTRATION_PATH,
    children: [
      { label: 'Pour les hommes', to: '/inscription-agence-matrimoniale-musulmane/pour-les-hommes' },
      { label: 'Pour les femmes', to: '/inscription-agence-matrimoniale-musulmane/pour-les-femmes' },
    ],
  },
  { label: 'Blog', to: '/blog' },
  { label: 'Contact', to: '/contactez-agence-matrimoniale-musulmane' },
];

export const signedOutActions = {
  signIn: { label: 'Connexion', to: '/connexion' },
  register: { label: 'Je m’inscris', to: '/formulaire-inscription' },
} as const satisfies Record<string, { label: string; to: SitePath }>;

export const BRAND_NAME = 'Union Sincère';
