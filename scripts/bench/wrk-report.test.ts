import { describe, expect, it } from 'vitest';
import { parseWrkReport } from './wrk-report.ts';

/** A report as wrk 4.1 printed it on 2026-12-01: a p99 over a second, padded with a space. */
const SLOW = `Running 2s test @ http://127.0.0.1:34413/api/v1/ready
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   128.68ms  234.69ms   1.42s    88.89%
    Req/Sec     0.99k   383.85     1.80k    60.00%
  Latency Distribution
     50%   41.20ms
     75%   65.12ms
     90%  428.32ms
     99%    1.12s${' '}
  1967 requests in 2.01s, 1.40MB read
Requests/sec:    979.48
Transfer/sec:    713.56KB
`;

const FAST = `Running 2s test @ http://127.0.0.1:4000/
  1 threads and 50 connections
  Latency Distribution
     50%  812.00us
     75%    1.01ms
     90%    1.20ms
     99%    2.50ms
  61234 requests in 2.00s, 9.10MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  30617.00
`;

describe('parseWrkReport', () => {
  it('reads a latency in seconds, which wrk pads with a trailing space', () => {
    expect(parseWrkReport(SLOW)).toEqual({ rps: 979.48, p50: 41.2, p99: 1120, non2xx: 0, errors: 0, total: 1967 });
  });

  it('reads microseconds, socket errors and non-2xx answers', () => {
    expect(parseWrkReport(FAST)).toEqual({ rps: 30617, p50: 0.812, p99: 2.5, non2xx: 4, errors: 3, total: 61234 });
  });

  it('gives null for a report without its figures (wrk failed)', () => {
    expect(parseWrkReport('unable to connect to 127.0.0.1:1 Connection refused\n')).toBeNull();
  });
});
