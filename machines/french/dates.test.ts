import { describe, expect, it } from 'vitest';
import { frenchDateFormat } from './dates.ts';

const paris = (options: Intl.DateTimeFormatOptions) => frenchDateFormat({ timeZone: 'Europe/Paris', ...options });
const firstOfDecember = new Date('2026-12-01T13:30:00Z');

describe('frenchDateFormat', () => {
  it('writes the first of the month as « 1er », in every written style', () => {
    expect(paris({ dateStyle: 'full', timeStyle: 'short' }).format(firstOfDecember)).toBe('mardi 1er décembre 2026 à 14:30');
    expect(paris({ dateStyle: 'long' }).format(firstOfDecember)).toBe('1er décembre 2026');
    expect(paris({ day: 'numeric', month: 'short', year: 'numeric' }).format(firstOfDecember)).toBe('1er déc. 2026');
    expect(paris({ weekday: 'long', day: 'numeric', month: 'long' }).format(firstOfDecember.getTime())).toBe('mardi 1er décembre');
    // « Semaine du 1er au 7 décembre »: the day alone, its month written after it.
    expect(paris({ day: 'numeric' }).format(firstOfDecember)).toBe('1er');
  });

  it('leaves the other days, figures-only dates and times as Intl writes them', () => {
    expect(paris({ dateStyle: 'long' }).format(new Date('2026-12-11T10:00:00Z'))).toBe('11 décembre 2026');
    expect(paris({ dateStyle: 'long' }).format(new Date('2026-12-21T10:00:00Z'))).toBe('21 décembre 2026');
    expect(paris({ dateStyle: 'short', timeStyle: 'medium' }).format(firstOfDecember)).toBe('01/12/2026 14:30:00');
    expect(paris({ day: 'numeric', month: 'numeric' }).format(firstOfDecember)).toBe('01/12');
    expect(paris({ hour: 'numeric', minute: '2-digit', hourCycle: 'h23' }).format(new Date('2026-12-01T00:01:00Z'))).toBe('1:01');
  });

  it('takes the day in the time zone it is given', () => {
    // 23:30 UTC on 30 November is already 1 December in Paris.
    const lateNovember = new Date('2026-11-30T23:30:00Z');
    expect(paris({ dateStyle: 'long' }).format(lateNovember)).toBe('1er décembre 2026');
    expect(frenchDateFormat({ timeZone: 'UTC', dateStyle: 'long' }).format(lateNovember)).toBe('30 novembre 2026');
  });

  it('gives the same parts as its text', () => {
    const format = paris({ dateStyle: 'full' });
    const parts = format.formatToParts(firstOfDecember);
    expect(parts.find((p) => p.type === 'day')?.value).toBe('1er');
    expect(parts.map((p) => p.value).join('')).toBe(format.format(firstOfDecember));
  });
});
