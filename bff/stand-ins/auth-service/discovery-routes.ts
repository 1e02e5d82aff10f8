import { Hono } from 'hono';
import type { AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';

/** Public, unauthenticated endpoints: the signing keys, the settings (as configured), a health check. */
export function discoveryRoutes(deps: AuthDeps) {
  return new Hono()
    .get('/.well-known/jwks.json', (c) => {
      // supabase-js caches the set for ten minutes; so may any proxy.
      c.header('Cache-Control', 'public, max-age=600');
      return c.json({ keys: [deps.key.publicJwk] }, 200);
    })
    .get('/settings', (c) =>
      c.json(
        {
          external: { anonymous_users: false, email: true, phone: false },
          disable_signup: deps.config.disableSignup,
          mailer_autoconfirm: true,
          phone_autoconfirm: false,
          sms_provider: '',
          saml_enabled: false,
        },
        200,
      ),
    )
    .get('/health', (c) => c.json({ version: 'embedded', name: 'GoTrue', description: 'Embedded Supabase Auth subset' }, 200));
}
