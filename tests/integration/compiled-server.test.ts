import { DEMO_ACCOUNTS } from '#bff/demo/seed.ts';
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { openDatabase } from '#bff/db/database.ts';
import { appMigrations, type MigrationSet, migrate } from '#bff/db/migrate.ts';
import { ensurePgliteTemplate, seedFromTemplate, templateFits } from '#bff/db/pglite-template.ts';
import { freePort } from '#tests/faults/support.ts';
import { type BuiltServer, buildServer, LAZY_PACKAGES, ROOT } from '../../scripts/build-server.ts';

/**
 * The compiled server (decision 080): `scripts/build-server.ts` bundles bff/server.ts into a
 * temporary folder of dist/ (inside the project, so that node_modules resolves as for
 * dist/server), which is started as `npm start` starts it — from another working directory, on
 * an empty DATA_DIR — and must find its SQL migrations, content/ and public/, answer, and stop
 * cleanly. Also the PGlite template a new data folder starts from.
 */

const migrationCount = (sets: MigrationSet[]) =>
  sets.reduce((n, set) => n + readdirSync(set.dir).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).length, 0);

describe('the compiled server', () => {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const outdir = mkdtempSync(join(ROOT, 'dist', '.compiled-server-test-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'us-compiled-data-'));
  const cwd = mkdtempSync(join(tmpdir(), 'us-compiled-cwd-'));
  let built: BuiltServer;
  let child: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    built = await buildServer({ outdir, sourcemap: false });
  }, 60_000);

  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    for (const dir of [outdir, dataDir, cwd]) rmSync(dir, { recursive: true, force: true });
  });

  it('bundles bff/ and machines/ only, and loads pdf-lib, stripe, sharp, qrcode and nodemailer at their first use', () => {
    expect(existsSync(built.file)).toBe(true);
    expect(built.inputs).toContain('bff/server.ts');
    expect(built.inputs.every((input) => /^(bff|machines)\//.test(input))).toBe(true);
    for (const name of LAZY_PACKAGES) {
      expect(built.external, name).not.toContain(name);
      expect(built.lazy, name).toContain(name);
    }
    expect(built.external).toEqual(expect.arrayContaining(['@electric-sql/pglite', 'hono']));
  });

  it('needs at run time only packages of `dependencies`: `npm prune --omit=dev` leaves it whole', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    /** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; built-ins are not packages. */
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const needed = [...new Set([...built.external, ...built.lazy].filter((name) => !name.startsWith('node:')).map(packageOf))];
    expect(needed.length).toBeGreaterThan(10);
    expect(needed.filter((name) => !Object.hasOwn(manifest.dependencies, name))).toEqual([]);
    // Build and test tools stay out of what production installs.
    for (const tool of ['tsx', 'vite', 'vitest', 'lenis']) expect(Object.keys(manifest.dependencies)).not.toContain(tool);
  });

  it('starts from another folder on an empty DATA_DIR, migrates, serves, and stops cleanly', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [built.file], {
      cwd,
      // LOG_LEVEL: Vitest's NODE_ENV=test would make the server's log (its start-up lines) silent.
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_SITE_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
        // The demo accounts only: the agency's forty members have their own test (bff/demo/agency.test.ts).
        DEMO_AGENCY: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      output += String(chunk);
    });
    const server = child;
    // Both start-up lines: pino writes asynchronously, so the second may come in a later chunk.
    const started = () => output.includes('Union Sincère est prêt') && output.includes('Comptes de démonstration');
    for (let i = 0; !started(); i += 1) {
      if (server.exitCode !== null) throw new Error(`the compiled server exited (${server.exitCode}):\n${output}`);
      if (i > 600) throw new Error(`the compiled server did not start in 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(output).toContain('Comptes de démonstration');

    const health = await fetch(`${url}/api/v1/health`);
    expect(health.status).toBe(200);
    const unknown = await fetch(`${url}/api/v1/no-such-endpoint`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error?: { code?: string } }).error?.code).toBeTruthy();
    // content/ (content-store) found from the bundle's folder, rendered at the first request.
    const page = await fetch(`${url}/api/v1/content/query?collection=pages&slug=accueil`);
    expect(page.status).toBe(200);
    expect(((await page.json()) as { html: string }).html).toContain('<h2 id=');
    // public/ (image route) found, and sharp loaded at its first use.
    const image = await fetch(`${url}/_image?url=/images/hero.svg&w=320&q=75`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    // stripe loaded at its first use: a forged signature is refused by the real library.
    const webhook = await fetch(`${url}/api/v1/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: '{}',
    });
    expect(webhook.status).toBe(400);
    expect(((await webhook.json()) as { error: { code: string } }).error.code).toBe('INVALID_SIGNATURE');
    // The built site when there is one (dist/client), else unknown paths are 404.
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(existsSync(join(ROOT, 'dist', 'client', 'index.html')) ? 200 : 404);

    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);

    const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
    try {
      const [applied] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(applied?.n).toBe(migrationCount([appMigrations, authMigrations]));
      const [demo] = await database.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM members WHERE email LIKE '%@demo.union-sincere.fr'",
      );
      expect(demo?.n).toBe(DEMO_ACCOUNTS.length);
    } finally {
      await database.close();
    }
  }, 90_000);
});

describe('the PGlite template a new data folder starts from', () => {
  const work = mkdtempSync(join(tmpdir(), 'us-template-'));
  const template = join(work, 'template');
  const sets = [appMigrations, authMigrations];
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('gives a migrated cluster, and is not used once a migration it holds has changed', async () => {
    expect(await ensurePgliteTemplate(sets, template)).toBe('created');
    expect(await ensurePgliteTemplate(sets, template)).toBe('kept');

    const pgliteDir = join(work, 'data', 'pglite');
    expect(await seedFromTemplate(pgliteDir, sets, template)).toBe(true);
    // A folder that is not empty is never touched.
    expect(await seedFromTemplate(pgliteDir, sets, template)).toBe(false);
    const database = await openDatabase({ dataDir: pgliteDir });
    try {
      expect(await migrate(database, sets)).toEqual([]);
      const [members] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM members');
      expect(members?.n).toBe(0);
      const [keys] = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM embedded_auth.signing_keys');
      expect(keys?.n).toBe(0);
    } finally {
      await database.close();
    }

    // Other sets, an edited migration: not used (PGlite runs initdb as before).
    expect(templateFits([appMigrations], template)).toBe(false);
    const edited: MigrationSet = { name: 'app', dir: join(work, 'app-migrations') };
    cpSync(appMigrations.dir, edited.dir, { recursive: true });
    expect(templateFits([edited, authMigrations], template)).toBe(true);
    const first = readdirSync(edited.dir).sort()[0] as string;
    writeFileSync(join(edited.dir, first), '-- changed\n', { flag: 'a' });
    expect(templateFits([edited, authMigrations], template)).toBe(false);
    expect(await seedFromTemplate(join(work, 'other', 'pglite'), [edited, authMigrations], template)).toBe(false);
    // A migration added after the build keeps the template usable: migrate applies the new one.
    const added: MigrationSet = { name: 'app', dir: join(work, 'app-migrations-added') };
    cpSync(appMigrations.dir, added.dir, { recursive: true });
    writeFileSync(join(added.dir, '9999_later.sql'), 'CREATE TABLE later_table (id int);\n');
    expect(templateFits([added, authMigrations], template)).toBe(true);
  }, 90_000);
});
