import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchingLines, textSources } from '#tests/support/text-sources.ts';

/**
 * Dates, times and counts as French writes them (decision 147): every date a person reads goes
 * through `machines/french/dates.ts` (« mardi 1er décembre 2026 à 9 h 05 »; `Intl` alone writes
 * « 1 décembre » and « 09:05 »), and every count through `machines/french/plural.ts` (« 14
 * comptes », never « compte(s) »). These tests name each line that bypasses them.
 */

/** A French `Intl` date format; those in `en-*` locales compute calendar days (`2026-12-01`) and are never shown. */
const HAND_MADE_DATE =
  /Intl\.DateTimeFormat\(\s*(?!['"]en-)|\.toLocale(Date|Time)String\(|\.toLocaleString\(\s*['"]fr[^)]*(timeZone|day|month)/;

/** « membre(s) » before a word, a tag, a quote or the end: not a call such as `label(s)`. */
const LAZY_PLURAL = /\p{L}\(s\)(?=\s\p{L}|[<`'"’]|\s*$)/u;

/** An « s » added by hand after a count (`n > 1 ? 's' : ''`): the helper says it once, for every count. */
const HAND_MADE_PLURAL = /\?\s*(['"])s\1\s*:\s*(['"])\2|\?\s*(['"])\3\s*:\s*(['"])s\4/;

const sources = textSources();
const everyLine = (pattern: RegExp, except: string[] = []) =>
  sources.filter((file) => !except.includes(file)).flatMap((file) => matchingLines(file, readFileSync(file, 'utf8'), pattern));

describe('French dates', () => {
  const found = (line: string) => matchingLines('a.ts', line, HAND_MADE_DATE);

  it('finds the formats it is meant to find, and nothing else', () => {
    expect(found("const d = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long' });")).toHaveLength(1);
    expect(found('const d = new Intl.DateTimeFormat(undefined, {});')).toHaveLength(1);
    expect(found("at.toLocaleDateString('fr-FR')")).toHaveLength(1);
    expect(found("at.toLocaleString('fr-FR', { timeZone: 'Europe/Paris' })")).toHaveLength(1);
    expect(found("new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' })")).toEqual([]);
    expect(found("const n = euros.toLocaleString('fr-FR');")).toEqual([]);
    expect(found(' * `Intl.DateTimeFormat(` in a comment')).toEqual([]);
  });

  it('formats every shown date through the French date helper', () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(everyLine(HAND_MADE_DATE, ['machines/french/dates.ts'])).toEqual([]);
  });
});

describe('French plurals', () => {
  const found = (line: string) => matchingLines('a.tsx', line, LAZY_PLURAL);

  it('finds the lazy plurals it is meant to find, and nothing else', () => {
    expect(found('<caption>{total} membre(s)</caption>')).toHaveLength(1);
    expect(found('`${n} mensualité(s) payée(s)`')).toHaveLength(1);
    expect(found('  // the action(s) given')).toEqual([]);
    expect(found('steps.find((s) => s.id === id)')).toEqual([]);
    expect(found('new Map(rows.map((s) => [s.id, displayName(s)]));')).toEqual([]);
    expect(found("'vous serez prévenu(e) par e-mail'")).toEqual([]);
  });

  it('leaves no « (s) » in what a person reads', () => {
    expect(everyLine(LAZY_PLURAL)).toEqual([]);
  });

  it('finds the « s » added by hand, and nothing else', () => {
    const hand = (line: string) => matchingLines('a.ts', line, HAND_MADE_PLURAL);
    expect(hand("n + ' essai' + (n > 1 ? 's' : '')")).toHaveLength(1);
    expect(hand('n + " jour" + (n === 1 ? "" : "s")')).toHaveLength(1);
    expect(hand("count(n, 'essai', 'essais')")).toEqual([]);
    expect(hand("const x = ok ? 'oui' : '';")).toEqual([]);
  });

  it('writes every count through the plural helper', () => {
    expect(everyLine(HAND_MADE_PLURAL)).toEqual([]);
  });
});
