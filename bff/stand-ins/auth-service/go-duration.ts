const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const SEGMENT = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;

/**
 * Parses a Go duration (`time.ParseDuration`: "876000h", "1h30m", "1.5h", "0") into
 * milliseconds, or returns undefined when the text is not one. Negative durations are refused.
 */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  let total = 0;
  let position = 0;
  SEGMENT.lastIndex = 0;
  for (let match = SEGMENT.exec(text); match; match = SEGMENT.exec(text)) {
    const [whole, amount, unit] = match;
    total += Number(amount) * (UNIT_MS[unit ?? ''] ?? Number.NaN);
    position += whole.length;
  }
  return position === text.length && Number.isFinite(total) ? total : undefined;
}
