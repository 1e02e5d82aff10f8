/**
 * The server of `npm run bench:backoffice`, in its own process (the client measures from outside):
 * the real product (`startProduct`) on the bench's database, plus what only this process can see,
 * answered over the IPC channel its parent opened (never over HTTP: no debug route in the product):
 * the event loop's longest delay (`monitorEventLoopDelay`) and the process's CPU time since the last
 * `mark`. Prints one JSON line `{ url, startMs }` once listening.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseConfig } from '#bff/config.ts';
import { startProduct } from '#bff/start.ts';
import { agencyEnv, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';

const started = performance.now();
const config = parseConfig({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  NODE_ENV: 'production',
  PUBLIC_SITE_URL: 'http://localhost',
  ALLOW_EMBEDDED_IN_PRODUCTION: 'true',
  ...agencyEnv(DEMO_AGENCY_IDENTITY),
  DEMO_DATA: 'false',
  TRUST_PROXY: 'true',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
});
const product = await startProduct(config, { clientDir: process.env.CLIENT_DIR ?? 'dist/client' });
const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
let cpu = process.cpuUsage();

process.on('message', (message: unknown) => {
  if (message !== 'mark') return;
  const used = process.cpuUsage(cpu);
  process.send?.({
    maxDelayMs: histogram.max / 1e6,
    p99DelayMs: histogram.percentile(99) / 1e6,
    cpuUs: used.user + used.system,
  });
  histogram.reset();
  cpu = process.cpuUsage();
});
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${product.port}`, startMs: performance.now() - started })}\n`);
const stop = () => product.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
