import * as v from 'valibot';

/**
 * Cookie consent rules (decisions §7, CNIL 2020-091/092): categories, the version of the banner,
 * how long a choice is kept, and the Google Consent Mode v2 state each choice gives. Pure, shared
 * by the banner (browser) and the proof-of-consent endpoint (server).
 */

/** Bump when the banner's purposes or vendors change: every visitor is asked again. */
export const CONSENT_VERSION = '2026-11-21';
/** A choice is kept 6 months (CNIL good practice), then asked again. */
export const CONSENT_MONTHS = 6;

export const optionalCategories = ['functional', 'statistic', 'marketing', 'unclassified'] as const;
export type OptionalCategory = (typeof optionalCategories)[number];
export type ConsentChoices = Record<OptionalCategory, boolean>;

/** What the spec calls the consent state: necessary always true. */
export type ConsentState = { necessary: true } & ConsentChoices;

export const categoryLabels: Record<'necessary' | OptionalCategory, { title: string; description: string }> = {
  necessary: {
    title: 'Nécessaires',
    description: 'Indispensables au site : session de connexion, sécurité, mémorisation de votre choix sur les cookies. Toujours actifs.',
  },
  functional: {
    title: 'Fonctionnels',
    description: 'Retenir des préférences d’affichage et améliorer votre confort de navigation.',
  },
  statistic: {
    title: 'Statistiques',
    description: 'Mesurer l’audience du site de façon agrégée (Google Analytics via Google Tag Manager) pour l’améliorer.',
  },
  marketing: {
    title: 'Marketing',
    description: 'Mesurer l’efficacité de nos campagnes publicitaires (Google, Meta) et vous proposer des contenus adaptés.',
  },
  unclassified: {
    title: 'Non classés',
    description: 'Traceurs que nous n’avons pas encore pu classer ; ils ne sont déposés qu’avec votre accord.',
  },
};

export const noChoices: ConsentChoices = { functional: false, statistic: false, marketing: false, unclassified: false };
export const allChoices: ConsentChoices = { functional: true, statistic: true, marketing: true, unclassified: true };

export const ConsentChoicesSchema = v.strictObject(
  {
    functional: v.boolean('Choix invalide'),
    statistic: v.boolean('Choix invalide'),
    marketing: v.boolean('Choix invalide'),
    unclassified: v.boolean('Choix invalide'),
  },
  'Choix invalides',
);

/** The choice as kept in the browser (localStorage). */
export const StoredConsentSchema = v.object({
  anonymousId: v.pipe(v.string(), v.uuid()),
  version: v.string(),
  /** ISO date of the choice. */
  date: v.pipe(v.string(), v.isoTimestamp()),
  choices: ConsentChoicesSchema,
});
export type StoredConsent = v.InferOutput<typeof StoredConsentSchema>;

/** `POST /api/v1/consent`: the proof of consent (anonymous id, banner version, choices). */
export const ConsentProofSchema = v.object({
  anonymousId: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')),
  version: v.pipe(v.string('Version invalide'), v.regex(/^[\w.-]{1,32}$/, 'Version invalide')),
  choices: ConsentChoicesSchema,
});
export type ConsentProof = v.InferOutput<typeof ConsentProofSchema>;

/** When a choice made at `date` stops being valid: the same day, 6 months later. */
export function consentExpiry(date: Date): Date {
  const expiry = new Date(date.getTime());
  const day = expiry.getUTCDate();
  expiry.setUTCMonth(expiry.getUTCMonth() + CONSENT_MONTHS, 1);
  const lastDay = new Date(Date.UTC(expiry.getUTCFullYear(), expiry.getUTCMonth() + 1, 0)).getUTCDate();
  expiry.setUTCDate(Math.min(day, lastDay));
  return expiry;
}

/** A stored value, parsed; null when absent, malformed, of another version or older than 6 months. */
export function validStoredConsent(raw: unknown, now: Date, version = CONSENT_VERSION): StoredConsent | null {
  const parsed = v.safeParse(StoredConsentSchema, raw);
  if (!parsed.success || parsed.output.version !== version) return null;
  const date = new Date(parsed.output.date);
  if (Number.isNaN(date.getTime()) || date.getTime() > now.getTime() + 60_000) return null;
  return now.getTime() < consentExpiry(date).getTime() ? parsed.output : null;
}

export type ConsentModeValue = 'granted' | 'denied';
export interface ConsentModeState {
  ad_storage: ConsentModeValue;
  ad_user_data: ConsentModeValue;
  ad_personalization: ConsentModeValue;
  analytics_storage: ConsentModeValue;
  functionality_storage: ConsentModeValue;
  personalization_storage: ConsentModeValue;
  security_storage: ConsentModeValue;
}

const granted = (on: boolean): ConsentModeValue => (on ? 'granted' : 'denied');

/**
 * Google Consent Mode v2 keys for a choice: necessary → security_storage; functional →
 * functionality + personalization; statistic → analytics_storage; marketing → the three ad_* keys.
 */
export function consentModeState(choices: ConsentChoices): ConsentModeState {
  return {
    ad_storage: granted(choices.marketing),
    ad_user_data: granted(choices.marketing),
    ad_personalization: granted(choices.marketing),
    analytics_storage: granted(choices.statistic),
    functionality_storage: granted(choices.functional),
    personalization_storage: granted(choices.functional),
    security_storage: 'granted',
  };
}

/** The defaults set before any tag: everything denied but security. */
export const consentModeDefaults: ConsentModeState = consentModeState(noChoices);

/** The tag manager is worth loading only if some category it serves was accepted. */
export function tagManagerAllowed(choices: ConsentChoices): boolean {
  return choices.statistic || choices.marketing || choices.unclassified;
}
