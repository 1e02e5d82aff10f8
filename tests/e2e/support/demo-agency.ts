import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { migrationSetsOf } from '#bff/auth/sessions-table.ts';
import { parseConfig } from '#bff/config.ts';
import { seedFromTemplate } from '#bff/db/pglite-template.ts';
import { members } from '#bff/db/schema.ts';
import { DEMO_ACCOUNTS } from '#bff/demo/seed.ts';
import { type Product, startProduct } from '#bff/start.ts';

/**
 * The product as `npm start` runs it for a newcomer, with the demo agency (decision 207), on
 * `port` and a fresh data folder: the member file's walk and timing script (decision 209) open
 * the demo's members as the demo administrator does.
 */
export async function startDemoAgencyProduct(port: number, name: string): Promise<Product> {
  const dataDir = mkdtempSync(join(tmpdir(), `union-${name}-`));
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    DEMO_DATA: 'true',
    DEMO_AGENCY: 'true',
  });
  const seeding = seedFromTemplate(join(dataDir, 'pglite'), migrationSetsOf(config, authMigrations));
  return startProduct(config, { clientDir: join(process.cwd(), 'dist', 'client'), beforeDatabase: seeding });
}

const DEMO_ADMINISTRATOR = DEMO_ACCOUNTS.find((a) => a.kind === 'staff' && !('staffRole' in a)) as (typeof DEMO_ACCOUNTS)[number];

/** Signs `request` in as the demo administrator, enrolling and passing its TOTP factor (first use only). */
export async function signInDemoAdministrator(request: APIRequestContext, origin: string): Promise<void> {
  const headers = { origin };
  const signin = await request.post('/api/v1/auth/signin', {
    data: { email: DEMO_ADMINISTRATOR.email, password: DEMO_ADMINISTRATOR.password },
    headers,
  });
  if (signin.status() !== 200) throw new Error(`connexion de l’administration démo : ${signin.status()} ${await signin.text()}`);
  const enrol = await request.post('/api/v1/auth/mfa/enroll', { data: {}, headers });
  if (enrol.status() !== 201) throw new Error(`second facteur : ${enrol.status()} ${await enrol.text()}`);
  const factor = (await enrol.json()) as { factorId: string; secret: string };
  const code = new TOTP({ secret: Secret.fromBase32(factor.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  const verified = await request.post('/api/v1/auth/mfa/verify', { data: { factorId: factor.factorId, code }, headers });
  if (verified.status() !== 200) throw new Error(`second facteur : ${verified.status()} ${await verified.text()}`);
}

/** The id of the demo member signed up with `email`. */
export async function demoMemberId(product: Product, email: string): Promise<string> {
  const [row] = await product.database.db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.email, email), eq(members.role, 'member')))
    .limit(1);
  if (!row) throw new Error(`membre démo introuvable : ${email}`);
  return row.id;
}
