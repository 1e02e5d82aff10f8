import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * A count reads « 1 compte », « 14 comptes », never « 14 compte(s) »: `machines/french/plural.ts`
 * chooses the form. This test names each « (s) » left in a text of the SPA, the shared rules or the
 * server (comments aside).
 */

/** « membre(s) » before a word, a tag, a quote or the end: not a call such as `label(s)`. */
const LAZY_PLURAL = /\p{L}\(s\)(?=\s\p{L}|[<`'"’]|\s*$)/u;

const tracked = (pattern: string) => execFileSync('git', ['ls-files', '-z', pattern], { encoding: 'utf8' }).split('\0').filter(Boolean);

const sources = ['src', 'machines', 'bff']
  .flatMap((folder) => [...tracked(`${folder}/*.ts`), ...tracked(`${folder}/*.tsx`)])
  .filter((file) => !/\.test\.tsx?$/.test(file));

function lazyPlurals(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      LAZY_PLURAL.test(line) && !/^\s*(\/\/|\*|\/\*\*|\{\/\*)/.test(line) ? [`${file}:${i + 1} ${line.trim().slice(0, 100)}`] : [],
    );
}

describe('French plurals', () => {
  it('finds the lazy plurals it is meant to find, and nothing else', () => {
    expect(lazyPlurals('a.tsx', '<caption>{total} membre(s)</caption>')).toHaveLength(1);
    expect(lazyPlurals('a.ts', '`${n} mensualité(s) payée(s)`')).toHaveLength(1);
    expect(lazyPlurals('a.ts', '  // the action(s) given')).toEqual([]);
    expect(lazyPlurals('a.ts', 'steps.find((s) => s.id === id)')).toEqual([]);
    expect(lazyPlurals('a.ts', "'vous serez prévenu(e) par e-mail'")).toEqual([]);
  });

  it('leaves no « (s) » in what a person reads', () => {
    expect(sources.length).toBeGreaterThan(300);
    const found = sources.flatMap((file) => lazyPlurals(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
