import * as v from 'valibot';

/**
 * The agency's identity (decision 106): what the legal notice (LCEN art. 6-III), the terms of sale,
 * the privacy policy, the contact page and the contract (L224-90) must name. It is configuration,
 * read from `AGENCY_*` variables by bff/config.ts; production refuses to start while one is
 * missing. Development and tests run on `DEMO_AGENCY_IDENTITY`, obviously fictitious values.
 */

/** No bracket, brace or angle bracket: a "[à compléter]" copied into a variable is refused. */
const text = (what: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(2, what),
    v.maxLength(300, `${what} (300 caractères au plus)`),
    v.regex(/^[^[\]{}<>]*$/, `${what}, sans crochets ni accolades (pas de « [à compléter] »)`),
  );

export const AgencyIdentitySchema = v.object({
  /** Raison sociale, e.g. "Union Sincère SAS". */
  legalName: text('une raison sociale'),
  /** Forme juridique et capital, e.g. "société par actions simplifiée au capital de 1 000 €". */
  legalForm: text('une forme juridique (et son capital)'),
  /** Siège social, one line. */
  address: text('une adresse postale'),
  /** "RCS <ville> <numéro>". */
  rcs: v.pipe(
    text('une immatriculation « RCS <ville> <numéro> »'),
    v.regex(/^RCS \S.*\d{3} ?\d{3} ?\d{3}$/, 'une immatriculation « RCS <ville> <numéro à 9 chiffres> »'),
  ),
  siret: v.pipe(v.string(), v.trim(), v.regex(/^\d{3} ?\d{3} ?\d{3} ?\d{5}$/, 'un SIRET de 14 chiffres')),
  phone: v.pipe(v.string(), v.trim(), v.regex(/^\+?[\d .]{8,20}$/, 'un numéro de téléphone')),
  email: v.pipe(v.string(), v.trim(), v.email('une adresse e-mail')),
  /** Consumer mediator (L612-1 Code de la consommation): name and website. */
  mediatorName: text('le nom du médiateur de la consommation'),
  mediatorUrl: v.pipe(v.string(), v.trim(), v.url('une URL absolue (https://…)'), v.startsWith('https://', 'une URL https://…')),
  /** "TVA non applicable, art. 293 B du CGI", or "TVA intracommunautaire : FR…". */
  vat: text('une mention de TVA'),
  /** Directeur ou directrice de la publication (LCEN): name and role. */
  publicationDirector: text('un nom (et sa fonction)'),
  /** Hébergeur (LCEN): name, address and phone, one line. */
  host: text('le nom, l’adresse et le téléphone de l’hébergeur'),
});

export type AgencyIdentity = v.InferOutput<typeof AgencyIdentitySchema>;

/** Each field's environment variable (README.md, "Configuration"). */
export const AGENCY_ENV = {
  legalName: 'AGENCY_LEGAL_NAME',
  legalForm: 'AGENCY_LEGAL_FORM',
  address: 'AGENCY_ADDRESS',
  rcs: 'AGENCY_RCS',
  siret: 'AGENCY_SIRET',
  phone: 'AGENCY_PHONE',
  email: 'AGENCY_EMAIL',
  mediatorName: 'AGENCY_MEDIATOR_NAME',
  mediatorUrl: 'AGENCY_MEDIATOR_URL',
  vat: 'AGENCY_VAT',
  publicationDirector: 'AGENCY_PUBLICATION_DIRECTOR',
  host: 'AGENCY_HOST',
} as const satisfies Record<keyof AgencyIdentity, string>;

/** Obviously fictitious values for development, tests and demonstrations: never a placeholder. */
export const DEMO_AGENCY_IDENTITY: AgencyIdentity = {
  legalName: 'Union Sincère SAS (données de démonstration)',
  legalForm: 'société par actions simplifiée au capital de 1 000 € (démonstration)',
  address: '1 rue de l’Exemple, 75000 Paris (adresse de démonstration)',
  rcs: 'RCS Paris 000 000 000',
  siret: '000 000 000 00000',
  phone: '01 00 00 00 00',
  email: 'contact@union-sincere.localhost',
  mediatorName: 'Médiateur de la consommation de démonstration',
  mediatorUrl: 'https://mediateur.example',
  vat: 'TVA non applicable, art. 293 B du CGI (mention de démonstration)',
  publicationDirector: 'Camille Exemple, présidente (données de démonstration)',
  host: 'Hébergeur de démonstration, 1 rue de l’Exemple, 75000 Paris, 01 00 00 00 00',
};

/** A bracketed "to be completed" placeholder, as the copy once held: `[adresse du siège à compléter]`. */
export const PLACEHOLDER_PATTERN = /\[[^\]]*(?:à compléter|a completer|TODO|XXX)[^\]]*\]/i;

/** The identity as `AGENCY_*` variables (benchmarks and tests that start the server in production mode). */
export function agencyEnv(identity: AgencyIdentity): Record<(typeof AGENCY_ENV)[keyof AgencyIdentity], string> {
  return Object.fromEntries(Object.entries(AGENCY_ENV).map(([field, name]) => [name, identity[field as keyof AgencyIdentity]])) as Record<
    (typeof AGENCY_ENV)[keyof AgencyIdentity],
    string
  >;
}
