import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawHeader } from '#bff/http/raw-header.ts';

/** Over a real socket: what `rawHeader` reads must be exactly what Node puts in `incoming.headers`. */

const NAMES = ['accept-encoding', 'cookie', 'host', 'x-absent', 'accept'];
let port = 0;
let seen: { raw: (string | undefined)[]; node: (string | undefined)[] }[] = [];
const server = createServer((incoming: IncomingMessage, outgoing) => {
  // Read first: the raw list must be enough, before Node builds its header object.
  const raw = NAMES.map((name) => rawHeader(incoming, name));
  const node = NAMES.map((name) => incoming.headers[name] as string | undefined);
  seen.push({ raw, node });
  outgoing.end('ok');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(lines: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`GET / HTTP/1.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`));
    socket.on('data', () => {});
    socket.on('end', () => resolve());
    socket.on('error', reject);
  });
}

describe('rawHeader', () => {
  it('reads each header as Node does: any case, several lines joined, absent', async () => {
    seen = [];
    const requests = [
      ['Host: a.example', 'Accept-Encoding: gzip, deflate, br, zstd', 'Cookie: a=1'],
      ['host: b.example', 'ACCEPT-ENCODING: gzip', 'accept-encoding: br;q=0', 'cookie: a=1', 'Cookie: b=2'],
      ['Host: c.example', 'Accept: text/html', 'Accept: */*;q=0.8'],
      ['Host: d.example', 'Accept-Encodings: br', 'Cookies: x=1'],
    ];
    for (const lines of requests) await send(lines);
    expect(seen).toHaveLength(requests.length);
    for (const { raw, node } of seen) expect(raw).toEqual(node);
    expect(seen[1]?.raw).toEqual(['gzip, br;q=0', 'a=1; b=2', 'b.example', undefined, undefined]);
    expect(seen[3]?.raw[0]).toBeUndefined();
  });
});
