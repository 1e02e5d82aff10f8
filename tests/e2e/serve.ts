import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '#bff/config.ts';
import { startProduct } from '#bff/start.ts';

/** The product as `npm start` runs it, on a throw-away data folder, for the browser tests. */
const port = process.env.E2E_PORT ?? '4173';
const dataDir = mkdtempSync(join(tmpdir(), 'union-e2e-'));
const config = parseConfig({
  NODE_ENV: 'test',
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_SITE_URL: `http://localhost:${port}`,
  DATA_DIR: dataDir,
  DEMO_DATA: 'true',
  DATABASE_URL: process.env.E2E_DATABASE_URL,
});
const product = await startProduct(config);
console.log(`e2e server on ${product.url} (${dataDir})`);
const stop = () => product.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
