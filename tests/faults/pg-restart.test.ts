import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '#bff/config.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { freePort, HttpMember, SEL_PLAN } from '#tests/faults/support.ts';

/**
 * The PostgreSQL server restarted under load. The shared system server cannot be restarted
 * safely, so a private cluster is created (initdb/pg_ctl, as the postgres user when run as root)
 * in a temporary folder on a free loopback port; one BFF points at it. While the server is
 * down the BFF answers 503 in the error shape (never a 500, never a crash), and it recovers by
 * itself once the server is back. Skipped when the PostgreSQL binaries are not installed.
 */

const binDir = (() => {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).sort((x, y) => Number(y) - Number(x));
  for (const v of versions) if (existsSync(join(base, v, 'bin', 'pg_ctl'))) return join(base, v, 'bin');
  return null;
})();

const root = userInfo().uid === 0;
const dir = mkdtempSync(join(tmpdir(), 'us-pg-'));
const data = join(dir, 'data');
let port = 0;
let product: Product | undefined;

function asPostgres(command: string, args: string[]) {
  const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return execFileSync(file, argv, { stdio: 'pipe', timeout: 60_000 }).toString();
}
const pgCtl = (...args: string[]) => asPostgres(join(binDir as string, 'pg_ctl'), ['-D', data, ...args]);

beforeAll(async () => {
  if (!binDir) return;
  if (root)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
      Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
    );
  asPostgres(join(binDir, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  port = await freePort();
  pgCtl('-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', join(dir, 'log'), '-w', 'start');
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: 'http://localhost:3999',
    DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
    DEMO_DATA: 'false',
    TRUST_PROXY: 'true',
  });
  product = await startProduct(config, { clientDir: '/nonexistent' });
}, 120_000);

afterAll(async () => {
  await product?.close().catch(() => {});
  if (binDir && existsSync(join(data, 'postmaster.pid'))) {
    try {
      pgCtl('-m', 'immediate', '-w', 'stop');
    } catch {
      // already stopped
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL restarted under load', () => {
  it('answers 503 while the server is down, never 500 nor a crash, and recovers by itself', async (context) => {
    if (!binDir || !product) context.skip();
    const url = `http://127.0.0.1:${product?.port}`;
    const member = new HttpMember(url, '198.51.100.60');
    await member.signUpToPlans('redemarrage');

    const samples: { at: number; status: number; code?: string }[] = [];
    let socketErrors = 0;
    let running = true;
    const workers = Array.from({ length: 6 }, async (_, i) => {
      while (running) {
        try {
          const answer = i % 2 === 0 ? await member.request('GET', '/api/v1/user/settings') : await member.request('GET', '/api/v1/ready');
          samples.push({ at: Date.now(), status: answer.status, code: (answer.json.error as { code?: string } | undefined)?.code });
        } catch {
          socketErrors += 1;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    });

    await new Promise((r) => setTimeout(r, 1000));
    const downAt = Date.now();
    pgCtl('-m', 'fast', '-w', 'stop');
    await new Promise((r) => setTimeout(r, 2500));
    pgCtl('-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, '-l', join(dir, 'log'), '-w', 'start');
    const upAt = Date.now();
    await new Promise((r) => setTimeout(r, 5000));
    running = false;
    await Promise.all(workers);

    // From half a second after the stop: `pg_ctl stop -m fast` first terminates the sessions; until
    // the member cache's listening session is cut (a few ms, more on a loaded machine), a member
    // may still be answered from memory — correctly: nothing can commit while the server stops.
    const during = samples.filter((s) => s.at > downAt + 500 && s.at < upAt);
    const lastSecond = samples.filter((s) => s.at > upAt + 4000);
    const statuses = [...new Set(samples.map((s) => s.status))].sort();
    console.log(
      `[pg-restart] ${samples.length} requests; statuses ${statuses.join(', ')}; while down: ${during.length} (${during.filter((s) => s.status === 503).length} × 503); socket errors ${socketErrors}`,
    );
    expect(socketErrors, 'the BFF kept answering').toBe(0);
    expect(
      samples.filter((s) => s.status >= 500 && s.status !== 503),
      'no 500 while the database restarts',
    ).toEqual([]);
    expect(during.length).toBeGreaterThan(0);
    expect(
      during.filter((s) => s.status !== 503).map((s) => ({ ...s, afterStop: s.at - downAt, beforeStart: upAt - s.at })),
      'every request needing the database answers 503 while it is down',
    ).toEqual([]);
    expect(during.every((s) => s.code === 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(lastSecond.length).toBeGreaterThan(0);
    expect(
      lastSecond.every((s) => s.status === 200),
      'recovered by itself',
    ).toBe(true);
    const write = await member.request('POST', '/api/v1/user/update', SEL_PLAN);
    expect(write.status, JSON.stringify(write.json)).toBe(200);
  }, 120_000);
});
