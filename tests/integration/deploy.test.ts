import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#tests/faults/support.ts';
import { agencyEnv } from '#machines/public-site/agency-identity.ts';
import { type BuiltServer, buildServer, ROOT } from '../../scripts/build-server.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';

/**
 * What docs/deploy.md names, checked here as far as this machine can run it: the service unit's
 * own command and environment start the compiled server (refusing the stand-ins, a missing
 * public address and a missing agency identity in production, serving once allowed, stopping on SIGTERM); the container image
 * definition and the reverse-proxy example keep the promises the guide makes of them. The image
 * itself is built and run by `npm run test:image` (scripts/image-check.ts, decision 144), which
 * `.ci/run` runs wherever podman runs.
 */
const DEPLOY = join(ROOT, 'docs', 'deploy');
const unitText = readFileSync(join(DEPLOY, 'union-sincere.service'), 'utf8');
const containerfile = readFileSync(join(DEPLOY, 'Containerfile'), 'utf8');
const nginx = readFileSync(join(DEPLOY, 'nginx.conf'), 'utf8');

/** `Key=value` lines of the unit, in order (repeated keys kept). */
const unitLines = unitText
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => /^[A-Z][A-Za-z]+=/.test(line))
  .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
const unitEnv = Object.fromEntries(
  unitLines.filter(([key]) => key === 'Environment').map(([, value]) => value.split(/=(.*)/s).slice(0, 2) as [string, string]),
);
const execStart = (unitLines.find(([key]) => key === 'ExecStart')?.[1] ?? '').split(/\s+/);
/** The agency's identity, as /etc/union-sincere/env gives it (decision 106). */
const AGENCY = agencyEnv(SAMPLE_AGENCY);

describe('the service unit', () => {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const outdir = mkdtempSync(join(ROOT, 'dist', '.deploy-test-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'us-deploy-data-'));
  let built: BuiltServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    built = await buildServer({ outdir, sourcemap: false });
  }, 60_000);
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of [outdir, dataDir]) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the unit's ExecStart (with this test's bundle for dist/server/server.mjs) and its environment. */
  async function startAsTheUnit(extra: Record<string, string>) {
    expect(execStart[0]).toMatch(/\/node$/);
    expect(execStart[1]).toBe('dist/server/server.mjs');
    const port = await freePort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      ...unitEnv,
      PORT: String(port),
      DATA_DIR: dataDir,
      ...extra,
    };
    let output = '';
    const child = spawn(process.execPath, [built.file], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    child.stdout?.on('data', (d) => {
      output += String(d);
    });
    child.stderr?.on('data', (d) => {
      output += String(d);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, port, exited, output: () => output };
  }

  it('runs the compiled server in production, on loopback behind the proxy, with its data outside the tree', () => {
    expect(unitEnv).toMatchObject({ NODE_ENV: 'production', HOST: '127.0.0.1', TRUST_PROXY: 'true' });
    expect(unitLines).toContainEqual(['EnvironmentFile', '/etc/union-sincere/env']);
    expect(unitLines).toContainEqual(['KillSignal', 'SIGTERM']);
    expect(unitLines.find(([key]) => key === 'User')?.[1]).not.toBe('root');
  });

  it('refuses to start with the stand-ins, then without the public address, then without the agency identity, each in one French line', async () => {
    const stand = await startAsTheUnit({});
    expect(await stand.exited).toBe(1);
    expect(stand.output().trim()).toMatch(/^Configuration invalide\s: SUPABASE_URL est requis en production/);
    const address = await startAsTheUnit({ ALLOW_EMBEDDED_IN_PRODUCTION: 'true' });
    expect(await address.exited).toBe(1);
    expect(address.output().trim()).toMatch(/^Configuration invalide\s: PUBLIC_SITE_URL est requis en production/);
    expect(address.output().trim().split('\n')).toHaveLength(1);
    const identity = await startAsTheUnit({ ALLOW_EMBEDDED_IN_PRODUCTION: 'true', PUBLIC_SITE_URL: 'https://www.union-sincere.fr' });
    expect(await identity.exited).toBe(1);
    expect(identity.output().trim()).toMatch(/^Configuration invalide\s: AGENCY_LEGAL_NAME est requis en production/);
  }, 30_000);

  it('serves once configured, without demo accounts, and stops cleanly on SIGTERM', async () => {
    const started = await startAsTheUnit({
      ALLOW_EMBEDDED_IN_PRODUCTION: 'true',
      PUBLIC_SITE_URL: 'https://www.union-sincere.fr',
      ...AGENCY,
    });
    let health = 0;
    for (let i = 0; i < 300 && health !== 200; i += 1) {
      if (started.child.exitCode !== null) throw new Error(started.output());
      health = await fetch(`http://127.0.0.1:${started.port}/api/v1/health`).then(
        (r) => r.status,
        () => 0,
      );
      if (health !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health).toBe(200);
    expect(started.output()).not.toContain('Comptes de démonstration');
    // JSON log lines on stdout (decision 107): the start-up line, then one line per API request.
    expect((await fetch(`http://127.0.0.1:${started.port}/api/v1/ready`)).status).toBe(200);
    // The start-up line comes once startProduct has returned, which on a loaded machine can be after
    // the API already answers (it listens first, decision 091): wait for both lines.
    const both = () => started.output().includes('"path":"/api/v1/ready"') && started.output().includes('est prêt');
    for (let i = 0; i < 100 && !both(); i += 1) await new Promise((r) => setTimeout(r, 100));
    const logged = started
      .output()
      .split('\n')
      .slice(0, -1) // whole lines only: the last one may still be being written
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(expect.objectContaining({ level: 'info', msg: 'Union Sincère est prêt' }));
    expect(logged).toContainEqual(expect.objectContaining({ level: 'info', msg: 'requête', path: '/api/v1/ready', status: 200 }));
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  }, 60_000);
});

describe('the container image definition', () => {
  it('is multi-stage, runs the compiled server as a non-root user on 0.0.0.0 with a data volume and a health check', () => {
    expect(containerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    // Both stages start from the official Node 24 image unless `--build-arg NODE_IMAGE` names another.
    expect(containerfile).toMatch(/^ARG NODE_IMAGE=docker\.io\/library\/node:24-bookworm-slim$/m);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the Containerfile's own `${NODE_IMAGE}`, not a template.
    expect(containerfile.match(/^FROM .*/gm)?.every((line) => line.startsWith('FROM ${NODE_IMAGE}'))).toBe(true);
    expect(containerfile).toMatch(/^USER node$/m);
    expect(containerfile).toMatch(/HOST=0\.0\.0\.0/);
    expect(containerfile).toMatch(/DATA_DIR=\/data/);
    expect(containerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(containerfile).toMatch(/^HEALTHCHECK .*\n?.*\/api\/v1\/health/m);
    expect(containerfile).toMatch(/^CMD \["node", "dist\/server\/server\.mjs"\]$/m);
  });

  it('copies only folders the repository has, and the ones the server reads at run time', () => {
    const copied = [...containerfile.matchAll(/^COPY --from=build \/app\/(\S+)/gm)].map((m) => m[1] as string);
    for (const path of copied.filter((p) => p !== 'node_modules' && p !== 'dist')) expect(existsSync(join(ROOT, path)), path).toBe(true);
    // SQL migrations (bff/), the site's copy (content/), public files and the built tree.
    expect(copied).toEqual(expect.arrayContaining(['bff', 'content', 'public', 'dist', 'node_modules']));
    expect(readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['node_modules', 'dist', '.data']),
    );
  });

  it('builds with `npm run build`, whose PGlite template is made with WebAssembly’s optimising tier off (decision 161)', () => {
    expect(containerfile).toMatch(/^RUN npm run build && npm prune --omit=dev/m);
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // Node 24's V8 aborted once at this step (`jit_page_->allocations_.erase(addr) == 1`, on a
    // worker thread, freeing compiled WebAssembly: nodejs/node#64500). With Liftoff only, no
    // background job compiles PGlite's code a second time nor frees the first.
    for (const name of ['build', 'build:server'])
      expect(
        scripts[name]?.split(' && ').filter((step) => step.includes('scripts/build-server.ts')),
        name,
      ).toEqual([expect.stringMatching(/^node --liftoff-only --import tsx scripts\/build-server\.ts\b/)]);
  });
});

describe('the reverse-proxy example', () => {
  it('sets the client address itself, never appends to the client’s, and hides the stand-ins', () => {
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
    expect(nginx).toMatch(/location \/_local\/ \{ return 404; \}/);
  });
});
