import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { expect } from 'vitest';
import type { Database } from '#bff/db/database.ts';
import { CALENDLY_STAND_IN_KEY, STRIPE_STAND_IN_SECRET_KEY, standInSecret } from '#bff/db/stand-in-secrets.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, TEST_SITE, type TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

export type SecurityProduct = Awaited<ReturnType<typeof startTestProduct>>;

/** The error shape of the whole API. */
export function isErrorShape(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const error = (body as { error?: unknown }).error;
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && code.length > 0 && typeof message === 'string' && message.length > 0;
}

/**
 * A cheap fingerprint of everything a request could change: row count and latest `updated_at` of
 * every table of the product and of the embedded auth service, except the rate-limit counters
 * (a refused attempt is meant to count) and the embedded SMTP stand-in's inbox (`mailbox`, filled
 * asynchronously when mail queued by an earlier, accepted request is delivered).
 */
const digestQueries = new WeakMap<Database, Promise<string>>();

/**
 * The next transaction id: it only moves when something wrote (or tried to). Equal stamps mean
 * no write at all, so the full digest is only computed when the stamp moved.
 */
export async function writeStamp(database: Database): Promise<string> {
  const [row] = await database.query<{ x: string }>('select pg_snapshot_xmax(pg_current_snapshot())::text as x');
  return row?.x ?? '';
}

/** The parts of two digests that differ (for failure messages). */
export function digestDiff(before: string, after: string): string {
  const a = new Set(before.split('|'));
  const b = after.split('|');
  return b.filter((part) => !a.has(part)).join(', ');
}

export async function databaseDigest(database: Database): Promise<string> {
  let query = digestQueries.get(database);
  if (!query) {
    query = digestQuery(database);
    digestQueries.set(database, query);
  }
  const rows = await database.query<{ t: string; n: string; u: string | null }>(await query);
  return rows.map((r) => `${r.t}:${r.n}:${r.u ?? ''}`).join('|');
}

async function digestQuery(database: Database): Promise<string> {
  const tables = await database.query<{ schema: string; name: string; has_updated: boolean }>(
    `select t.table_schema as schema, t.table_name as name,
            exists (select 1 from information_schema.columns c
                    where c.table_schema = t.table_schema and c.table_name = t.table_name and c.column_name = 'updated_at') as has_updated
       from information_schema.tables t
      where t.table_schema in ('public', 'embedded_auth') and t.table_type = 'BASE TABLE'
        and t.table_name not in ('rate_limits', 'mailbox', 'schema_migrations', '__migrations')
      order by 1, 2`,
  );
  const parts = tables.map(
    (t) =>
      `select '${t.schema}.${t.name}' as t, count(*)::text as n, ${t.has_updated ? 'max(updated_at)::text' : "''"} as u from "${t.schema}"."${t.name}"`,
  );
  return parts.join(' union all ');
}

let members = 0;

/** A member who signed up through the API (session cookies in the agent). */
export async function signUpMember(product: SecurityProduct, gender: 'homme' | 'femme' = 'femme') {
  members += 1;
  const agent = product.agent();
  const email = `securite.${members}.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';
  const created = await signUp(agent, { context: 'init', email, role: gender, password });
  expect(created.status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id, email, password };
}

/**
 * `staff aal2` is an administrator; `counsellor` is a colleague with the `conseil` role (decision
 * 206), at aal2, to whom `member` is assigned (and not `other member`).
 */
export type CallerName = 'anonymous' | 'member' | 'other member' | 'disabled member' | 'staff aal1' | 'staff aal2' | 'counsellor';
export const CALLER_NAMES: CallerName[] = [
  'anonymous',
  'member',
  'other member',
  'disabled member',
  'staff aal1',
  'staff aal2',
  'counsellor',
];

export interface Callers {
  agents: Record<CallerName, TestAgent>;
  ids: Record<CallerName, string | null>;
}

/** The six callers of the authorisation matrix, each with its own session (and address). */
export async function makeCallers(product: SecurityProduct): Promise<Callers> {
  const member = await signUpMember(product);
  const other = await signUpMember(product, 'homme');
  const disabled = await signUpMember(product);
  const staff1 = await signInStaff(product);
  const staff2 = await signInStaff(product);
  await staff2.passTotp();
  const ban = await staff2.agent.post('/api/v1/auth/ban', { disable: true, uid: disabled.id });
  expect(ban.status).toBe(200);
  const counsellor = await signInStaff(product, { staffRole: 'conseil' });
  await counsellor.passTotp();
  const assigned = await staff2.agent.request('PUT', `/api/v1/dashboard/members/${member.id}/counsellor`, { counsellorId: counsellor.id });
  expect(assigned.status).toBe(200);
  return {
    agents: {
      anonymous: product.agent(),
      member: member.agent,
      'other member': other.agent,
      'disabled member': disabled.agent,
      'staff aal1': staff1.agent,
      'staff aal2': staff2.agent,
      counsellor: counsellor.agent,
    },
    ids: {
      anonymous: null,
      member: member.id,
      'other member': other.id,
      'disabled member': disabled.id,
      'staff aal1': staff1.id,
      'staff aal2': staff2.id,
      counsellor: counsellor.id,
    },
  };
}

/** Signs a body as Stripe does, with the stand-in's secret. */
export async function stripeSignature(product: SecurityProduct, payload: string): Promise<string> {
  const secret = await standInSecret(product.database.db, STRIPE_STAND_IN_SECRET_KEY, 'whsec_');
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) });
}

/** Signs a body as Calendly does (`Calendly-Webhook-Signature: t=…,v1=…`), with the stand-in's key. */
export async function calendlySignature(product: SecurityProduct, payload: string): Promise<string> {
  const key = await standInSecret(product.database.db, CALENDLY_STAND_IN_KEY, '');
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${payload}`).digest('hex')}`;
}

/** Sends a request in-process, as a server would (no cookie, no Origin). */
export function rawRequest(
  product: SecurityProduct,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
) {
  return product.app.request(`${TEST_SITE}${path}`, {
    method,
    headers: init.headers ?? {},
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
}

export { startTestProduct, TEST_SITE };
