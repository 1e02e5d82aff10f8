import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '#bff/http/errors.ts';
import { nodeFastPaths } from '#bff/http/node-fast-paths.ts';
import type { SecurityHeaderEntries } from '#bff/http/security-headers.ts';
import type { SiteFiles } from '#bff/http/site-pages.ts';

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

export interface StartingListenerOptions {
  securityHeaders: SecurityHeaderEntries;
  site?: SiteFiles | undefined;
  /** Requests held at most while the product starts (default 1,000); more get a 503. */
  maxWaiting?: number;
  /** How long a request is held before it gets a 503 (default 15 s). */
  maxWaitMs?: number;
}

const UNAVAILABLE = JSON.stringify(errorBody('SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.'));

/**
 * Node's listener while the product starts (decision 095). The server listens before the database
 * is open: a prerendered public page is answered at once from memory (as `nodeFastPaths` does once
 * started), and every other request is held, in order, until `ready` gives the product's own
 * listener. A request held too long, one past `maxWaiting`, and every held request when the
 * start-up fails (`fail`) get a 503 with the error shape, never a dropped connection.
 */
export function startingListener(options: StartingListenerOptions) {
  const maxWaiting = options.maxWaiting ?? 1000;
  const maxWaitMs = options.maxWaitMs ?? 15_000;
  let target: Listener | undefined;
  let failed = false;
  const waiting = new Set<{ incoming: IncomingMessage; outgoing: ServerResponse; timer: NodeJS.Timeout }>();

  const unavailable = (outgoing: ServerResponse) => {
    if (outgoing.headersSent || outgoing.destroyed) return;
    outgoing.writeHead(503, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(UNAVAILABLE)),
      'Retry-After': '5',
      'Cache-Control': 'no-store',
    });
    outgoing.end(UNAVAILABLE);
  };

  // Reached through `early` only, which the listener below calls only while there is no target.
  const hold: Listener = (incoming, outgoing) => {
    if (failed || waiting.size >= maxWaiting) {
      unavailable(outgoing);
      return;
    }
    const entry = {
      incoming,
      outgoing,
      timer: setTimeout(() => {
        waiting.delete(entry);
        unavailable(outgoing);
      }, maxWaitMs),
    };
    waiting.add(entry);
  };
  // Before the product is ready: pages from memory, the rest held (security headers set on both).
  const early = nodeFastPaths(hold, { securityHeaders: options.securityHeaders, site: options.site });

  return {
    /** For `createServer`; once ready, the server may call the product's listener directly instead. */
    listener: ((incoming, outgoing) => (target ?? early)(incoming, outgoing)) as Listener,
    /** How many requests are held now (tests read it). */
    get waiting() {
      return waiting.size;
    },
    /** The product is started: held requests go to its listener, in their order of arrival. */
    ready(listener: Listener) {
      target = listener;
      for (const entry of waiting) {
        clearTimeout(entry.timer);
        if (!entry.outgoing.destroyed) listener(entry.incoming, entry.outgoing);
      }
      waiting.clear();
    },
    /** The product could not start: held requests (and later ones) get a 503. */
    fail() {
      failed = true;
      for (const entry of waiting) {
        clearTimeout(entry.timer);
        unavailable(entry.outgoing);
      }
      waiting.clear();
    },
  };
}
