import type { Region } from '#machines/onboarding/forms.ts';

/**
 * The member's own region, derived from the postcode of step 1 (no re-typing): the first two
 * digits of a French postcode name the département (20 for Corsica), and each département belongs
 * to one of the 13 regions of metropolitan France (2016 map). 97x and 98x are overseas, 980 is
 * Monaco (abroad). A postcode that names no département gives null.
 */

/** A region a member can live in: every region code of the annex except "peu importe". */
export type HomeRegion = Exclude<Region, 'indifferent'>;

const departementsByRegion: Record<Exclude<HomeRegion, 'outre-mer' | 'etranger'>, readonly string[]> = {
  'auvergne-rhone-alpes': ['01', '03', '07', '15', '26', '38', '42', '43', '63', '69', '73', '74'],
  'bourgogne-franche-comte': ['21', '25', '39', '58', '70', '71', '89', '90'],
  bretagne: ['22', '29', '35', '56'],
  'centre-val-de-loire': ['18', '28', '36', '37', '41', '45'],
  corse: ['20'],
  'grand-est': ['08', '10', '51', '52', '54', '55', '57', '67', '68', '88'],
  'hauts-de-france': ['02', '59', '60', '62', '80'],
  'ile-de-france': ['75', '77', '78', '91', '92', '93', '94', '95'],
  normandie: ['14', '27', '50', '61', '76'],
  'nouvelle-aquitaine': ['16', '17', '19', '23', '24', '33', '40', '47', '64', '79', '86', '87'],
  occitanie: ['09', '11', '12', '30', '31', '32', '34', '46', '48', '65', '66', '81', '82'],
  'pays-de-la-loire': ['44', '49', '53', '72', '85'],
  'provence-alpes-cote-d-azur': ['04', '05', '06', '13', '83', '84'],
};

const regionByDepartement = new Map<string, HomeRegion>(
  Object.entries(departementsByRegion).flatMap(([region, codes]) => codes.map((code) => [code, region as HomeRegion] as const)),
);

/** Every region a member can live in, in the order of the annex's list. */
export const homeRegions: readonly HomeRegion[] = [
  'auvergne-rhone-alpes',
  'bourgogne-franche-comte',
  'bretagne',
  'centre-val-de-loire',
  'corse',
  'grand-est',
  'hauts-de-france',
  'ile-de-france',
  'normandie',
  'nouvelle-aquitaine',
  'occitanie',
  'pays-de-la-loire',
  'provence-alpes-cote-d-azur',
  'outre-mer',
  'etranger',
];

/** The region of a 5-digit French postcode, or null when it names no département. */
export function regionOfPostcode(postcode: string): HomeRegion | null {
  if (!/^\d{5}$/.test(postcode)) return null;
  if (postcode.startsWith('980')) return 'etranger';
  if (postcode.startsWith('97') || postcode.startsWith('98')) return 'outre-mer';
  return regionByDepartement.get(postcode.slice(0, 2)) ?? null;
}

/** A postcode in a region (its first département), for test data and seeds. */
export function samplePostcode(region: HomeRegion, suffix = 0): string {
  const tail = String(suffix % 1000).padStart(3, '0');
  if (region === 'outre-mer') return `97${tail}`;
  if (region === 'etranger') return '98000';
  return `${departementsByRegion[region][0]}${tail}`;
}
