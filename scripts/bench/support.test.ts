import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { median, writeSection } from './support.ts';

const folder = mkdtempSync(join(tmpdir(), 'bench-doc-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
vi.spyOn(console, 'log').mockImplementation(() => undefined);

describe('writeSection (docs/benchmarks.md)', () => {
  it('replaces the previous run of a section in its place, and keeps the notes written by hand', () => {
    const file = join(folder, 'benchmarks.md');
    const before = ['## HTTP load — 2026-11-27T20:49:49Z', '', '| old table |', ''];
    const after = ['## HTTP load — 2026-12-01T17:36:08Z', '', '| new table |', ''];
    const kept = [
      '## Notes on the HTTP load',
      '',
      'Why the settings cost what they cost.',
      '',
      '## Start-up — 2026-11-27T20:49:49Z',
      '',
      'old start-up',
      '',
    ];
    const added = ['## Lighthouse — 2026-12-01T18:00:00Z', '', 'scores', ''];
    writeFileSync(file, ['# Measured figures', '', ...before, ...kept].join('\n'));
    writeSection('HTTP load', after.join('\n'), file);
    writeSection('Lighthouse', added.join('\n'), file);
    expect(readFileSync(file, 'utf8')).toBe(['# Measured figures', '', ...after, ...kept, ...added].join('\n'));
  });
});

describe('median (the bench and Lighthouse)', () => {
  it('takes the middle figure, or the mean of the two middle ones, whatever their order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([2512])).toBe(2512);
    expect(median([])).toBeNaN();
  });
});
