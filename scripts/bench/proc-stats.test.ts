import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processCpuNs, stealOf, stolenShare } from './proc-stats.ts';

const fake = mkdtempSync(join(tmpdir(), 'proc-stats-'));
afterAll(() => rmSync(fake, { recursive: true, force: true }));

describe('processCpuNs', () => {
  it('sums the CPU time of every thread of a process', () => {
    for (const [tid, ns] of [
      ['41', 1_500_000],
      ['42', 250_000],
    ] as const) {
      mkdirSync(join(fake, '41', 'task', tid), { recursive: true });
      writeFileSync(join(fake, '41', 'task', tid, 'schedstat'), `${ns} 9999 12\n`);
    }
    expect(processCpuNs(41, fake)).toBe(1_750_000);
  });

  it('gives undefined for no process, or one that is gone', () => {
    expect(processCpuNs(undefined, fake)).toBeUndefined();
    expect(processCpuNs(999_999, fake)).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('grows with the work this process does', () => {
    const before = processCpuNs(process.pid) as number;
    const until = performance.now() + 30;
    let spin = 0;
    while (performance.now() < until) spin += 1;
    expect(spin).toBeGreaterThan(0);
    expect((processCpuNs(process.pid) as number) - before).toBeGreaterThan(10_000_000);
  });
});

describe('stealOf and stolenShare', () => {
  const stat = (cpu0: string) =>
    `cpu  56296 0 34962 116005 833 0 15136 5450 0 0\ncpu0 ${cpu0}\ncpu1 10824 0 19401 71624 691 0 5136 4018 0 0\nintr 1 2 3\n`;

  it("reads a core's steal and total time and the share stolen between two readings", () => {
    writeFileSync(join(fake, 'stat'), stat('100 0 50 800 0 0 40 10 0 0'));
    const before = stealOf('cpu0', fake);
    expect(before).toEqual({ steal: 10, total: 1000 });
    writeFileSync(join(fake, 'stat'), stat('400 0 150 900 0 0 140 110 0 0'));
    const after = stealOf('cpu0', fake);
    expect(after).toEqual({ steal: 110, total: 1700 });
    expect(stolenShare(before, after)).toBeCloseTo(100 / 700);
    expect(stealOf('cpu', fake)).toEqual({ steal: 5450, total: 56296 + 34962 + 116005 + 833 + 15136 + 5450 });
  });

  it('gives undefined for a missing line, a missing file or readings that do not advance', () => {
    expect(stealOf('cpu7', fake)).toBeUndefined();
    expect(stealOf('cpu', join(fake, 'nowhere'))).toBeUndefined();
    expect(stolenShare({ steal: 1, total: 10 }, { steal: 1, total: 10 })).toBeUndefined();
    expect(stolenShare(undefined, { steal: 1, total: 10 })).toBeUndefined();
  });
});
