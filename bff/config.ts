import * as v from 'valibot';
import { linkInWrongMode, type PaymentLinks, paymentLinksEnvSchema, type StripeMode } from '#bff/payment-links-config.ts';
import type { SocialLinks } from '#machines/public-site/site-tokens.ts';
import { AGENCY_ENV, type AgencyIdentity, AgencyIdentitySchema, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';

/**
 * The whole environment, validated once at start. A missing or malformed value stops the process
 * with one line naming the variable (see `loadConfig`). Every variable is documented in README.md.
 */
const optionalUrl = v.optional(v.pipe(v.string(), v.trim(), v.url('une URL absolue (https://…)')));
const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'une valeur non vide')));
/** `AGENCY_LEGAL_NAME`…: each field of the agency's identity, validated by its own schema (decision 106). */
const agencyEntries = Object.fromEntries(
  (Object.keys(AGENCY_ENV) as (keyof AgencyIdentity)[]).map((field) => [
    AGENCY_ENV[field],
    v.optional(AgencyIdentitySchema.entries[field]),
  ]),
) as { [K in keyof AgencyIdentity as (typeof AGENCY_ENV)[K]]: v.OptionalSchema<(typeof AgencyIdentitySchema.entries)[K], undefined> };

/** pino's levels (bff/logger.ts, decision 107). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The agency's page on a network (decision 198): an https address on that network, not its home page. */
const socialUrl = (domain: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.url(`une URL https://www.${domain}/…`),
      v.check((value) => {
        try {
          const url = new URL(value);
          return url.protocol === 'https:' && (url.hostname === domain || url.hostname.endsWith(`.${domain}`)) && url.pathname.length > 1;
        } catch {
          return false;
        }
      }, `l’adresse https de la page de l’agence sur ${domain} (https://www.${domain}/…)`),
    ),
  );

const EnvSchema = v.pipe(
  v.object({
    NODE_ENV: v.optional(v.picklist(['development', 'production', 'test'], 'development, production ou test'), 'development'),
    PORT: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d{1,5}$/, 'un numéro de port (0-65535)'),
        v.transform(Number),
        v.maxValue(65535, 'un numéro de port (0-65535)'),
      ),
      '3000',
    ),
    HOST: v.optional(v.pipe(v.string(), v.minLength(1, 'une adresse d’écoute')), '127.0.0.1'),
    PUBLIC_SITE_URL: optionalUrl,
    DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1, 'un dossier')), '.data'),
    DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'une URL postgres://…'))),
    SUPABASE_URL: optionalUrl,
    SUPABASE_ANON_KEY: optionalText,
    SUPABASE_SERVICE_ROLE_KEY: optionalText,
    SMTP_URL: v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\//, 'une URL smtp://… ou smtps://…'))),
    MAIL_FROM: v.optional(
      v.pipe(v.string(), v.minLength(3, 'une adresse d’expéditeur')),
      'Union Sincère <contact@union-sincere.localhost>',
    ),
    ...agencyEntries,
    STRIPE_WEBHOOK_SECRET: optionalText,
    /** Secret (or restricted) API key for refunds and subscriptions (decision 118); required in production with live payments. */
    STRIPE_SECRET_KEY: v.optional(
      v.pipe(v.string(), v.regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, 'STRIPE_SECRET_KEY invalide (sk_test_…, sk_live_…)')),
    ),
    STRIPE_PAYMENT_LINKS: v.optional(paymentLinksEnvSchema),
    STRIPE_MODE: v.optional(v.picklist(['test', 'live'], 'test ou live')),
    CALENDLY_URL: optionalUrl,
    CALENDLY_WEBHOOK_SIGNING_KEY: optionalText,
    GTM_ID: v.optional(v.pipe(v.string(), v.regex(/^GTM-[A-Z0-9]+$/, 'un identifiant GTM-XXXXXXX'))),
    CONTENT_PREVIEW_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'un jeton d’au moins 16 caractères'))),
    ALLOW_EMBEDDED_IN_PRODUCTION: v.optional(v.picklist(['true', 'false'], 'true ou false'), 'false'),
    DEMO_DATA: v.optional(v.picklist(['true', 'false'], 'true ou false')),
    DEMO_AGENCY: v.optional(v.picklist(['true', 'false'], 'true ou false')),
    TRUST_PROXY: v.optional(
      v.pipe(v.string(), v.regex(/^(true|false|[0-9])$/, 'le nombre de proxys devant le serveur (0 à 9 ; true vaut 1, false vaut 0)')),
      '0',
    ),
    SOCIAL_FACEBOOK_URL: socialUrl('facebook.com'),
    SOCIAL_INSTAGRAM_URL: socialUrl('instagram.com'),
    SOCIAL_TIKTOK_URL: socialUrl('tiktok.com'),
    LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `l’un de ${LOG_LEVELS.join(', ')}`)),
  }),
  v.check(
    (env) =>
      [env.SUPABASE_URL, env.SUPABASE_ANON_KEY, env.SUPABASE_SERVICE_ROLE_KEY].every((x) => x === undefined) ||
      [env.SUPABASE_URL, env.SUPABASE_ANON_KEY, env.SUPABASE_SERVICE_ROLE_KEY].every((x) => x !== undefined),
    'SUPABASE_URL, SUPABASE_ANON_KEY et SUPABASE_SERVICE_ROLE_KEY vont ensemble : les trois, ou aucun (service embarqué)',
  ),
);

type Env = v.InferOutput<typeof EnvSchema>;

export interface Config {
  nodeEnv: Env['NODE_ENV'];
  port: number;
  host: string;
  publicSiteUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Hosted Supabase project, or undefined for the embedded auth service. */
  supabase: { url: string; anonKey: string; serviceRoleKey: string } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Where contact-form mails go: the identity's e-mail. */
  agencyEmail: string;
  /** The agency's identity (legal pages, contract); the demo identity outside production. */
  agency: AgencyIdentity;
  /** The agency's pages on the social networks, each absent unless configured (decision 198). */
  social: SocialLinks;
  stripeWebhookSecret: string | undefined;
  /** Stripe secret or restricted key for refunds and subscriptions (decision 118); undefined: the local stand-ins (never in production with Payment Links). */
  stripeSecretKey?: string | undefined;
  /** Payment Links per offer; undefined runs the embedded checkout stand-in. */
  stripePaymentLinks: PaymentLinks | undefined;
  /** `test` links and events in development, `live` in production. */
  stripeMode: StripeMode;
  calendlyUrl: string | undefined;
  calendlyWebhookSigningKey: string | undefined;
  gtmId: string | undefined;
  /** Shows draft articles to a content API request carrying it (`x-preview-token`). */
  contentPreviewToken: string | undefined;
  demoData: boolean;
  /** With the demo accounts, the demo agency of about forty members (issue 63, decision 207); `DEMO_AGENCY=false` leaves it out. */
  demoAgency: boolean;
  /**
   * How many reverse proxies you run in front of the server (0: none). The client's address is
   * the `X-Forwarded-For` hop the outermost of them appended (the N-th from the right); hops an
   * outsider wrote before it are ignored. `true` counts as 1, `false` as 0.
   */
  trustProxy: number;
  /** Secure cookies everywhere but on localhost. */
  secureCookies: boolean;
  /** The logger's level (decision 107): `info`, or `silent` with NODE_ENV=test. */
  logLevel: LogLevel;
}

export class ConfigError extends Error {}

export function parseConfig(raw: Record<string, string | undefined>): Config {
  // Empty strings count as unset: `FOO= npm start` should behave like no FOO.
  const cleaned = Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(EnvSchema, cleaned);
  if (!result.success) {
    const issue = result.issues[0];
    const name = issue.path?.map((p) => String(p.key)).join('.') ?? 'configuration';
    const got = issue.path ? ` (reçu : ${JSON.stringify(issue.input)})` : '';
    throw new ConfigError(`Configuration invalide : ${name} doit être ${issue.message}${got}`);
  }
  const env = result.output;
  const publicSiteUrl = (env.PUBLIC_SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const hosted = [
    'SUPABASE_URL',
    'SMTP_URL',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_PAYMENT_LINKS',
    'CALENDLY_WEBHOOK_SIGNING_KEY',
    'CALENDLY_URL',
  ] as const;
  const embedded = hosted.some((k) => !env[k]);
  if (env.NODE_ENV === 'production' && embedded && env.ALLOW_EMBEDDED_IN_PRODUCTION !== 'true') {
    const missing = hosted.find((k) => !env[k]);
    throw new ConfigError(
      `Configuration invalide : ${missing} est requis en production (ou ALLOW_EMBEDDED_IN_PRODUCTION=true pour les services embarqués)`,
    );
  }
  // Demo accounts and the demo agency are for trying the product: a production start with real
  // services refuses them (decision 207); only the embedded services may carry them (the audits).
  if (env.NODE_ENV === 'production' && env.DEMO_DATA === 'true' && env.ALLOW_EMBEDDED_IN_PRODUCTION !== 'true')
    throw new ConfigError(
      'Configuration invalide : DEMO_DATA=true est refusé en production (comptes et agence de démonstration ; seulement avec ALLOW_EMBEDDED_IN_PRODUCTION=true)',
    );
  // In production the public address is never guessed: links in mails, cookies' Secure flag and
  // the allowed Origin of writes all come from it.
  if (env.NODE_ENV === 'production' && !env.PUBLIC_SITE_URL)
    throw new ConfigError('Configuration invalide : PUBLIC_SITE_URL est requis en production (l’adresse publique du site, https://…)');
  // The legal pages and the contract name the agency: never the demo identity in production.
  const missingAgency = (Object.keys(AGENCY_ENV) as (keyof AgencyIdentity)[]).find((field) => env[AGENCY_ENV[field]] === undefined);
  if (env.NODE_ENV === 'production' && missingAgency)
    throw new ConfigError(
      `Configuration invalide : ${AGENCY_ENV[missingAgency]} est requis en production (identité de l’agence pour les mentions légales, les CGV et le contrat ; voir docs/decisions/106-agency-identity-and-one-price-source.md)`,
    );
  const agency = Object.fromEntries(
    (Object.keys(AGENCY_ENV) as (keyof AgencyIdentity)[]).map((field) => [field, env[AGENCY_ENV[field]] ?? DEMO_AGENCY_IDENTITY[field]]),
  ) as AgencyIdentity;
  // Sessions are checked in the project's own auth.sessions (decision 100): its database is ours.
  if (env.SUPABASE_URL && !env.DATABASE_URL)
    throw new ConfigError(
      'Configuration invalide : DATABASE_URL est requis avec SUPABASE_URL (la base du projet Supabase, en connexion directe ou en mode session)',
    );
  // Live only with real links: the embedded checkout stand-in always sends test-mode events.
  const stripeMode = env.STRIPE_MODE ?? (env.NODE_ENV === 'production' && env.STRIPE_PAYMENT_LINKS ? 'live' : 'test');
  if (stripeMode === 'live' && !env.STRIPE_PAYMENT_LINKS)
    throw new ConfigError('Configuration invalide : STRIPE_MODE=live demande STRIPE_PAYMENT_LINKS (le paiement embarqué est en mode test)');
  // Hosted payments and booking need their webhook secrets (no unverifiable webhook endpoint).
  if (env.STRIPE_PAYMENT_LINKS && !env.STRIPE_WEBHOOK_SECRET)
    throw new ConfigError('Configuration invalide : STRIPE_WEBHOOK_SECRET est requis avec STRIPE_PAYMENT_LINKS');
  // Live payments need a way back: refunds (withdrawal, termination) and cancelled subscriptions
  // go through Stripe's API; the local stand-ins would record them while no money moves (issue 59).
  if (env.NODE_ENV === 'production' && env.STRIPE_PAYMENT_LINKS && !env.STRIPE_SECRET_KEY)
    throw new ConfigError(
      'Configuration invalide : STRIPE_SECRET_KEY est requis en production avec STRIPE_PAYMENT_LINKS (clé restreinte avec les droits Refunds et Subscriptions en écriture, Checkout Sessions en lecture)',
    );
  if (env.STRIPE_SECRET_KEY && env.STRIPE_PAYMENT_LINKS && !env.STRIPE_SECRET_KEY.includes(`_${stripeMode}_`))
    throw new ConfigError(
      `Configuration invalide : STRIPE_SECRET_KEY doit être une clé de mode ${stripeMode} (sk_${stripeMode}_… ou rk_${stripeMode}_…), comme STRIPE_PAYMENT_LINKS`,
    );
  if (env.CALENDLY_URL && !env.CALENDLY_WEBHOOK_SIGNING_KEY)
    throw new ConfigError('Configuration invalide : CALENDLY_WEBHOOK_SIGNING_KEY est requis avec CALENDLY_URL');
  const wrongMode = env.STRIPE_PAYMENT_LINKS ? linkInWrongMode(env.STRIPE_PAYMENT_LINKS, stripeMode) : null;
  if (wrongMode) {
    throw new ConfigError(
      `Configuration invalide : STRIPE_PAYMENT_LINKS.${wrongMode} doit être un lien de mode ${stripeMode} (STRIPE_MODE=${stripeMode} ; les liens de test commencent par https://buy.stripe.com/test_)`,
    );
  }
  const host = new URL(publicSiteUrl).hostname;
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicSiteUrl,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    supabase: env.SUPABASE_URL
      ? { url: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY as string, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY as string }
      : undefined,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    agencyEmail: agency.email,
    agency,
    social: {
      ...(env.SOCIAL_FACEBOOK_URL ? { facebook: env.SOCIAL_FACEBOOK_URL } : {}),
      ...(env.SOCIAL_INSTAGRAM_URL ? { instagram: env.SOCIAL_INSTAGRAM_URL } : {}),
      ...(env.SOCIAL_TIKTOK_URL ? { tiktok: env.SOCIAL_TIKTOK_URL } : {}),
    },
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
    stripeSecretKey: env.STRIPE_SECRET_KEY,
    stripePaymentLinks: env.STRIPE_PAYMENT_LINKS,
    stripeMode,
    calendlyUrl: env.CALENDLY_URL,
    calendlyWebhookSigningKey: env.CALENDLY_WEBHOOK_SIGNING_KEY,
    gtmId: env.GTM_ID,
    contentPreviewToken: env.CONTENT_PREVIEW_TOKEN,
    demoData: env.DEMO_DATA ? env.DEMO_DATA === 'true' : env.NODE_ENV !== 'production',
    demoAgency: (env.DEMO_DATA ? env.DEMO_DATA === 'true' : env.NODE_ENV !== 'production') && env.DEMO_AGENCY !== 'false',
    trustProxy: env.TRUST_PROXY === 'true' ? 1 : env.TRUST_PROXY === 'false' ? 0 : Number(env.TRUST_PROXY),
    secureCookies: !['localhost', '127.0.0.1', '[::1]'].includes(host),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
  };
}
