import { describe, expect, it } from 'vitest';
import { frenchDateFormat, frenchTimeFormat } from './dates.ts';

const paris = (options: Intl.DateTimeFormatOptions) => frenchDateFormat({ timeZone: 'Europe/Paris', ...options });
const firstOfDecember = new Date('2026-12-01T13:30:00Z');

describe('frenchDateFormat', () => {
  it('writes the first of the month as « 1er », in every written style', () => {
    expect(paris({ dateStyle: 'full', timeStyle: 'short' }).format(firstOfDecember)).toBe('mardi 1er décembre 2026 à 14\u00a0h\u00a030');
    expect(paris({ dateStyle: 'long' }).format(firstOfDecember)).toBe('1er décembre 2026');
    expect(paris({ day: 'numeric', month: 'short', year: 'numeric' }).format(firstOfDecember)).toBe('1er déc. 2026');
    expect(paris({ weekday: 'long', day: 'numeric', month: 'long' }).format(firstOfDecember.getTime())).toBe('mardi 1er décembre');
    // « Semaine du 1er au 7 décembre »: the day alone, its month written after it.
    expect(paris({ day: 'numeric' }).format(firstOfDecember)).toBe('1er');
  });

  it('leaves the other days, and dates in figures with their times, as Intl writes them', () => {
    expect(paris({ dateStyle: 'long' }).format(new Date('2026-12-11T10:00:00Z'))).toBe('11 décembre 2026');
    expect(paris({ dateStyle: 'long' }).format(new Date('2026-12-21T10:00:00Z'))).toBe('21 décembre 2026');
    expect(paris({ dateStyle: 'short', timeStyle: 'medium' }).format(firstOfDecember)).toBe('01/12/2026 14:30:00');
    expect(paris({ day: 'numeric', month: 'numeric' }).format(firstOfDecember)).toBe('01/12');
    expect(paris({ day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(firstOfDecember)).toBe(
      '01/12/2026 14:30',
    );
  });

  it('takes the day in the time zone it is given', () => {
    // 23:30 UTC on 30 November is already 1 December in Paris.
    const lateNovember = new Date('2026-11-30T23:30:00Z');
    expect(paris({ dateStyle: 'long' }).format(lateNovember)).toBe('1er décembre 2026');
    expect(frenchDateFormat({ timeZone: 'UTC', dateStyle: 'long' }).format(lateNovember)).toBe('30 novembre 2026');
  });

  it('writes a time « 14 h 05 », kept on one line, alone or after a date', () => {
    const time = frenchTimeFormat('Europe/Paris');
    expect(time.format(firstOfDecember)).toBe('14\u00a0h\u00a030');
    expect(time.format(new Date('2026-12-01T08:05:00Z'))).toBe('9\u00a0h\u00a005');
    expect(time.format(new Date('2026-11-30T23:00:00Z'))).toBe('0\u00a0h\u00a000');
    // Summer time: 07:05 UTC is 9 h 05 in Paris in July.
    expect(time.format(new Date('2026-07-01T07:05:00Z'))).toBe('9\u00a0h\u00a005');
    expect(paris({ dateStyle: 'long', timeStyle: 'short' }).format(new Date('2026-12-11T08:05:00Z'))).toBe(
      '11 décembre 2026 à 9\u00a0h\u00a005',
    );
    expect(paris({ hour: 'numeric', minute: '2-digit', hourCycle: 'h23' }).format(new Date('2026-12-01T00:01:00Z'))).toBe(
      '1\u00a0h\u00a001',
    );
  });
});
