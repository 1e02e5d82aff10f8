/** What one wrk run (`--latency`) reports: rate, median and 99th-percentile latency, errors. */
export interface WrkReport {
  rps: number;
  /** ms */
  p50: number;
  /** ms */
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** wrk's time with its unit (`812.00us`, `1.20ms`, `1.01s`), in ms. */
function wrkMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : n;
}

/**
 * wrk's report, parsed; null when a part is missing (wrk failed). wrk pads its times to a fixed
 * width, so « 1.12s » ends with a space where « 41.20ms » does not.
 */
export function parseWrkReport(out: string): WrkReport | null {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /^\s+50%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)\s*$/m.exec(out);
  const total = /(\d+) requests in/.exec(out);
  if (!rps || !p50 || !p99 || !total) return null;
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Number(rps[1]),
    p50: wrkMs(p50[1] as string, p50[2] as string),
    p99: wrkMs(p99[1] as string, p99[2] as string),
    non2xx: Number(non2xx?.[1] ?? 0),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    total: Number(total[1]),
  };
}
