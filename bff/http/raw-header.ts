import type { IncomingMessage } from 'node:http';

/**
 * One request header read from Node's raw list, for the fast paths (decisions 093, 094): Node
 * builds `incoming.headers` (every header, lower-cased, merged) on first access, which the answers
 * made from memory never need. `lowerName` is lower case; several lines of the header are joined as
 * Node joins them (`, `, and `; ` for Cookie), so the value is exactly `incoming.headers[lowerName]`
 * for the headers Node joins, such as Accept-Encoding and Cookie. It is not exact for those where
 * Node keeps only the first line (Host, Content-Type, Authorization…), so do not use it for them.
 */
export function rawHeader(incoming: IncomingMessage, lowerName: string): string | undefined {
  const raw = incoming.rawHeaders;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length !== lowerName.length || name.toLowerCase() !== lowerName) continue;
    const line = raw[i + 1] as string;
    value = value === undefined ? line : `${value}${lowerName === 'cookie' ? '; ' : ', '}${line}`;
  }
  return value;
}
