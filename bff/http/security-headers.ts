import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

export interface SecurityHeadersOptions {
  /** The tag manager is allowed only when configured (and the SPA loads it only after consent). */
  gtmId?: string | undefined;
  /** Origin of the hosted scheduling page embedded by the wizard (Calendly), if any. */
  calendlyOrigin?: string | undefined;
  /** HSTS is sent only behind HTTPS. */
  https: boolean;
}

type HonoSecureHeadersOptions = NonNullable<Parameters<typeof secureHeaders>[0]>;

/** Pages that the site itself frames: the scheduling stand-in, like Calendly's inline widget. */
const FRAMED_BY_SITE = '/_local/booking';

/**
 * Our policy as options of Hono's `secureHeaders` (decision 215): the content security policy
 * (the tag manager and the scheduling page only when configured), who may frame the page, the
 * referrer and permissions policies, HSTS behind HTTPS only. Hono's other defaults are kept
 * (`Origin-Agent-Cluster`, `X-DNS-Prefetch-Control`, `X-Download-Options`,
 * `X-Permitted-Cross-Domain-Policies`, `X-XSS-Protection: 0`).
 */
export function secureHeadersOptions(options: SecurityHeadersOptions, framedBySite: boolean): HonoSecureHeadersOptions {
  const gtm = options.gtmId ? ['https://www.googletagmanager.com'] : [];
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...gtm],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', ...(options.gtmId ? ['https://www.googletagmanager.com', 'https://*.google-analytics.com'] : [])],
      connectSrc: [
        "'self'",
        ...(options.gtmId ? ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'] : []),
      ],
      fontSrc: ["'self'"],
      frameSrc: ["'self'", ...(options.calendlyOrigin ? [options.calendlyOrigin] : [])],
      frameAncestors: [framedBySite ? "'self'" : "'none'"],
      formAction: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
    xContentTypeOptions: true,
    referrerPolicy: 'strict-origin-when-cross-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
    xFrameOptions: framedBySite ? 'SAMEORIGIN' : 'DENY',
    crossOriginOpenerPolicy: true,
    crossOriginResourcePolicy: true,
    strictTransportSecurity: options.https ? 'max-age=63072000; includeSubDomains' : false,
  };
}

/** The headers Hono's `secureHeaders` sets with these options, read once from an answer of its own. */
async function headersOf(options: HonoSecureHeadersOptions): Promise<readonly (readonly [string, string])[]> {
  const answer = await new Hono()
    .use(secureHeaders(options))
    .get('/', (c) => c.body(null, 204))
    .request('/');
  return Object.freeze([...answer.headers].map(([name, value]) => Object.freeze([name, value] as [string, string])));
}

/**
 * The security headers of every response, the first middleware of the one request path
 * (decision 104), with the entries Hono's `secureHeaders` makes (`securityHeaderEntries`). What
 * this wrapper adds to Hono's middleware: the entries are computed once at start-up, not per
 * request; they are set before the handler runs, so that a response built by the context
 * (`c.json`, `c.body`…) is created with them in one go, and only a response the handler built
 * itself (files, images, a held request's answer) gets them afterwards; they depend on the path
 * (the framed scheduling stand-in); and the same entries go into the prerendered pages' stored
 * answers (`prerenderedPages`).
 */
export function securityHeaders(entriesFor: SecurityHeaderEntries): MiddlewareHandler {
  return async (c, next) => {
    const headers = entriesFor(c.req.path);
    for (const [name, value] of headers) c.header(name, value);
    await next();
    const response = c.res.headers;
    const csp = headers.find(([name]) => name.toLowerCase() === 'content-security-policy')?.[1];
    if (response.get('Content-Security-Policy') !== csp) {
      for (const [name, value] of headers) response.set(name, value);
    }
  };
}

export type SecurityHeaderEntries = (url: string) => readonly (readonly [string, string])[];

/** The headers by path, made once by Hono's `secureHeaders` from our policy. */
export async function securityHeaderEntries(options: SecurityHeadersOptions): Promise<SecurityHeaderEntries> {
  const [everywhere, framed] = await Promise.all([
    headersOf(secureHeadersOptions(options, false)),
    headersOf(secureHeadersOptions(options, true)),
  ]);
  return (url) => (url.startsWith(FRAMED_BY_SITE) ? framed : everywhere);
}
