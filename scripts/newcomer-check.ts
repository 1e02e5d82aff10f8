import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from '#tests/faults/support.ts';

/**
 * The README's `npm start` as a newcomer runs it (CI, decision 162): on the tree as it is (after
 * `npm ci`, with no build: the first start builds), on a new data folder and a free port. Passes
 * when `/api/v1/health` answers `ok`, the home page and `/mon-compte` answer 200 with their HTML,
 * and the server stops cleanly on SIGTERM; else exit 1 naming what failed.
 */
const START_LIMIT_MS = 6 * 60_000;
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'union-newcomer-'));
const started = performance.now();
const server = spawn('npm', ['start'], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: '' },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
const base = `http://127.0.0.1:${port}`;
let failure: string | undefined;
try {
  let health: unknown;
  while (performance.now() - started < START_LIMIT_MS && server.exitCode === null) {
    health = await fetch(`${base}/api/v1/health`)
      .then((r) => r.json())
      .catch(() => undefined);
    if ((health as { status?: string } | undefined)?.status === 'ok') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if ((health as { status?: string } | undefined)?.status !== 'ok')
    throw new Error(`/api/v1/health did not answer ok (${JSON.stringify(health)})`);
  console.log(`npm start: health ok after ${((performance.now() - started) / 1000).toFixed(1)} s (build included)`);
  for (const [path, mark] of [
    ['/', '<h1'],
    ['/mon-compte', '<div id="app"'],
  ] as const) {
    const response = await fetch(`${base}${path}`);
    const html = await response.text();
    if (response.status !== 200 || !html.includes(mark))
      throw new Error(`${path}: ${response.status}, ${html.length} bytes, without ${mark}`);
    console.log(`npm start: ${path} 200 (${html.length} bytes)`);
  }
} catch (error) {
  failure = error instanceof Error ? error.message : String(error);
} finally {
  if (server.exitCode === null && server.pid) process.kill(-server.pid, 'SIGTERM');
  const code = await new Promise<number | null>((resolve) => {
    if (server.exitCode !== null) resolve(server.exitCode);
    server.once('exit', (exitCode) => resolve(exitCode));
    setTimeout(() => resolve(-1), 15_000).unref();
  });
  if (!failure && code === -1) failure = 'the server did not stop within 15 s of SIGTERM';
  rmSync(dataDir, { recursive: true, force: true });
}
if (failure) {
  console.error(`newcomer check failed: ${failure}`);
  process.exit(1);
}
