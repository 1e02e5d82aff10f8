import { describe, expect, it } from 'vitest';
import { parisOffsetMs } from '#machines/paris-time.ts';
import { frenchDateFormat, frenchTimeFormat, parisDayFormatter } from './dates.ts';

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

describe('parisDayFormatter', () => {
  const HOUR = 3_600_000;
  for (const dateStyle of ['short', 'long', 'full'] as const) {
    it(`writes what the formatter writes (${dateStyle}), around every change of time from 2000 to 2040, at Paris’s midnights and at random`, () => {
      const format = paris({ dateStyle }).format;
      let asked = 0;
      const counted = (date: Date | number) => {
        asked += 1;
        return format(date);
      };
      const day = parisDayFormatter(counted, parisOffsetMs, 400);
      const instants: number[] = [];
      for (let year = 2000; year <= 2040; year += 1) {
        // The last Sundays of March and October, 01:00 UTC, and every quarter of an hour 3 h either side.
        for (const month of [2, 9]) {
          const last = new Date(Date.UTC(year, month + 1, 0));
          const change = Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
          for (let q = -12; q <= 12; q += 1) instants.push(change + q * 15 * 60_000);
        }
        // Midnight in Paris (22:00 or 23:00 UTC), a millisecond either side, in both seasons.
        for (const month of [0, 6]) {
          const midnight = Date.UTC(year, month, 15) - parisOffsetMs(Date.UTC(year, month, 15));
          instants.push(midnight - 1, midnight, midnight + 1, midnight + HOUR - 1);
        }
      }
      let seed = 64;
      for (let i = 0; i < 5000; i += 1) {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        instants.push(Date.UTC(2000, 0, 1) + Math.floor((seed / 2 ** 31) * 40 * 365 * 86_400_000));
      }
      // Twice over: the second pass reads the days it kept (up to 400, then forgotten and asked again).
      for (const ms of [...instants, ...instants]) expect(day(ms), new Date(ms).toISOString()).toBe(format(ms));
      expect(asked).toBeLessThan(2 * instants.length);
    });
  }

  it('asks the formatter once per day for a day’s instants', () => {
    let asked = 0;
    const day = parisDayFormatter((date) => {
      asked += 1;
      return paris({ dateStyle: 'short' }).format(date);
    }, parisOffsetMs);
    const start = Date.parse('2026-12-07T00:00:00Z');
    for (let minute = 0; minute < 22 * 60; minute += 7) expect(day(start + minute * 60_000)).toBe('07/12/2026');
    expect(day(Date.parse('2026-12-07T23:30:00Z'))).toBe('08/12/2026');
    expect(asked).toBe(2);
  });
});
