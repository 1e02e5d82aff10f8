import type { IncomingMessage, ServerResponse } from 'node:http';
import { rawHeader } from '#bff/http/raw-header.ts';
import { type HtmlAnswer, prerenderedAnswer, type SiteFiles } from '#bff/http/site-pages.ts';

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

export interface FastPathsOptions {
  /** The security headers of a path (`securityHeaderEntries`). */
  securityHeaders: (url: string) => readonly [string, string][];
  /** The built site, when it is served. */
  site?: SiteFiles | undefined;
  /**
   * JSON answers by exact path for GET (decision 093): a function that answers from memory, or
   * gives undefined to leave the request to Hono.
   */
  json?: ReadonlyMap<string, (incoming: IncomingMessage) => { json: string; headers: Record<string, string> } | undefined>;
}

/** How many answers Node's listener gave itself, in this process (tests and benchmarks read them). */
export const fastPathCounts = { pages: 0, json: 0 };

/**
 * Wraps @hono/node-server's request listener (decision 090). Every response gets the security
 * headers from Node's own response object (Hono's `c.json` merges its headers over them), which
 * costs a fraction of setting them on WHATWG `Headers`; and a prerendered public page asked for
 * by its exact path is answered here, from memory, like a CDN would, without building a Request
 * and a Response for it. So are the JSON answers given in `json`, when they can be made from memory
 * alone (decision 093). Everything else goes to Hono unchanged.
 */
export function nodeFastPaths(listener: Listener, options: FastPathsOptions): Listener {
  // The whole header set of each page answer, built on its first request, as the flat
  // `[name, value, …]` list `writeHead` reads with an index (an object is walked with for…in).
  const pageHeaders = new WeakMap<object, { security: readonly [string, string][]; all: string[] }>();
  const headersOf = (answer: HtmlAnswer, security: readonly [string, string][]) => {
    let known = pageHeaders.get(answer);
    if (known?.security !== security) {
      const all = { ...Object.fromEntries(security), ...answer.headers, 'Content-Length': String(answer.wire.byteLength) };
      known = { security, all: Object.entries(all).flat() };
      pageHeaders.set(answer, known);
    }
    return known.all;
  };
  // The fixed headers of each JSON answer (security set and the answer's own headers, both shared
  // objects), as the same flat list; only Content-Length is added per request.
  const jsonHeaders = new WeakMap<readonly [string, string][], WeakMap<Record<string, string>, string[]>>();
  const jsonHeadersOf = (security: readonly [string, string][], own: Record<string, string>) => {
    let bySecurity = jsonHeaders.get(security);
    if (!bySecurity) {
      bySecurity = new WeakMap();
      jsonHeaders.set(security, bySecurity);
    }
    let list = bySecurity.get(own);
    if (!list) {
      list = Object.entries({ ...Object.fromEntries(security), 'Content-Type': 'application/json', ...own }).flat();
      bySecurity.set(own, list);
    }
    return list;
  };
  return (incoming, outgoing) => {
    const url = incoming.url ?? '/';
    const headers = options.securityHeaders(url);
    if (options.site && (incoming.method === 'GET' || incoming.method === 'HEAD')) {
      const answer = prerenderedAnswer(options.site, url, rawHeader(incoming, 'accept-encoding'));
      if (answer) {
        fastPathCounts.pages += 1;
        outgoing.writeHead(200, headersOf(answer, headers));
        outgoing.end(answer.wire);
        return;
      }
    }
    if (incoming.method === 'GET') {
      const json = options.json?.get(url)?.(incoming);
      if (json) {
        fastPathCounts.json += 1;
        outgoing.writeHead(200, [...jsonHeadersOf(headers, json.headers), 'Content-Length', String(Buffer.byteLength(json.json))]);
        outgoing.end(json.json);
        return;
      }
    }
    for (const [name, value] of headers) outgoing.setHeader(name, value);
    listener(incoming, outgoing);
  };
}
