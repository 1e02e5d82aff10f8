import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALLOWED, checkModuleSizes, lineCount, MAX_LINES } from './module-size.ts';

const tree = mkdtempSync(join(tmpdir(), 'module-size-'));
afterAll(() => rmSync(tree, { recursive: true, force: true }));

function write(file: string, lines: number): void {
  mkdirSync(join(tree, file, '..'), { recursive: true });
  writeFileSync(join(tree, file), 'export const x = 1;\n'.repeat(lines));
}

describe('the module-size check (issue 61 point 2, decision 215)', () => {
  it('counts lines as wc -l does, a last line without its newline included', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });

  it('fails on a hand-written module over the limit, not on one at the limit, a test, a generated file or an allowed one', () => {
    write('bff/too-long.ts', MAX_LINES + 1);
    write('src/just-right.tsx', MAX_LINES);
    write('bff/too-long.test.ts', MAX_LINES * 2);
    write('src/route-tree.gen.ts', MAX_LINES * 2);
    write('machines/known.ts', MAX_LINES + 10);
    write('node_modules/dep/index.ts', MAX_LINES * 2);
    const verdict = checkModuleSizes(tree, { 'machines/known.ts': 'being split', 'bff/split.ts': 'split since' }, [
      'src',
      'bff',
      'machines',
    ]);
    expect(verdict.failures).toEqual([{ file: 'bff/too-long.ts', lines: MAX_LINES + 1 }]);
    expect(verdict.stale).toEqual(['bff/split.ts']);
  });

  it('passes on the repository as it is, every allowance explained', () => {
    const verdict = checkModuleSizes(resolve(import.meta.dirname, '..'));
    expect(verdict.failures).toEqual([]);
    for (const why of Object.values(ALLOWED)) expect(why.length).toBeGreaterThan(0);
  });
});
