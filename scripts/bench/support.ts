/** What the bench scripts share (`run.ts`, `journeys.ts`): the build, a throw-away database, the report. */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The compiled server `npm start` runs (scripts/start.mjs imports it once the build is current). */
export const COMPILED_SERVER = join(ROOT, 'dist', 'server', 'server.mjs');

/** npm as the running script was started (npm_execpath), else the one on PATH. */
export function npm(args: string[]): [string, string[]] {
  const cli = process.env.npm_execpath;
  return cli && /\.[cm]?js$/.test(cli) ? [process.execPath, [cli, ...args]] : ['npm', args];
}

/** Builds the tree when `npm start` would (scripts/start.mjs --check): the timed starts must not build. */
export function ensureBuilt() {
  const check = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8' });
  if (check.status === 0) return;
  console.log(`  build needed first (${check.stdout.trim()}): npm run build`);
  const [command, args] = npm(['run', 'build']);
  const build = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** The median of some figures (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** A new, empty database on the PostgreSQL server (DATABASE_URL or 127.0.0.1:5432), or null without one. */
export async function postgresUrl(prefix = 'bench'): Promise<string | null> {
  if (process.env.BENCH_SKIP_PG) return null;
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    return null;
  }
  const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(url: string) {
  const server = new URL(url);
  const name = server.pathname.slice(1);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? server.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
}

/** Replaces (or appends) the section that starts with `## <title> — ` in docs/benchmarks.md. */
/**
 * Writes one measured section into docs/benchmarks.md (or `file`), in the place of the previous
 * run's section of that title, so that the order of the sections and the notes kept by hand in
 * their own sections (« ## Notes on … », never replaced) stay; a section measured for the first
 * time goes at the end.
 */
export function writeSection(title: string, section: string, file = join(ROOT, 'docs', 'benchmarks.md')) {
  const header =
    '# Measured figures\n\nWritten by `npm run bench` (HTTP load, start-up), `npm run bench:journeys` (journeys) and `scripts/lighthouse.ts` (Lighthouse). Each run replaces its own section.\n\n';
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : header;
  const old = new RegExp(`## ${title} — [\\s\\S]*?(?=\\n## |$)`);
  const next = old.test(previous)
    ? previous.replace(old, () => `${section.trimEnd()}\n`)
    : `${previous.trimEnd() || header.trimEnd()}\n\n${section.trimEnd()}\n`;
  writeFileSync(file, `${next.trimEnd()}\n`);
  console.log(`→ ${file}`);
}
