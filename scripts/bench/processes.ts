/**
 * The processes of `npm run bench` (scripts/bench/run.ts, decision 096): the server under test on
 * the first core, the load generator on the second, the product started as production runs it, the
 * bench's members signed up over HTTP, and the servers stopped.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { agencyEnv, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { HttpMember, startServerProcess } from '#tests/faults/support.ts';
import { COMPILED_SERVER, ROOT } from './support.ts';

export const CLIENT_DIR = process.env.CLIENT_DIR ?? join(ROOT, 'dist', 'client');
export interface Started {
  url: string;
  /** The bare process's plain Node server (the product's page answer), when it runs one. */
  nodeUrl?: string;
  cookies: string[];
  child: ChildProcess;
}

/**
 * The server under test on the first core and the load generator on the second (decision 096):
 * left to the scheduler, the two moved between the cores and took turns on one, and the same code's
 * ratio moved by tens of points from run to run. Pinning steadies the rounds of one process; whole
 * processes still differ (decision 096). `taskset` (util-linux) replaces itself with the command,
 * so the child's pid is the command's. BENCH_PIN=0 leaves the placement to the scheduler.
 */
export const PINNED = process.env.BENCH_PIN !== '0' && cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
/** The servers' core in /proc/stat (the whole machine when nothing is pinned). */
export const CORE0 = PINNED ? 'cpu0' : 'cpu';
export const onCore = (core: 0 | 1, command: string, args: string[]): [string, string[]] =>
  PINNED ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];

export function startServer(args: string[], env: Record<string, string | undefined> = {}): Promise<Started> {
  const child = spawn(...onCore(0, process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'bench', 'server.ts'), ...args]), {
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
      const info = JSON.parse(line) as { url: string; nodeUrl?: string; cookies: string[] };
      resolve({ ...info, child });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code})\n${stderr}`));
    });
  });
}

/**
 * The product under load as production runs it (decision 096): the compiled server `npm start`
 * runs, built first when the tree is newer than the build, in production mode with the embedded
 * stand-ins, alone in its process, on a free port; ready at its first 200 on `/api/v1/health`
 * (`startServerProcess`, shared with the fault suites). With CLIENT_DIR set to another folder, the
 * sources through tsx instead (`server.ts product`), which take the folder as an option.
 */
export async function startProduct(env: Record<string, string>): Promise<Started> {
  if (process.env.CLIENT_DIR) return startServer(['product'], { ...env, CLIENT_DIR });
  // The agency identity is required in production: the demo one, as in development (decision 106).
  const production = { ...env, NODE_ENV: 'production', ALLOW_EMBEDDED_IN_PRODUCTION: 'true', ...agencyEnv(DEMO_AGENCY_IDENTITY) };
  // BENCH_SLOW_PRODUCT=<µs>: the product made slower from outside (scripts/bench/slow-down.mjs), to
  // show a floor missed; never set in a real run.
  const slow = process.env.BENCH_SLOW_PRODUCT ? ['--import', join(ROOT, 'scripts', 'bench', 'slow-down.mjs')] : [];
  const { child, url } = await startServerProcess(production, onCore(0, process.execPath, [...slow, COMPILED_SERVER]));
  return { url, cookies: [], child };
}

/**
 * The bench's members, signed up over HTTP from this process, never the server's (decision 096),
 * each brought to the `formules` step; their session cookies. Each comes from its own documentation
 * address (the server trusts X-Forwarded-For) so that the sign-up limits do not bite.
 */
export async function signUpMembers(url: string, count: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const member = new HttpMember(url, `198.51.100.${(i % 250) + 1}`);
    await member.signUpToPlans(`bench.${i}`);
    cookies.push(member.cookie());
  }
  return cookies;
}

export async function stopServer(server: Started) {
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
