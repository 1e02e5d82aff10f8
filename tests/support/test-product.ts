import type { DestinationStream } from 'pino';
import { type Clock, systemClock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';

export const TEST_SITE = 'http://localhost:3999';

/** The site and agency the agency's mails name in a test product. */
export function testAgencySite(): AgencyMailSite {
  return { siteUrl: TEST_SITE, agency: parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE }).agency };
}

/** The whole product in-process on a fresh database, with the embedded stand-ins. */
export async function startTestProduct(
  options: { clock?: Clock; env?: Record<string, string>; logDestination?: DestinationStream; clientDir?: string } = {},
): Promise<Product & { database: Database; agent(): TestAgent; stop(): Promise<void> }> {
  // The embedded auth service's tables come with the template: startProduct's migrate finds nothing to do.
  const database = await openTestDatabase([authMigrations]);
  // Each test agent is a distinct visitor with its own address (X-Forwarded-For, trusted here).
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: '3999',
    PUBLIC_SITE_URL: TEST_SITE,
    DEMO_DATA: 'false',
    TRUST_PROXY: 'true',
    ...options.env,
  });
  const product = await startProduct(config, {
    database,
    listen: false,
    clientDir: options.clientDir ?? '/nonexistent',
    clock: options.clock ?? systemClock,
    ...(options.logDestination ? { logDestination: options.logDestination } : {}),
  });
  return {
    ...product,
    agent: () => new TestAgent(product.app, database),
    async stop() {
      await product.close();
      await database.close();
    },
  };
}

/** A product started by `startTestProduct`. */
export type TestProduct = Awaited<ReturnType<typeof startTestProduct>>;

interface Fetchable {
  request(input: string, init?: RequestInit): Response | Promise<Response>;
}

/** A browser-like client: keeps cookies between requests and sends same-origin headers. */
let visitors = 0;

export class TestAgent {
  readonly cookies = new Map<string, string>();
  /** A documentation-range address (RFC 5737): only ever a header value, never contacted. */
  readonly address: string;
  constructor(
    private readonly app: Fetchable,
    /** The product's database, for test helpers that read what a person would read in their mailbox. */
    readonly database?: Database,
  ) {
    visitors += 1;
    this.address = `198.51.${Math.floor(visitors / 250) % 250}.${(visitors % 250) + 1}`;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    // A form (a file upload) is sent as multipart/form-data, its boundary set by the request itself.
    const form = body instanceof FormData;
    const init: RequestInit = {
      method,
      headers: {
        'x-forwarded-for': this.address,
        ...(this.cookies.size > 0 ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(body !== undefined ? { ...(form ? {} : { 'content-type': 'application/json' }), origin: TEST_SITE } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: form ? body : typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    };
    const response = await this.app.request(`${TEST_SITE}${path}`, init);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (name) {
        if (expired) this.cookies.delete(name.trim());
        else this.cookies.set(name.trim(), value);
      }
    }
    return response;
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, undefined, headers);
  post = (path: string, body: unknown, headers?: Record<string, string>) => this.request('POST', path, body, headers);

  async json<T = Record<string, unknown>>(response: Response | Promise<Response>): Promise<T> {
    return (await (await response).json()) as T;
  }
}
