import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '#bff/config.ts';

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
    [{ PORT: 'trois mille' }, /^Configuration invalide : PORT doit être un numéro de port/],
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
