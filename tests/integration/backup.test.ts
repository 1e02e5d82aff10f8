import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { adminClient } from '#bff/auth/supabase.ts';
import { openDatabase } from '#bff/db/database.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import { contractCopies } from '#bff/db/privacy-schema.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { recordConsent } from '#bff/privacy/consents.ts';
import { type openTestDatabase, openTestPglite } from '#tests/support/test-database.ts';
import { startTestProduct } from '#tests/support/test-product.ts';
import { backupDatabase, decodeBackup, encodeBackup, restoreDatabase, rowCounts } from '../../scripts/backup-core.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** Every row of every table, as JSON text, table by table (to compare a database before and after). */
async function snapshot(database: Awaited<ReturnType<typeof openTestDatabase>>) {
  const backup = await backupDatabase(database);
  return Object.fromEntries(backup.tables.map((t) => [t.name, JSON.stringify(t.rows)]));
}

let product: Awaited<ReturnType<typeof startTestProduct>>;
let memberId: string;
const email = `sauvegarde.${Date.now()}@example.fr`;

beforeAll(async () => {
  product = await startTestProduct();
  const agent = product.agent();
  expect(
    (
      await agent.post('/api/v1/subscription/pre-subscription', {
        gender: 'homme',
        email,
        age: 35,
        zip_code: '13001',
        city: 'Marseille',
        consent: true,
      })
    ).status,
  ).toBe(201);
  expect((await signUp(agent, { context: 'init', email, role: 'homme', password: 'bismillah-2026' })).status).toBe(201);
  memberId = (await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'))).id;
  const profil = await agent.post('/api/v1/user/update', {
    context: 'profil',
    firstName: 'Youssef',
    lastName: 'Sauvegardé',
    birthDate: '1990-02-03',
    phone: '06 11 22 33 44',
    postcode: '13001',
    city: 'Marseille',
    maritalStatus: 'celibataire',
    childrenCount: 0,
    profession: 'Ingénieur',
    prayerPractice: 'reguliere',
    practiceDetails: 'Précisions « accentuées » et guillemets " \\ ',
    sensitiveDataConsent: true,
  });
  expect(profil.status).toBe(200);
  await recordConsent(product.database.db, {
    anonymousId: '00000000-0000-4000-8000-0000000000aa',
    kind: 'cookies',
    given: true,
    at: new Date(),
  });
  await product.database.db
    .insert(contractCopies)
    .values({ memberId, signedAt: new Date(), sha256: 'b'.repeat(64), pdf: new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 255, 10, 13]) });
  await product.database.db.execute(sql`INSERT INTO direct_messages (member_id, subject, body) VALUES (${memberId}, 'Objet', 'Corps')`);
  await product.flushMail();
});
afterAll(() => product.stop());

describe('backup and restore', () => {
  it('backs up, wipes, restores and finds every record again (same engine)', async () => {
    const before = await snapshot(product.database);
    const counts = await rowCounts(product.database);
    expect(counts['public.members']).toBe(1);
    expect(counts['public.onboarding_events']).toBe(1);
    expect(counts['embedded_auth.users']).toBe(1);
    expect(counts['public.consents']).toBe(3);

    const file = encodeBackup(await backupDatabase(product.database));
    const backup = decodeBackup(file);

    // Wipe: the same database emptied, then the backup loaded back (--replace).
    await expect(restoreDatabase(product.database, backup)).rejects.toThrow(/--replace/);
    await product.database.db.execute(sql`TRUNCATE members, pre_subscriptions, consents, mail_outbox CASCADE`);
    expect((await rowCounts(product.database))['public.members']).toBe(0);
    await restoreDatabase(product.database, backup, { replace: true });
    expect(await snapshot(product.database)).toEqual(before);

    // The product works on the restored data: the member signs in and reads their settings,
    // bytes come back identical, and sequences continue after the restored ids.
    const agent = product.agent();
    expect((await agent.post('/api/v1/auth/signin', { email, password: 'bismillah-2026' })).status).toBe(200);
    expect((await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'))).id).toBe(memberId);
    const [copy] = await product.database.db.select().from(contractCopies).where(eq(contractCopies.memberId, memberId));
    expect([...(copy?.pdf ?? [])]).toEqual([0x25, 0x50, 0x44, 0x46, 0, 255, 10, 13]);
    const { data } = await adminClient(product.auth).auth.admin.getUserById(memberId);
    expect(data.user?.email).toBe(email);
    const [row] = await product.database.db.select().from(members).where(eq(members.id, memberId));
    expect((row?.profile as { practiceDetails: string } | undefined)?.practiceDetails).toBe('Précisions « accentuées » et guillemets " \\');
    const update = await agent.post('/api/v1/user/update', {
      context: 'questionnaire',
      soughtPractice: 'reguliere',
      soughtAgeMin: 25,
      soughtAgeMax: 35,
      soughtRegions: ['occitanie'],
      soughtFamilySituations: ['celibataire'],
      acceptsChildren: false,
      soughtProfessionalSituation: 'indifferent',
      wantsChildren: 'oui',
      readyToRelocate: false,
      requiredCriteria: [],
      otherQualities: 'Patience et bienveillance au quotidien.',
    });
    expect(update.status).toBe(200);
    const events = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(eq(onboardingEvents.memberId, memberId))
      .orderBy(onboardingEvents.id);
    expect(events.map((e) => e.id)).toEqual([1, 2]);
  });

  it('restores into a new, empty database (PGlite; from PostgreSQL when DATABASE_URL is set), and refuses a different migration history', async () => {
    const backup = await backupDatabase(product.database);
    const before = await snapshot(product.database);
    const target = await openTestPglite([authMigrations]);
    await restoreDatabase(target, backup);
    expect(await snapshot(target)).toEqual(before);
    await target.close();

    const partial = await openTestPglite();
    await expect(restoreDatabase(partial, backup)).rejects.toThrow(/migrations/);
    await partial.close();
  }, 120_000);

  it('runs as the npm scripts do (db:backup then db:restore into another data folder)', async () => {
    const source = mkdtempSync(join(tmpdir(), 'us-backup-src-'));
    const target = mkdtempSync(join(tmpdir(), 'us-backup-dst-'));
    try {
      // A data folder with data: migrated and filled from this product's backup.
      const seeded = await openDatabase({ dataDir: join(source, 'pglite') });
      await migrate(seeded, [appMigrations, authMigrations]);
      await restoreDatabase(seeded, await backupDatabase(product.database));
      const expected = await snapshot(seeded);
      await seeded.close();

      const env = { ...process.env, DATABASE_URL: '', NODE_ENV: 'test' };
      const out = join(source, 'sauvegarde.json.gz');
      const run = (script: string, args: string[], dataDir: string) =>
        execFileSync(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...env, DATA_DIR: dataDir }, encoding: 'utf8' });
      expect(run('scripts/db-backup.ts', ['--out', out], source)).toMatch(/Sauvegarde écrite/);
      expect(readFileSync(out).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      expect(run('scripts/db-restore.ts', ['--file', out], target)).toMatch(/restaurée/);

      const restored = await openDatabase({ dataDir: join(target, 'pglite') });
      expect(await snapshot(restored)).toEqual(expected);
      await restored.close();
    } finally {
      rmSync(source, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  }, 120_000);
});
