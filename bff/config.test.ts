import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ConfigError, parseConfig } from '#bff/config.ts';
import { offerIds } from '#machines/onboarding/plans.ts';
import { AGENCY_ENV, AgencyIdentitySchema, DEMO_AGENCY_IDENTITY, PLACEHOLDER_PATTERN } from '#machines/public-site/agency-identity.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';

describe('configuration', () => {
  it('runs on embedded defaults with no variable at all', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicSiteUrl: 'http://localhost:3000',
      dataDir: '.data',
      supabase: undefined,
      secureCookies: false,
    });
    expect(config.demoData).toBe(true);
  });

  it('honours PORT, HOST and PUBLIC_SITE_URL; cookies are Secure off localhost', () => {
    const config = parseConfig({ PORT: '8080', HOST: '0.0.0.0', PUBLIC_SITE_URL: 'https://www.union-sincere.fr/' });
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', publicSiteUrl: 'https://www.union-sincere.fr', secureCookies: true });
  });

  it.each([
    [{ PORT: 'trois mille' }, /^Configuration invalide\s: PORT doit être un numéro de port/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL doit être une URL postgres/],
    [{ PUBLIC_SITE_URL: 'pas une url' }, /PUBLIC_SITE_URL/],
    [{ SMTP_URL: 'http://relay' }, /SMTP_URL/],
    [{ SUPABASE_URL: 'https://abc.supabase.co' }, /SUPABASE_URL, SUPABASE_ANON_KEY et SUPABASE_SERVICE_ROLE_KEY vont ensemble/],
    [{ NODE_ENV: 'production' }, /requis en production/],
    [{ NODE_ENV: 'production', ALLOW_EMBEDDED_IN_PRODUCTION: 'true' }, /PUBLIC_SITE_URL est requis en production/],
    [
      { SUPABASE_URL: 'https://abc.supabase.co', SUPABASE_ANON_KEY: 'anon', SUPABASE_SERVICE_ROLE_KEY: 'service' },
      /DATABASE_URL est requis avec SUPABASE_URL/,
    ],
  ])('stops on %o with one line naming the variable', (env, message) => {
    let error: unknown;
    try {
      parseConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('switches every stand-in off with the hosted values', () => {
    const config = parseConfig({
      SUPABASE_URL: 'https://abc.supabase.co',
      SUPABASE_ANON_KEY: 'anon',
      SUPABASE_SERVICE_ROLE_KEY: 'service',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
    });
    expect(config.supabase).toEqual({ url: 'https://abc.supabase.co', anonKey: 'anon', serviceRoleKey: 'service' });
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/app');
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });
});

describe('the agency identity (decision 106)', () => {
  const identity = {
    AGENCY_LEGAL_NAME: 'Union Sincère SAS',
    AGENCY_LEGAL_FORM: 'société par actions simplifiée au capital de 5 000 €',
    AGENCY_ADDRESS: '12 rue des Lilas, 69003 Lyon',
    AGENCY_RCS: 'RCS Lyon 123 456 789',
    AGENCY_SIRET: '123 456 789 00012',
    AGENCY_PHONE: '04 72 00 00 00',
    AGENCY_EMAIL: 'bonjour@union-sincere.fr',
    AGENCY_MEDIATOR_NAME: 'CM2C',
    AGENCY_MEDIATOR_URL: 'https://www.cm2c.net',
    AGENCY_VAT: 'TVA non applicable, art. 293 B du CGI',
    AGENCY_PUBLICATION_DIRECTOR: 'Amina Benali, présidente',
    AGENCY_HOST: 'OVH SAS, 2 rue Kellermann, 59100 Roubaix, 1007',
  };
  /** Everything production needs but the identity. */
  const production = {
    NODE_ENV: 'production',
    PUBLIC_SITE_URL: 'https://www.union-sincere.fr',
    SUPABASE_URL: 'https://abc.supabase.co',
    SUPABASE_ANON_KEY: 'anon',
    SUPABASE_SERVICE_ROLE_KEY: 'service',
    DATABASE_URL: 'postgres://u:p@db:5432/app',
    SMTP_URL: 'smtps://u:p@smtp.example:465',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
    STRIPE_PAYMENT_LINKS: JSON.stringify(Object.fromEntries(offerIds.map((id) => [id, `https://buy.stripe.com/${id.replace(/_/g, '')}`]))),
    CALENDLY_URL: 'https://calendly.com/union-sincere/decouverte',
    CALENDLY_WEBHOOK_SIGNING_KEY: 'key',
    STRIPE_SECRET_KEY: 'rk_live_0123456789abcdef',
  };
  const refusal = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    return null;
  };

  it('runs on the demo identity outside production, never on a placeholder', () => {
    const config = parseConfig({});
    expect(config.agency).toEqual(DEMO_AGENCY_IDENTITY);
    expect(config.agencyEmail).toBe(DEMO_AGENCY_IDENTITY.email);
    expect(JSON.stringify(config.agency)).not.toMatch(PLACEHOLDER_PATTERN);
    expect(config.agency.legalName).toMatch(/démonstration/);
    // Every demo value passes the schema production values must pass.
    expect(v.safeParse(AgencyIdentitySchema, DEMO_AGENCY_IDENTITY).success).toBe(true);
  });

  it('reads every field from its variable', () => {
    const config = parseConfig({ ...production, ...identity });
    expect(config.agency).toEqual(SAMPLE_AGENCY);
    expect(config.agencyEmail).toBe('bonjour@union-sincere.fr');
  });

  it('never carries the demo accounts nor the demo agency in production (issue 63, decision 207)', () => {
    expect(parseConfig({ ...production, ...identity })).toMatchObject({ demoData: false, demoAgency: false });
    expect(refusal({ ...production, ...identity, DEMO_DATA: 'true' })).toMatch(/DEMO_DATA=true est refusé en production/);
    // Only on the embedded services, as the audits run the production build (scripts/lighthouse.ts).
    const embedded = { NODE_ENV: 'production', PUBLIC_SITE_URL: 'http://localhost', ALLOW_EMBEDDED_IN_PRODUCTION: 'true', ...identity };
    expect(parseConfig(embedded).demoData).toBe(false);
    expect(parseConfig({ ...embedded, DEMO_DATA: 'true', DEMO_AGENCY: 'false' })).toMatchObject({ demoData: true, demoAgency: false });
    // Outside production: both by default, the agency left out on request.
    expect(parseConfig({})).toMatchObject({ demoData: true, demoAgency: true });
    expect(parseConfig({ DEMO_AGENCY: 'false' })).toMatchObject({ demoData: true, demoAgency: false });
    expect(parseConfig({ DEMO_DATA: 'false' })).toMatchObject({ demoData: false, demoAgency: false });
  });

  it.each(Object.keys(identity))('refuses to start in production without %s, naming it in one line', (name) => {
    const env = { ...production, ...identity } as Record<string, string>;
    delete env[name];
    const message = refusal(env);
    expect(message).toMatch(new RegExp(`^Configuration invalide : ${name} est requis en production`));
    expect(message).not.toContain('\n');
    // An empty value is a missing one.
    expect(refusal({ ...production, ...identity, [name]: '' })).toBe(message);
  });

  it.each([
    ['AGENCY_ADDRESS', '[adresse du siège à compléter]', /AGENCY_ADDRESS doit être une adresse postale, sans crochets/],
    ['AGENCY_SIRET', '[à compléter]', /AGENCY_SIRET doit être un SIRET de 14 chiffres/],
    ['AGENCY_SIRET', '1234', /AGENCY_SIRET doit être un SIRET de 14 chiffres/],
    ['AGENCY_RCS', 'Lyon', /AGENCY_RCS doit être une immatriculation/],
    ['AGENCY_PHONE', 'appelez-nous', /AGENCY_PHONE doit être un numéro de téléphone/],
    ['AGENCY_EMAIL', 'pas une adresse', /AGENCY_EMAIL doit être une adresse e-mail/],
    ['AGENCY_MEDIATOR_URL', 'http://mediateur.example', /AGENCY_MEDIATOR_URL doit être une URL https/],
  ])('refuses %s=%s, in development too', (name, value, message) => {
    expect(refusal({ [name]: value })).toMatch(message);
    expect(refusal({ ...production, ...identity, [name]: value })).toMatch(message);
  });
});

describe('live payments and the way back (issue 59)', () => {
  const live = {
    NODE_ENV: 'production',
    PUBLIC_SITE_URL: 'https://www.union-sincere.fr',
    ALLOW_EMBEDDED_IN_PRODUCTION: 'true',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
    STRIPE_PAYMENT_LINKS: JSON.stringify(Object.fromEntries(offerIds.map((id) => [id, `https://buy.stripe.com/${id.replace(/_/g, '')}`]))),
    ...Object.fromEntries(
      (Object.keys(AGENCY_ENV) as (keyof typeof AGENCY_ENV)[]).map((field) => [AGENCY_ENV[field], SAMPLE_AGENCY[field]]),
    ),
  };
  const message = (env: Record<string, string>) => {
    try {
      parseConfig(env);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it('refuses Payment Links in production without STRIPE_SECRET_KEY, naming it in one line', () => {
    const refused = message(live);
    expect(refused).toMatch(/^Configuration invalide\s: STRIPE_SECRET_KEY est requis en production avec STRIPE_PAYMENT_LINKS/);
    expect(refused).not.toContain('\n');
    expect(message({ ...live, STRIPE_SECRET_KEY: 'rk_live_0123456789abcdef' })).toBeNull();
  });

  it('refuses a key of the other mode than the links', () => {
    expect(message({ ...live, STRIPE_SECRET_KEY: 'sk_test_0123456789abcdef' })).toMatch(
      /^Configuration invalide\s: STRIPE_SECRET_KEY doit être une clé de mode live/,
    );
  });

  it('keeps the stand-ins without live payments: production on the embedded checkout, and development', () => {
    const { STRIPE_PAYMENT_LINKS: _links, STRIPE_WEBHOOK_SECRET: _secret, ...embedded } = live;
    expect(message(embedded)).toBeNull();
    expect(parseConfig({}).stripeSecretKey).toBeUndefined();
  });

  it('reads the agency’s social pages, none by default, and refuses a network’s home page or another site (decision 198)', () => {
    expect(parseConfig({}).social).toEqual({});
    expect(parseConfig({ SOCIAL_INSTAGRAM_URL: 'https://www.instagram.com/unionsincere' }).social).toEqual({
      instagram: 'https://www.instagram.com/unionsincere',
    });
    expect(() => parseConfig({ SOCIAL_FACEBOOK_URL: 'https://www.facebook.com/' })).toThrow(/SOCIAL_FACEBOOK_URL/);
    expect(() => parseConfig({ SOCIAL_TIKTOK_URL: 'https://example.com/@agence' })).toThrow(/tiktok\.com/);
    expect(() => parseConfig({ SOCIAL_FACEBOOK_URL: 'http://www.facebook.com/agence' })).toThrow(/https/);
  });
});
