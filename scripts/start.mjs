/**
 * `npm start`: runs the compiled server (`dist/server/server.mjs`), after `npm run build` only
 * when the build is missing or older than the sources. Plain JavaScript, so that starting needs
 * no TypeScript compilation (decision 080, start-up target < 2 s to the first 200).
 *
 * The build is current when `dist/build-stamp.json` (written by the last step of `npm run build`),
 * the server bundle and the SPA exist, and nothing under the build's inputs (SOURCES) is newer
 * than the stamp: one walk of ≈ 400 entries, stopped at the first newer one. Test files are not
 * inputs of the build and are skipped.
 *
 * `node scripts/start.mjs --check` only tells: exit 0 when the build is current, 1 (and why) when not.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
const STAMP = join(ROOT, 'dist', 'build-stamp.json');
const SERVER = join(ROOT, 'dist', 'server', 'server.mjs');
const CLIENT = join(ROOT, 'dist', 'client', 'index.html');
/** What `npm run build` reads (SPA, prerender, server bundle, PGlite template). */
const SOURCES = [
  'src',
  'bff',
  'machines',
  'content',
  'public',
  'scripts',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
const NOT_AN_INPUT = /\.(test|spec)\.[cm]?[jt]sx?$/;

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The first path under `path` modified after `limit` (a folder counts: files added or removed). */
function newerThan(path, limit) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return undefined;
  }
  if (stats.mtimeMs > limit) return path;
  if (!stats.isDirectory()) return undefined;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || NOT_AN_INPUT.test(entry.name)) continue;
    const found = newerThan(join(path, entry.name), limit);
    if (found) return found;
  }
  return undefined;
}

/** Why a build is needed, or undefined when the build is current. */
function staleReason() {
  const stamp = mtime(STAMP);
  if (stamp === undefined) return 'pas encore de build (dist/build-stamp.json absent)';
  if (mtime(SERVER) === undefined) return 'serveur compilé absent (dist/server/server.mjs)';
  if (mtime(CLIENT) === undefined) return 'SPA absente (dist/client/index.html)';
  for (const source of SOURCES) {
    const newer = newerThan(join(ROOT, source), stamp);
    if (newer) return `${relative(ROOT, newer)} modifié depuis le dernier build`;
  }
  return undefined;
}

function build() {
  const started = new Date();
  // Through the npm that runs this script when there is one (npm start), else the one on PATH.
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`\n  Le build a échoué (code ${result.status ?? result.signal}) : serveur non démarré.`);
    process.exit(result.status || 1);
  }
  // A source saved while the build ran is newer than this: the next start builds again.
  utimesSync(STAMP, started, started);
}

const reason = staleReason();
if (process.argv.includes('--check')) {
  if (reason) console.log(reason);
  process.exit(reason ? 1 : 0);
}
if (reason) {
  console.log(`\n  Build nécessaire : ${reason}.\n`);
  build();
}
await import(pathToFileURL(SERVER).href);
