import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  AgendaQuery,
  addDays,
  daysBetween,
  isCalendarDay,
  mondayOf,
  parisDayOf,
  PERIOD_NEEDED,
  parisDayStartMs,
  periodInstants,
} from '#machines/agenda/agenda.ts';

describe('the agenda period', () => {
  it('starts a Paris day at Paris midnight, in winter and in summer, across the DST changes', () => {
    expect(new Date(parisDayStartMs('2026-11-25')).toISOString()).toBe('2026-11-24T23:00:00.000Z');
    expect(new Date(parisDayStartMs('2026-07-14')).toISOString()).toBe('2026-07-13T22:00:00.000Z');
    // The days of the changes (29 March and 25 October 2026): 23 and 25 hours long.
    expect(parisDayStartMs('2026-03-30') - parisDayStartMs('2026-03-29')).toBe(23 * 3600_000);
    expect(parisDayStartMs('2026-10-26') - parisDayStartMs('2026-10-25')).toBe(25 * 3600_000);
    expect(parisDayOf(Date.parse('2026-11-24T23:30:00Z'))).toBe('2026-11-25');
    expect(parisDayOf(Date.parse('2026-11-24T22:59:59Z'))).toBe('2026-11-24');
  });

  it('counts days, weeks from Monday, and the instants of a period', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(daysBetween('2026-11-25', '2026-11-25')).toBe(1);
    expect(daysBetween('2026-11-01', '2026-12-01')).toBe(31);
    expect(mondayOf('2026-11-25')).toBe('2026-11-23'); // a Wednesday
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // a Sunday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    const { fromMs, toMs } = periodInstants('2026-11-23', '2026-11-29');
    expect(new Date(fromMs).toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(new Date(toMs).toISOString()).toBe('2026-11-29T23:00:00.000Z');
  });

  it('validates the query in French: real dates, in order, 31 days at most', () => {
    expect(v.safeParse(AgendaQuery, { du: '2026-11-01', au: '2026-12-01' }).success).toBe(true);
    const message = (q: unknown) => v.safeParse(AgendaQuery, q).issues?.[0]?.message;
    expect(message({ du: '2026-11-01', au: '2026-12-02' })).toBe('Une période de 31 jours au plus.');
    expect(message({ du: '2026-11-25', au: '2026-11-24' })).toBe('La fin de la période doit suivre son début.');
    expect(message({ du: '2026-02-30', au: '2026-03-01' })).toMatch(/^Début\s: date invalide/);
    expect(message({ du: '2026-11-25' })).toBe(PERIOD_NEEDED);
    expect(message({ du: '2026-11-25', au: 7 })).toMatch(/^Fin\s: date attendue/);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2027-02-29')).toBe(false);
    expect(isCalendarDay('25/11/2026')).toBe(false);
  });
});
