/**
 * A server under test for `scripts/bench/run.ts`, in its own process (the load generator runs in
 * the parent, so the two never share an event loop):
 *
 *   node --import tsx scripts/bench/server.ts bare
 *   DATA_DIR=… [DATABASE_URL=…] node --import tsx scripts/bench/server.ts product
 *
 * `bare` answers `GET /` with a Hono "hello" (and the references below), and prints
 * `{ url, nodeUrl?, cookies: [] }`: `nodeUrl` is a plain Node server sending the product's recorded
 * page answer, when BENCH_PAGE_ANSWER names one (decision 096). `product` starts the real product
 * (`startProduct` on port 0, the built SPA from dist/client) and prints one JSON line:
 * `{ url, cookies: [], database }`. It only serves, as in production: the runner signs the bench's
 * members up over HTTP from its own process (decision 096).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { parseConfig } from '#bff/config.ts';
import { startProduct } from '#bff/start.ts';
import { agencyEnv, DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { plainNodePage } from './recorded-answer.ts';

const mode = process.argv[2];

async function product() {
  const config = parseConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    // Required in production; the port is only known once listening.
    PUBLIC_SITE_URL: 'http://localhost',
    ALLOW_EMBEDDED_IN_PRODUCTION: 'true',
    // Required in production: the demo identity, as in development (decision 106).
    ...agencyEnv(DEMO_AGENCY_IDENTITY),
    DEMO_DATA: 'false',
    // Set-up requests come from distinct (documentation) addresses so sign-up limits do not bite;
    // the measured endpoints are not rate limited.
    TRUST_PROXY: 'true',
  });
  const started = await startProduct(config, { clientDir: process.env.CLIENT_DIR ?? 'dist/client' });
  const url = `http://127.0.0.1:${started.port}`;
  process.stdout.write(`${JSON.stringify({ url, cookies: [], database: started.database.kind })}\n`);
  const stop = () => started.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function bare() {
  const app = new Hono().get('/', (c) => c.text('hello'));
  // A reference for the prerendered page: the same compressed bytes (brotli for a client that
  // accepts it, as the product once it has made them), from memory, through bare Hono.
  const home = join(process.env.CLIENT_DIR ?? 'dist/client', 'index.html');
  if (existsSync(home)) {
    const text = readFileSync(home, 'utf8');
    const gzip = new Uint8Array(gzipSync(text));
    const br = new Uint8Array(
      brotliCompressSync(text, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
      }),
    );
    app.get('/page', (c) => {
      const brotli = /\bbr\b/.test(c.req.header('accept-encoding') ?? '');
      return c.body(brotli ? br : gzip, 200, { 'Content-Type': 'text/html; charset=UTF-8', 'Content-Encoding': brotli ? 'br' : 'gzip' });
    });
  }
  // A reference for the settings: the product's very answer (body and headers), no work behind it.
  const answerFile = process.env.BENCH_SETTINGS_ANSWER;
  if (answerFile && existsSync(answerFile)) {
    const answer = JSON.parse(readFileSync(answerFile, 'utf8')) as { body: string; headers: Record<string, string> };
    app.get('/settings', (c) => c.body(answer.body, 200, answer.headers));
  }
  // The floor for the prerendered page: the product's very answer (status, headers, bytes), sent
  // by Node's own http with `writeHead` + `end` and nothing else, on a server of its own (so the
  // hello's path is untouched).
  const pageFile = process.env.BENCH_PAGE_ANSWER;
  const plain = pageFile && existsSync(pageFile) ? plainNodePage(JSON.parse(readFileSync(pageFile, 'utf8'))) : undefined;
  const plainPort = plain
    ? new Promise<number>((resolve) => plain.listen(0, '127.0.0.1', () => resolve((plain.address() as AddressInfo).port)))
    : undefined;
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, async (info) => {
    const nodeUrl = plainPort ? `http://127.0.0.1:${await plainPort}` : undefined;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${info.port}`, nodeUrl, cookies: [] })}\n`);
  });
  process.on('SIGTERM', () => {
    plain?.close();
    server.close(() => process.exit(0));
  });
}

if (mode === 'bare') bare();
else if (mode === 'product') {
  product().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  console.error('usage: server.ts bare | product');
  process.exit(2);
}
