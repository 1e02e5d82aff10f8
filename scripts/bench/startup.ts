/**
 * Start-up of `npm run bench` (`--startup`, decision 091): BENCH_STARTUP_RUNS × (a first `npm start`
 * on an empty DATA_DIR, then a restart on it), to the first 200 on `/` and on `/api/v1/health`, with
 * the CPU time of the whole process group; and its section of docs/benchmarks.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '#tests/faults/support.ts';
import { ensureBuilt, median, npm, ROOT } from './support.ts';

const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
export const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;

/**
 * CPU time (user + system, ms) used so far by the processes of group `pgid` (npm, its shell, the
 * server): a figure the other work of a shared machine changes far less than the wall time.
 * Linux only (/proc); undefined elsewhere.
 */
function groupCpuMs(pgid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  const tick = 10; // USER_HZ = 100 on Linux
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(fields[2]) === pgid) total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** From spawning `npm start` to the first 200 on `/`; the whole process group is stopped after. */
/**
 * One `npm start`: the time to the first 200 on `/` (`wall`, with the CPU time spent by then), and
 * to the first 200 on `/api/v1/health` (`ready`: database open, API answering; decision 091).
 */
async function startUp(dataDir: string): Promise<{ wall: number; cpu: number | undefined; ready: number }> {
  const port = await freePort();
  const [command, args] = npm(['start']);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output += String(chunk);
  });
  try {
    for (let i = 0; i < 1500; i += 1) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        if (response.status === 200) {
          const elapsed = performance.now() - started;
          const cpu = child.pid ? groupCpuMs(child.pid) : undefined;
          if (output.includes('Build nécessaire')) throw new Error(`npm start built the tree during a timed run:\n${output}`);
          return { wall: elapsed, cpu, ready: await apiReady(port, started, child, () => output) };
        }
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('npm start built')) throw error;
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode})\n${output}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no 200 within 15 s\n${output}`);
  } finally {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    // npm exits with its script; give the server (same group) time to close PGlite.
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Polls `/api/v1/health` (held by the server until the product is ready) to its first 200. */
async function apiReady(port: number, started: number, child: ChildProcess, output: () => string): Promise<number> {
  for (let i = 0; i < 1500; i += 1) {
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => undefined);
    if (response?.status === 200) return performance.now() - started;
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode})\n${output()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no 200 on /api/v1/health within 15 s\n${output()}`);
}

export interface Startup {
  first: number[];
  restart: number[];
  /** To the first 200 on /api/v1/health, per run. */
  firstReady: number[];
  restartReady: number[];
  /** CPU time of npm + launcher + server to the first 200, per run (Linux). */
  firstCpu: number[];
  restartCpu: number[];
  load: number;
}

/** BENCH_STARTUP_RUNS × (first start on an empty DATA_DIR, then restart on it). */
export async function measureStartup(): Promise<Startup> {
  ensureBuilt();
  const load = loadavg()[0] ?? 0;
  const startup: Startup = { first: [], restart: [], firstReady: [], restartReady: [], firstCpu: [], restartCpu: [], load };
  for (let i = 0; i < STARTUP_RUNS; i += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'us-startup-'));
    try {
      const first = await startUp(dir);
      const restart = await startUp(dir);
      startup.first.push(first.wall);
      startup.restart.push(restart.wall);
      startup.firstReady.push(first.ready);
      startup.restartReady.push(restart.ready);
      if (first.cpu !== undefined) startup.firstCpu.push(first.cpu);
      if (restart.cpu !== undefined) startup.restartCpu.push(restart.cpu);
      console.log(
        `  start-up run ${i + 1}: first start ${ms(first.wall)} (CPU ${first.cpu ?? '?'} ms, API ready ${ms(first.ready)}), restart ${ms(restart.wall)} (CPU ${restart.cpu ?? '?'} ms, API ready ${ms(restart.ready)})`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return startup;
}

export function startupSection(startup: Startup, date: string, machine: string): string {
  const cpu = (values: number[]) => (values.length > 0 ? ms(median(values)) : '—');
  const row = (name: string, values: number[], cpuValues: number[], ready: number[]) =>
    `| ${name} | ${ms(median(values))} | ${ms(Math.min(...values))} | ${ms(Math.max(...values))} | ${values.map((v) => v.toFixed(0)).join(', ')} | ${cpu(cpuValues)} | ${ms(median(ready))} (${ms(Math.max(...ready))}) | < 2000 ms | ${median(values) < 2000 ? 'yes' : '**no**'} |`;
  return [
    `## Start-up — ${date}`,
    '',
    `Machine: ${machine}; load average ${startup.load.toFixed(1)} when the runs began (the machine is shared). From spawning \`npm start\` on a built tree (the launcher \`scripts/start.mjs\` finds the build current and runs \`dist/server/server.mjs\`: no build, no TypeScript) to the first 200 on \`/\`, PGlite, demo data; ${startup.first.length} runs each.`,
    '',
    '| Start | median | min | max | runs (ms) | CPU time, median | API ready: median (max) | target (median) | met |',
    '|---|---:|---:|---:|---|---:|---:|---|---|',
    row('First start on an empty DATA_DIR', startup.first, startup.firstCpu, startup.firstReady),
    row('Restart on the same DATA_DIR', startup.restart, startup.restartCpu, startup.restartReady),
    '',
    'CPU time: user + system time of npm, the launcher and the server (all their threads) up to the first 200, read from /proc; the wall time also counts the waits for the CPU on a shared machine. The server listens before its database is open and answers the prerendered pages from memory meanwhile (decision 091); API ready: from the same spawn to the first 200 on `/api/v1/health` (database open, migrations applied, every request answered).',
    '',
  ].join('\n');
}
