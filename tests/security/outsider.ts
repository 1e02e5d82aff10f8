import { expect } from 'vitest';
import type { Clock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** A password that passes the product's rules, for the members these attacks aim at. */
export const MEMBER_PASSWORD = 'bismillah-Nour-2026-jardin';

export interface OutsideProduct {
  product: Product;
  database: Database;
  /** `http://127.0.0.1:<port>`: the product's own socket. */
  base: string;
  /** A request from outside: plain fetch, only the headers given (no Origin, no cookie, no forwarded address). */
  outside(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** A member registered as the site does it (in-process), returning the address and the agent. */
  registeredMember(gender?: 'homme' | 'femme'): Promise<{ email: string; agent: TestAgent }>;
  stop(): Promise<void>;
}

let members = 0;

/** The whole product listening on 127.0.0.1 (a free port), to be attacked over HTTP. */
export async function startOutsideProduct(env: Record<string, string> = {}, options: { clock?: Clock } = {}): Promise<OutsideProduct> {
  const database = await openTestDatabase();
  const config = parseConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'false', ...env });
  const product = await startProduct(config, { database, clientDir: '/nonexistent', ...(options.clock ? { clock: options.clock } : {}) });
  const base = `http://127.0.0.1:${product.port}`;
  return {
    product,
    database,
    base,
    outside(path, init = {}) {
      const json = init.body !== undefined && typeof init.body !== 'string';
      return fetch(`${base}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...init.headers },
        ...(init.body === undefined ? {} : { body: json ? JSON.stringify(init.body) : (init.body as string) }),
        redirect: 'manual',
      });
    },
    async registeredMember(gender = 'femme') {
      members += 1;
      const email = `cible.${members}.${Date.now()}@example.fr`;
      const agent = new TestAgent(product.app, database);
      const created = await signUp(agent, {
        context: 'init',
        email,
        role: gender,
        password: MEMBER_PASSWORD,
      });
      expect(created.status).toBe(201);
      return { email, agent };
    },
    async stop() {
      await product.close();
      await database.close();
    },
  };
}

/** How many times each status came back. */
export function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}
