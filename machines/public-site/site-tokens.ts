import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import type { SiteValues } from '#machines/public-site/fill-tokens.ts';
import { NO_PAYMENT_PERIOD_DAYS, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-periods.ts';
import { activePlans, FILE_FEE_CENTS, type PayInFullSetting, type Plan } from '#machines/onboarding/plans.ts';
import { lazy } from '#machines/lazy.ts';
import { type SocialLinks, socialValues } from '#machines/public-site/social-links.ts';

/**
 * The site's copy (`content/`) names the agency and quotes prices through tokens, `{{agence.adresse}}`,
 * `{{horizon.une-fois}}`…, never literally (decision 106): one source for the identity (the
 * configuration) and for the offers (machines/onboarding/plans.ts and the staff's pay-in-full
 * setting). The prerendered pages keep the tokens; the server fills them in as it serves a page
 * (bff/site/site-pages.ts), and the browser fills in the same values, read from the page's
 * `<meta name="site-values">`, when it renders the copy itself.
 */

export type { SiteValues } from '#machines/public-site/fill-tokens.ts';
export type { SocialLinks } from '#machines/public-site/social-links.ts';

/**
 * Names used for each meeting and each legal period in the public copy and the plans (the
 * onboarding meeting is the app's step "Entretien personnalisé").
 */
export const MEETING_NAMES = { onboarding: 'entretien personnalisé', matchmaking: 'entretien de rapprochement' } as const;
export const PERIOD_NAMES = { renunciation: 'délai de renonciation', withdrawal: 'délai de rétractation' } as const;

const wholeEuros = lazy(
  () =>
    new Intl.NumberFormat('fr-FR', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    }),
);

/** 9500 → '95 €', 102000 → '1 020 €' (no decimals for whole euros, as the site writes prices). */
export function formatPrice(cents: number): string {
  if (!Number.isInteger(cents)) throw new Error(`Amount must be an integer of cents: ${cents}`);
  return wholeEuros().format(cents / 100);
}

/** The demo identity (a SIRET of zeros) is said to be one wherever it is printed. */
export function isDemoIdentity(identity: AgencyIdentity): boolean {
  return /^[0 ]+$/.test(identity.siret);
}

const demoMark = (identity: AgencyIdentity, value: string) => (isDemoIdentity(identity) ? `${value} (démonstration)` : value);

/** The identity's values as printed (tokens `agence.*`). */
export function agencyValues(identity: AgencyIdentity): SiteValues {
  return {
    'agence.raison-sociale': identity.legalName,
    'agence.forme': identity.legalForm,
    'agence.adresse': identity.address,
    'agence.rcs': demoMark(identity, identity.rcs),
    'agence.siret': demoMark(identity, identity.siret),
    'agence.telephone': demoMark(identity, identity.phone),
    'agence.email': identity.email,
    'agence.mediateur': identity.mediatorName,
    'agence.mediateur-site': identity.mediatorUrl,
    'agence.tva': identity.vat,
    'agence.directeur-publication': identity.publicationDirector,
    'agence.hebergeur': identity.host,
  };
}

const PACKS = { horizon: 'horizon', serenite: 'serenity' } as const;

/** The offers' values for the active plans (tokens `horizon.*`, `serenite.*`, `frais-de-dossier*`). */
export function offerValues(setting: PayInFullSetting): SiteValues {
  const active = activePlans(setting);
  const values: SiteValues = {
    'frais-de-dossier': formatPrice(FILE_FEE_CENTS),
    'delai-renonciation': `${PERIOD_NAMES.renunciation} de ${NO_PAYMENT_PERIOD_DAYS} jours`,
    'delai-retractation': `${PERIOD_NAMES.withdrawal} de ${WITHDRAWAL_PERIOD_DAYS} jours`,
  };
  for (const [token, name] of Object.entries(PACKS)) {
    const monthly = active.find((p) => p.name === name && p.type === 'monthly') as Plan;
    const inFull = active.find((p) => p.name === name && p.type !== 'monthly') as Plan;
    values[`${token}.nom`] = monthly.title;
    values[`${token}.duree`] = `${monthly.durationMonths} mois`;
    values[`${token}.mensualite`] = formatPrice(monthly.priceCents);
    values[`${token}.mensualites`] = String(monthly.installments);
    values[`${token}.total-mensuel`] = formatPrice(monthly.totalCents);
    values[`${token}.une-fois`] = formatPrice(inFull.totalCents);
    values[`${token}.une-fois-detail`] = inFull.discount
      ? ` (10 % de moins que les ${monthly.installments} mensualités, qui font ${formatPrice(inFull.discount.originalPriceCents)})`
      : '';
  }
  return values;
}

/** Every token's value: the agency's identity, the offers under the staff's setting and its social pages. */
export function siteValues(identity: AgencyIdentity, setting: PayInFullSetting, social: SocialLinks = {}): SiteValues {
  return { ...agencyValues(identity), ...offerValues(setting), ...socialValues(social) };
}
