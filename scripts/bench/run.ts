/**
 * `npm run bench`: HTTP load on loopback with autocannon against the real server, each figure
 * next to a bare Hono "hello" served by the same machine in the same run (decision 060).
 *
 * Servers run in child processes (scripts/bench/server.ts), autocannon in this one. For each
 * database — PGlite on a temporary DATA_DIR, and PostgreSQL when one answers (DATABASE_URL, or
 * postgres://postgres@127.0.0.1:5432/postgres; a throw-away database is created and dropped):
 *   - bare Hono "hello" (GET /)
 *   - GET /api/v1/health: one `SELECT 1` through the whole stack (a reference, no target)
 *   - authenticated GET /api/v1/user/settings
 *   - a prerendered public page (GET / from dist/client; needs `npm run build`)
 *   - a cycle of allowed POST /api/v1/user/update events (sel_plan / sel_plan_res), one member
 *     per connection
 * Then the start-up time of `node --import tsx bff/server.ts` on the built tree to its first 200.
 * Prints a markdown table and writes docs/benchmarks.md (date, machine).
 *
 * Options (environment): BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50),
 * BENCH_SKIP_PG=1, BENCH_NO_WRITE=1 (do not write docs/benchmarks.md), CLIENT_DIR (default dist/client).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROOT = join(import.meta.dirname, '..', '..');
const CLIENT_DIR = process.env.CLIENT_DIR ?? join(ROOT, 'dist', 'client');
const built = existsSync(join(CLIENT_DIR, 'index.html'));

interface Started {
  url: string;
  cookies: string[];
  child: ChildProcess;
}

function startServer(args: string[], env: Record<string, string | undefined> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'server.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 180 s\n${stderr}`)), 180_000);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      clearTimeout(timer);
      const info = JSON.parse(line) as { url: string; cookies: string[] };
      resolve({ ...info, child });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code})\n${stderr}`));
    });
  });
}

async function stopServer(server: Started) {
  if (server.child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.child.kill('SIGKILL');
      resolve();
    }, 10_000);
    server.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    server.child.kill('SIGTERM');
  });
}

interface Figure {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

async function load(options: autocannon.Options, duration = DURATION): Promise<Figure> {
  const result = await autocannon({ connections: CONNECTIONS, pipelining: 1, duration, ...options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/** Short warm-up (JIT, connection pools, caches), then the measured run. */
async function measure(options: autocannon.Options): Promise<Figure> {
  await load(options, 2);
  return load(options);
}

interface Row {
  database: string;
  name: string;
  figure: Figure;
  bare: Figure;
  target?: { ratio: number; p99?: number };
}

async function postgresUrl(): Promise<string | null> {
  if (process.env.BENCH_SKIP_PG) return null;
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    return null;
  }
  const name = `bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(url: string) {
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? server.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
}

async function benchDatabase(label: string, env: Record<string, string>): Promise<Row[]> {
  const rows: Row[] = [];
  const bareServer = await startServer(['bare']);
  const product = await startServer(['product', String(CONNECTIONS)], { ...env, CLIENT_DIR });
  try {
    const bare = await measure({ url: `${bareServer.url}/` });
    console.log(`  [${label}] bare hello: ${bare.rps.toFixed(0)} req/s`);
    // Reference: one database round trip through the whole stack (no session, no JSON work).
    const health = await measure({ url: `${product.url}/api/v1/health` });
    console.log(`  [${label}] health (SELECT 1): ${health.rps.toFixed(0)} req/s`);
    rows.push({ database: label, name: 'GET /api/v1/health (reference: one SELECT 1)', figure: health, bare });
    const cookie = product.cookies[0] as string;
    const settings = await measure({ url: `${product.url}/api/v1/user/settings`, headers: { cookie } });
    console.log(`  [${label}] settings: ${settings.rps.toFixed(0)} req/s, p99 ${settings.p99} ms`);
    rows.push({ database: label, name: 'GET /api/v1/user/settings (signed in)', figure: settings, bare, target: { ratio: 0.5, p99: 25 } });
    if (built) {
      // As a browser asks for it (gzip); the bare hello is too small to compress.
      const page = await measure({ url: `${product.url}/`, headers: { 'accept-encoding': 'gzip' } });
      console.log(`  [${label}] public page: ${page.rps.toFixed(0)} req/s`);
      rows.push({ database: label, name: 'GET / (prerendered public page)', figure: page, bare, target: { ratio: 0.8 } });
    }
    // Each connection is one member at `formules`: choose a plan, then take the choice back.
    let next = 0;
    const cookies = product.cookies;
    const body = (context: string) =>
      JSON.stringify(context === 'sel_plan' ? { context, id: 'plan_serenity_month', renounce: false } : { context });
    const update = await measure({
      url: product.url,
      setupClient: (client: autocannon.Client) => {
        const memberCookie = cookies[next % cookies.length] as string;
        next += 1;
        const headers = { 'content-type': 'application/json', cookie: memberCookie };
        client.setRequests([
          { method: 'POST', path: '/api/v1/user/update', headers, body: body('sel_plan') },
          { method: 'POST', path: '/api/v1/user/update', headers, body: body('sel_plan_res') },
        ]);
      },
    });
    console.log(`  [${label}] update cycle: ${update.rps.toFixed(0)} req/s, non-2xx ${update.non2xx}`);
    rows.push({ database: label, name: 'POST /api/v1/user/update (sel_plan ⇄ sel_plan_res)', figure: update, bare });
  } finally {
    await stopServer(product);
    await stopServer(bareServer);
  }
  return rows;
}

/** From spawning `node --import tsx bff/server.ts` to the first 200 on `/`. */
async function startUp(dataDir: string): Promise<number> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bff/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 600; i += 1) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        if (response.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`bff/server.ts exited (${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('no 200 within 12 s');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

async function main() {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${process.platform}`;
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  console.log(`Benchmarks — ${date} — ${machine}\n${CONNECTIONS} connections, ${DURATION} s per figure (after 2 s warm-up)`);
  if (!built) console.log('  (no dist/client: run `npm run build` for the public page and start-up figures)');

  const rows: Row[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'us-bench-'));
  try {
    rows.push(...(await benchDatabase('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' })));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const pgUrl = await postgresUrl();
  if (pgUrl) {
    const pgDir = mkdtempSync(join(tmpdir(), 'us-bench-pg-'));
    try {
      rows.push(...(await benchDatabase('PostgreSQL', { DATA_DIR: pgDir, DATABASE_URL: pgUrl })));
    } finally {
      await dropDatabase(pgUrl).catch((error) => console.error('drop failed:', error.message));
      rmSync(pgDir, { recursive: true, force: true });
    }
  } else console.log('  (no PostgreSQL server answered: PGlite only)');

  let startup: { cold: number; warm: number } | null = null;
  if (built) {
    const dir = mkdtempSync(join(tmpdir(), 'us-startup-'));
    try {
      const cold = await startUp(dir);
      const warm = await startUp(dir);
      startup = { cold, warm };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const lines: string[] = [];
  lines.push(`## HTTP load — ${date}`, '');
  lines.push(
    `Machine: ${machine}. autocannon on loopback, ${CONNECTIONS} connections, ${DURATION} s per figure after a 2 s warm-up; servers in their own processes.`,
    '',
  );
  lines.push('| Database | Endpoint | req/s | p50 | p99 | non-2xx | bare hello req/s | ratio | target | met |');
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|---|---|');
  const missed: string[] = [];
  for (const row of rows) {
    const ratio = row.figure.rps / row.bare.rps;
    let target = '—';
    let met = '—';
    if (row.target && row.database === 'PostgreSQL') {
      target = `≥ ${row.target.ratio * 100} %${row.target.p99 ? `, p99 < ${row.target.p99} ms` : ''}`;
      const ok = ratio >= row.target.ratio && (!row.target.p99 || row.figure.p99 < row.target.p99);
      met = ok ? 'yes' : '**no**';
      if (!ok) missed.push(`${row.name} on ${row.database}`);
    } else if (row.target?.ratio === 0.8) {
      target = '≥ 80 %';
      const ok = ratio >= 0.8;
      met = ok ? 'yes' : '**no**';
      if (!ok) missed.push(`${row.name} on ${row.database}`);
    }
    lines.push(
      `| ${row.database} | ${row.name} | ${row.figure.rps.toFixed(0)} | ${ms(row.figure.p50)} | ${ms(row.figure.p99)} | ${row.figure.non2xx + row.figure.errors} | ${row.bare.rps.toFixed(0)} | ${(ratio * 100).toFixed(0)} % | ${target} | ${met} |`,
    );
  }
  lines.push('');
  if (startup) {
    lines.push(
      `Start-up (\`node --import tsx bff/server.ts\` on a built tree, to the first 200 on \`/\`): first start on an empty DATA_DIR ${ms(startup.cold)}, restart ${ms(startup.warm)} (target < 2000 ms: ${Math.max(startup.cold, startup.warm) < 2000 ? 'met' : '**missed**'}).`,
      '',
    );
  }
  if (missed.length > 0) lines.push(`Targets missed: ${missed.join('; ')}.`, '');
  const table = lines.join('\n');
  console.log(`\n${table}`);

  if (!process.env.BENCH_NO_WRITE) {
    const file = join(ROOT, 'docs', 'benchmarks.md');
    const header =
      '# Measured figures\n\nWritten by `npm run bench` (HTTP load, start-up) and `scripts/lighthouse.ts` (Lighthouse). Each run replaces its own section.\n\n';
    const previous = existsSync(file) ? readFileSync(file, 'utf8') : header;
    const withoutOld = previous.replace(/## HTTP load — [\s\S]*?(?=\n## |$)/, '').trimEnd();
    writeFileSync(file, `${withoutOld || header.trimEnd()}\n\n${table}\n`);
    console.log(`→ ${file}`);
  }
  if (missed.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
