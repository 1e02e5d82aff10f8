/**
 * The product's page answer, recorded as it goes on the wire and sent again by plain Node http
 * (decision 096): the floor Node's HTTP/1.1 reaches for that very answer, next to the product's
 * page figure in `npm run bench`.
 */
import { createServer, get, type Server } from 'node:http';

/** An answer as sent: raw header names in their order and case, the body in base64 (JSON-safe). */
export interface RecordedAnswer {
  headers: [string, string][];
  body: string;
}

/**
 * Asks `url` until the answer comes brotli-encoded (the product's first ask starts the brotli
 * compression and is answered gzip or plain meanwhile), and gives it exactly as sent.
 * Throws after `attempts` asks, `waitMs` apart.
 */
export async function recordAnswer(
  url: string,
  headers: Record<string, string>,
  { attempts = 100, waitMs = 50 }: { attempts?: number; waitMs?: number } = {},
): Promise<RecordedAnswer> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const answer = await new Promise<{ headers: [string, string][]; body: Buffer }>((resolve, reject) => {
      get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const raw = response.rawHeaders;
          const pairs: [string, string][] = [];
          for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
          resolve({ headers: pairs, body: Buffer.concat(chunks) });
        });
      }).once('error', reject);
    });
    if (answer.headers.some(([name, value]) => name.toLowerCase() === 'content-encoding' && value === 'br')) {
      return { headers: answer.headers, body: answer.body.toString('base64') };
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  throw new Error(`${url}: never answered with Content-Encoding: br`);
}

/** The headers Node's http writes itself, for the product as for this server. */
const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/**
 * A plain Node server that answers every request with `answer`: `writeHead` with the recorded
 * headers (less those Node adds itself) as one flat list, then `end` with the bytes. Nothing else.
 */
export function plainNodePage(answer: RecordedAnswer): Server {
  const body = Buffer.from(answer.body, 'base64');
  const headers = answer.headers.filter(([name]) => !ADDED_BY_NODE.has(name.toLowerCase())).flat();
  return createServer((_incoming, outgoing) => {
    outgoing.writeHead(200, headers);
    outgoing.end(body);
  });
}
