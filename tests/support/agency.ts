import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';

/** A plausible production identity (not the demo values), for the tests of decision 106. */
export const SAMPLE_AGENCY: AgencyIdentity = {
  legalName: 'Union Sincère SAS',
  legalForm: 'société par actions simplifiée au capital de 5 000 €',
  address: '12 rue des Lilas, 69003 Lyon',
  rcs: 'RCS Lyon 123 456 789',
  siret: '123 456 789 00012',
  phone: '04 72 00 00 00',
  email: 'bonjour@union-sincere.fr',
  mediatorName: 'CM2C',
  mediatorUrl: 'https://www.cm2c.net',
  vat: 'TVA non applicable, art. 293 B du CGI',
  publicationDirector: 'Amina Benali, présidente',
  host: 'OVH SAS, 2 rue Kellermann, 59100 Roubaix, 1007',
};
