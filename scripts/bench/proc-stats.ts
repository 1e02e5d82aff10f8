/**
 * What Linux says about a benchmark's processes and cores (decision 096), read from /proc. Every
 * reader gives undefined where /proc does not answer (another system, a process gone).
 */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time used so far by every thread of process `pid` (main thread, GC helpers, libuv pool), in
 * ns: the first field of /proc/<pid>/task/<tid>/schedstat, summed.
 */
export function processCpuNs(pid: number | undefined, proc = '/proc'): number | undefined {
  if (pid === undefined) return undefined;
  let tasks: string[];
  try {
    tasks = readdirSync(`${proc}/${pid}/task`);
  } catch {
    return undefined;
  }
  let total = 0;
  for (const tid of tasks) {
    try {
      total += Number(readFileSync(`${proc}/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread gone meanwhile
    }
  }
  return total;
}

/**
 * The steal and total time (in clock ticks) of one line of /proc/stat: `cpu` for the whole machine,
 * `cpu0` for the first core. Steal is the time the host gave the vCPU to someone else.
 */
export function stealOf(line: 'cpu' | `cpu${number}`, proc = '/proc'): { steal: number; total: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`${proc}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const fields = stat
    .split('\n')
    .find((l) => l.startsWith(`${line} `))
    ?.trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  if (!fields || fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return undefined;
  return { steal: fields[7] as number, total: fields.reduce((sum, n) => sum + n, 0) };
}

/** The share of the time between two readings that was stolen, 0–1. */
export function stolenShare(before: ReturnType<typeof stealOf>, after: ReturnType<typeof stealOf>): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}
