/**
 * The load of `npm run bench` (decision 096): one run by wrk or autocannon with the server's CPU time
 * per answer, PostgreSQL's own rate for an onboarding event's transaction, and a figure paired with
 * its reference in alternating rounds.
 */
import { spawn, spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';
import { processCpuNs, stealOf, stolenShare } from './proc-stats.ts';
import { CORE0, onCore } from './processes.ts';
import { median } from './support.ts';
import { parseWrkReport } from './wrk-report.ts';

export const DURATION = Number(process.env.BENCH_DURATION ?? 2);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
interface Figure {
  rps: number;
  /** The server's CPU time (all its threads) per answered request, µs; undefined off Linux. */
  cpuUs?: number | undefined;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

export type Generator = 'wrk' | 'autocannon';

/** wrk when it runs here (and BENCH_LOAD_GENERATOR does not ask for autocannon). */
export const GENERATOR: Generator =
  process.env.BENCH_LOAD_GENERATOR !== 'autocannon' && !spawnSync('wrk', ['--version']).error ? 'wrk' : 'autocannon';

async function autocannonLoad(options: autocannon.Options, duration: number): Promise<Figure> {
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

/** One wrk run (one thread: the server has the other core), parsed from its `--latency` report. */
function wrkLoad(options: { url: string; headers?: Record<string, string> }, duration: number): Promise<Figure> {
  const headers = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${duration}s`, '--latency', ...headers, options.url];
  return new Promise((resolve, reject) => {
    const child = spawn(...onCore(1, 'wrk', args), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      out += String(chunk);
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const report = parseWrkReport(out);
      if (code !== 0 || !report) {
        reject(new Error(`wrk ${args.join(' ')} (exit ${code}):\n${out}`));
        return;
      }
      resolve(report);
    });
  });
}

/**
 * One load run; with the server's pid, its CPU time per answered request as well. On a shared
 * virtual machine the host takes the vCPU away at times (steal): the rate falls with it, while the
 * CPU time the server spends on one answer barely moves. That second view of the same cost is the
 * figure a busy host disturbs least.
 */
async function load(generator: Generator, options: autocannon.Options, duration = DURATION, pid?: number): Promise<Figure> {
  const before = processCpuNs(pid);
  const figure =
    generator === 'autocannon'
      ? await autocannonLoad(options, duration)
      : await wrkLoad({ url: options.url, headers: options.headers as Record<string, string> | undefined }, duration);
  const after = processCpuNs(pid);
  // `total` counts the answers received (wrk's "requests in", autocannon's requests.total); socket
  // errors and timeouts are not among them.
  if (before !== undefined && after !== undefined && figure.total > 0) figure.cpuUs = (after - before) / 1000 / figure.total;
  return figure;
}

/** A figure over rounds: `p99` is the worst round's, `p99Median` the median round's. */
interface Rounds extends Figure {
  p99Median: number;
}

export interface Paired {
  figure: Rounds;
  bare: Rounds;
  /** Median of the rounds' ratios (figure / bare hello of the same round). */
  ratio: number;
  /** Median of the rounds' CPU ratios (the hello's CPU time per request / the figure's). */
  cpuRatio?: number | undefined;
  /** The share of the servers' core the host took away during the rounds (steal), 0–1. */
  steal?: number | undefined;
  generator: Generator;
}

/** The figure a round compares with, when it is not a server's "hello": run for `duration` s. */
export type ReferenceLoad = (duration: number, counted: boolean) => Promise<Figure>;

/**
 * PostgreSQL's own rate for an onboarding event's transaction (issue 23): what the product's
 * `applyOnboardingUpdate` must do at the least, sent by the `pg` client in a loop — BEGIN, the
 * member's row SELECT … FOR UPDATE, its UPDATE (record written back, version + 1), the event row
 * INSERT, COMMIT — by as many workers as the load generator has connections, through a pool the
 * size of the product's (10), each worker on its own member. Nothing else: no HTTP, no session,
 * no chart, no JSON validation.
 */
export function postgresEventLoop(url: string, memberIds: string[]): ReferenceLoad {
  return async (duration) => {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const latencies: number[] = [];
    let errors = 0;
    const deadline = performance.now() + duration * 1000;
    const worker = async (memberId: string) => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const { rows } = await client.query<{ onboarding: unknown; version: number }>(
            'SELECT onboarding, version FROM members WHERE id = $1 FOR UPDATE',
            [memberId],
          );
          const version = (rows[0]?.version ?? 0) + 1;
          await client.query('UPDATE members SET onboarding = $2, version = $3, updated_at = now() WHERE id = $1', [
            memberId,
            JSON.stringify(rows[0]?.onboarding ?? {}),
            version,
          ]);
          await client.query(
            `INSERT INTO onboarding_events (member_id, context, event, payload, from_state, to_state, actor_id, actor_role, version)
             VALUES ($1, 'sel_plan', 'SELECT_PLAN', '{"context":"sel_plan"}', 'formules', 'formules', $1, 'member', $2)`,
            [memberId, version],
          );
          await client.query('COMMIT');
          latencies.push(performance.now() - started);
        } catch {
          errors += 1;
          await client.query('ROLLBACK').catch(() => {});
        } finally {
          client.release();
        }
      }
    };
    await Promise.all(memberIds.map((id) => worker(id)));
    await pool.end();
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
    return { rps: latencies.length / duration, p50: at(0.5), p99: at(0.99), non2xx: 0, errors, total: latencies.length };
  };
}

/** A server under load: its address and, for its CPU time, its process. */
export interface Target {
  url: string;
  pid?: number | undefined;
}

/**
 * A figure and the bare "hello" in alternating rounds, after a 2 s warm-up of each (JIT, pools,
 * caches). Reported: the median rate and p50 of the rounds, their worst p99 (and the median round's),
 * and errors summed; the ratio of each round to its own hello, and the median of those ratios, by
 * rate and by CPU time.
 */
export async function paired(
  hello: Target | ReferenceLoad,
  options: autocannon.Options,
  pid: number | undefined,
  generator: Generator = GENERATOR,
  beforeEach: () => Promise<void> = async () => {},
): Promise<Paired> {
  const reference: ReferenceLoad =
    typeof hello === 'function'
      ? hello
      : (duration, counted) => load(generator, { url: hello.url }, duration, counted ? hello.pid : undefined);
  await reference(2, false);
  await beforeEach();
  await load(generator, options, 2);
  const rounds: { figure: Figure; bare: Figure }[] = [];
  const stealBefore = stealOf(CORE0);
  for (let i = 0; i < ROUNDS; i += 1) {
    const bare = await reference(DURATION, true);
    await beforeEach();
    rounds.push({ bare, figure: await load(generator, options, DURATION, pid) });
  }
  const stealAfter = stealOf(CORE0);
  const summary = (figures: Figure[]): Rounds => {
    const cpu = figures.map((f) => f.cpuUs).filter((us): us is number => us !== undefined);
    return {
      rps: median(figures.map((f) => f.rps)),
      cpuUs: cpu.length === figures.length ? median(cpu) : undefined,
      p50: median(figures.map((f) => f.p50)),
      p99: Math.max(...figures.map((f) => f.p99)),
      p99Median: median(figures.map((f) => f.p99)),
      non2xx: figures.reduce((sum, f) => sum + f.non2xx, 0),
      errors: figures.reduce((sum, f) => sum + f.errors, 0),
      total: figures.reduce((sum, f) => sum + f.total, 0),
    };
  };
  const cpuRatios = rounds.flatMap((r) => (r.figure.cpuUs && r.bare.cpuUs ? [r.bare.cpuUs / r.figure.cpuUs] : []));
  return {
    figure: summary(rounds.map((r) => r.figure)),
    bare: summary(rounds.map((r) => r.bare)),
    ratio: median(rounds.map((r) => r.figure.rps / r.bare.rps)),
    cpuRatio: cpuRatios.length === rounds.length ? median(cpuRatios) : undefined,
    steal: stolenShare(stealBefore, stealAfter),
    generator,
  };
}
