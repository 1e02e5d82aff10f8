import { Agent, createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { plainNodePage, type RecordedAnswer, recordAnswer } from './recorded-answer.ts';

const servers: Server[] = [];
// A browser's connection: kept open between requests (Node then sends Connection and Keep-Alive).
const agent = new Agent({ keepAlive: true });
afterEach(async () => {
  agent.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** One raw answer: header lines as sent (name case and order kept) and the body's bytes. */
function fetchRaw(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ raw: string[]; body: Buffer; headers: IncomingHttpHeaders }>((resolve, reject) => {
    get(url, { headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ raw: response.rawHeaders, body: Buffer.concat(chunks), headers: response.headers }));
    }).once('error', reject);
  });
}

const page = '<!doctype html><html lang="fr"><title>Union Sincère</title><p>Bienvenue</p></html>'.repeat(20);
const br = brotliCompressSync(page);

/** A source that answers plain text until its `compressAfter`-th request, then brotli. */
function source(compressAfter: number) {
  const seen: (string | undefined)[] = [];
  const server = createServer((incoming, outgoing) => {
    seen.push(incoming.headers['accept-encoding']);
    if (seen.length <= compressAfter) {
      outgoing.writeHead(200, ['Content-Type', 'text/html; charset=UTF-8', 'Content-Length', String(Buffer.byteLength(page))]);
      outgoing.end(page);
      return;
    }
    outgoing.writeHead(200, [
      'X-Content-Type-Options',
      'nosniff',
      'content-type',
      'text/html; charset=UTF-8',
      'Vary',
      'Accept-Encoding',
      'Content-Encoding',
      'br',
      'Content-Length',
      String(br.byteLength),
    ]);
    outgoing.end(br);
  });
  return { server, seen };
}

describe('recordAnswer', () => {
  it('asks again until the answer is compressed, and keeps its headers as sent and its bytes', async () => {
    const { server, seen } = source(2);
    const url = await listen(server);
    const answer = await recordAnswer(url, { 'accept-encoding': 'gzip, br' }, { waitMs: 1 });
    expect(seen).toEqual(['gzip, br', 'gzip, br', 'gzip, br']);
    expect(answer.headers.slice(0, 5)).toEqual([
      ['X-Content-Type-Options', 'nosniff'],
      ['content-type', 'text/html; charset=UTF-8'],
      ['Vary', 'Accept-Encoding'],
      ['Content-Encoding', 'br'],
      ['Content-Length', String(br.byteLength)],
    ]);
    expect(answer.headers.map(([name]) => name)).toEqual([
      'X-Content-Type-Options',
      'content-type',
      'Vary',
      'Content-Encoding',
      'Content-Length',
      'Date',
      'Connection',
      'Keep-Alive',
    ]);
    expect(Buffer.from(answer.body, 'base64').equals(br)).toBe(true);
    // The record survives JSON, as run.ts hands it to the bare process through a file.
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it('gives up, naming the address, when the answer never comes compressed', async () => {
    const { server, seen } = source(Number.POSITIVE_INFINITY);
    const url = await listen(server);
    await expect(recordAnswer(url, { 'accept-encoding': 'br' }, { attempts: 3, waitMs: 1 })).rejects.toThrow(`${url}: never answered`);
    expect(seen).toHaveLength(3);
  });
});

describe('plainNodePage', () => {
  it('sends the recorded answer again: the same header lines in the same order, the same bytes', async () => {
    const url = await listen(source(0).server);
    const recorded = await recordAnswer(url, { 'accept-encoding': 'br' });
    const again = await fetchRaw(await listen(plainNodePage(recorded)));
    const pairs = (raw: string[]) => raw.flatMap((name, i) => (i % 2 === 0 ? [[name, raw[i + 1]]] : []));
    const ownLines = (list: (string | undefined)[][]) =>
      list.filter(([name]) => !['Date', 'Connection', 'Keep-Alive'].includes(name as string));
    expect(ownLines(pairs(again.raw))).toEqual(ownLines(recorded.headers));
    expect(again.body.equals(br)).toBe(true);
    // Node adds its own Date, Connection and Keep-Alive once each, never the recorded ones as well.
    for (const name of ['Date', 'Connection', 'Keep-Alive']) expect(pairs(again.raw).filter(([n]) => n === name)).toHaveLength(1);
  });

  it('answers every request, whatever its path or method, and keeps the connection open', async () => {
    const answer: RecordedAnswer = {
      headers: [
        ['Content-Type', 'text/plain'],
        ['Content-Length', '2'],
      ],
      body: Buffer.from('ok').toString('base64'),
    };
    const url = await listen(plainNodePage(answer));
    const first = await fetchRaw(`${url}nimporte/quoi?x=1`);
    expect(first.body.toString()).toBe('ok');
    expect(first.headers.connection).toBe('keep-alive');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/plain');
  });
});
