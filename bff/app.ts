import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { createApi } from '#bff/api/api.ts';
import type { ApiDeps } from '#bff/api/deps.ts';
import { errorBody, onApiError } from '#bff/http/errors.ts';
import { imageRoutes } from '#bff/images/image-route.ts';
import { mailboxPage } from '#bff/stand-ins/mailbox-page.ts';

export interface AppOptions extends ApiDeps {
  /** The embedded auth service's Hono app, mounted at /auth/v1 (absent with a hosted project). */
  embeddedAuth?: Hono | undefined;
  /** Serve the local mailbox page (embedded mail stand-in). */
  localMailbox?: boolean;
  /** Folder of the built SPA (`dist/client`); absent in API-only tests. */
  clientDir?: string | undefined;
}

/**
 * Assembles the whole product from its dependencies: security headers, the embedded stand-ins,
 * the product API, and the built SPA. `server.ts` only starts it; tests call it in-process.
 */
export function createApp(options: AppOptions) {
  const app = new Hono();
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        frameSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
      strictTransportSecurity: options.config.secureCookies ? 'max-age=63072000; includeSubDomains' : false,
      referrerPolicy: 'strict-origin-when-cross-origin',
      permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [], usb: [] },
      crossOriginEmbedderPolicy: false,
    }),
  );
  if (options.embeddedAuth) app.route('/auth/v1', options.embeddedAuth);
  if (options.localMailbox) app.route('/_local', mailboxPage(options.database.db));
  app.route('/api/v1', createApi(options));
  app.route('/', imageRoutes({ dataDir: options.config.dataDir, clientDir: options.clientDir }));
  app.all('/api/*', (c) => c.json(errorBody('NOT_FOUND', 'Ressource introuvable'), 404));

  if (options.clientDir && existsSync(options.clientDir)) {
    const clientDir = options.clientDir;
    const indexHtml = readFileSync(join(clientDir, 'index.html'), 'utf8');
    app.use(
      '/assets/*',
      serveStatic({ root: clientDir, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable') }),
    );
    app.use('*', serveStatic({ root: clientDir }));
    app.get('*', (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.html(indexHtml, 200);
    });
  }
  app.onError(onApiError);
  return app;
}
