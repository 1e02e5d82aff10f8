import type { MiddlewareHandler } from 'hono';

export interface SecurityHeadersOptions {
  /** The tag manager is allowed only when configured (and the SPA loads it only after consent). */
  gtmId?: string | undefined;
  /** Origin of the hosted scheduling page embedded by the wizard (Calendly), if any. */
  calendlyOrigin?: string | undefined;
  /** HSTS is sent only behind HTTPS. */
  https: boolean;
}

/** Pages that the site itself frames: the scheduling stand-in, like Calendly's inline widget. */
const FRAMED_BY_SITE = '/_local/booking';

function contentSecurityPolicy(options: SecurityHeadersOptions, frameAncestors: string): string {
  const gtm = options.gtmId ? ['https://www.googletagmanager.com'] : [];
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...gtm]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', ...(options.gtmId ? ['https://www.googletagmanager.com', 'https://*.google-analytics.com'] : [])]],
    [
      'connect-src',
      [
        "'self'",
        ...(options.gtmId ? ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'] : []),
      ],
    ],
    ['font-src', ["'self'"]],
    ['frame-src', ["'self'", ...(options.calendlyOrigin ? [options.calendlyOrigin] : [])]],
    ['frame-ancestors', [frameAncestors]],
    ['form-action', ["'self'"]],
    ['base-uri', ["'self'"]],
    ['object-src', ["'none'"]],
  ];
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

function headerSet(options: SecurityHeadersOptions, framedBySite: boolean): [string, string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(options, framedBySite ? "'self'" : "'none'")],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
    ['X-Frame-Options', framedBySite ? 'SAMEORIGIN' : 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ...(options.https ? [['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'] as [string, string]] : []),
  ];
}

/**
 * The security headers of every response, computed once at start-up, the first middleware of the
 * one request path (decision 104). They are set before the handler runs, so that a response built
 * by the context (`c.json`, `c.body`…) is created with them in one go; a response the handler
 * built itself (files, images, a held request's answer) gets them afterwards.
 */
export function securityHeaders(entriesFor: SecurityHeaderEntries): MiddlewareHandler {
  return async (c, next) => {
    const headers = entriesFor(c.req.path);
    for (const [name, value] of headers) c.header(name, value);
    await next();
    const response = c.res.headers;
    if (response.get('Content-Security-Policy') !== headers[0]?.[1]) {
      for (const [name, value] of headers) response.set(name, value);
    }
  };
}

export type SecurityHeaderEntries = (url: string) => readonly [string, string][];

/** The headers by path, computed once. */
export function securityHeaderEntries(options: SecurityHeadersOptions): SecurityHeaderEntries {
  const everywhere = headerSet(options, false);
  const framed = headerSet(options, true);
  return (url) => (url.startsWith(FRAMED_BY_SITE) ? framed : everywhere);
}
