import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every date a person reads goes through `machines/french/dates.ts`, which writes the first of the
 * month « 1er » as French does; `Intl` alone writes « 1 décembre ». A date formatted with `Intl`
 * in another file would bring that back, so this test names each one. Formats in `en-*` locales
 * compute calendar days (`2026-12-01`) and are never shown.
 */

const HAND_MADE_DATE =
  /Intl\.DateTimeFormat\(\s*(?!['"]en-)|\.toLocale(Date|Time)String\(|\.toLocaleString\(\s*['"]fr[^)]*(timeZone|day|month)/;

const tracked = (pattern: string) => execFileSync('git', ['ls-files', '-z', pattern], { encoding: 'utf8' }).split('\0').filter(Boolean);

const sources = ['src', 'machines', 'bff']
  .flatMap((folder) => [...tracked(`${folder}/*.ts`), ...tracked(`${folder}/*.tsx`)])
  .filter((file) => !/\.test\.tsx?$/.test(file) && file !== 'machines/french/dates.ts');

function handMadeDates(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      HAND_MADE_DATE.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${file}:${i + 1} ${line.trim().slice(0, 100)}`] : [],
    );
}

describe('French dates', () => {
  it('finds the formats it is meant to find, and nothing else', () => {
    expect(handMadeDates('a.ts', "const d = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long' });")).toHaveLength(1);
    expect(handMadeDates('a.ts', 'const d = new Intl.DateTimeFormat(undefined, {});')).toHaveLength(1);
    expect(handMadeDates('a.ts', "at.toLocaleDateString('fr-FR')")).toHaveLength(1);
    expect(handMadeDates('a.ts', "at.toLocaleString('fr-FR', { timeZone: 'Europe/Paris' })")).toHaveLength(1);
    expect(handMadeDates('a.ts', "new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' })")).toEqual([]);
    expect(handMadeDates('a.ts', "const n = euros.toLocaleString('fr-FR');")).toEqual([]);
    expect(handMadeDates('a.ts', ' * `Intl.DateTimeFormat(` in a comment')).toEqual([]);
  });

  it('formats every shown date through the French date helper', () => {
    expect(sources.length).toBeGreaterThan(300);
    const found = sources.flatMap((file) => handMadeDates(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
