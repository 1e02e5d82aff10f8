/**
 * Dates of birth and ages, in France's calendar: used by the birth-date rule of the forms
 * (`forms.ts`) and by screens that show an age, which need not load the forms' rules.
 */
import { parisDayOf } from '#machines/paris-time.ts';

/** Calendar date `YYYY-MM-DD` that exists (no 31 February). */
export function calendarDate(value: string): { y: number; m: number; d: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d ? { y, m, d } : null;
}

/** Age in whole years on the day `now` falls on in France. */
export function ageOn(birthDate: string, now: number): number | null {
  return ageOnDay(birthDate, parisDayOf(now));
}

/** The last day asked of ageOnDay, read once for the many ages of a list or an export. */
let lastDay: { day: string; date: ReturnType<typeof calendarDate> } = { day: '', date: null };

/** Age in whole years on the French day `day` (`YYYY-MM-DD`): for many ages on one day, Paris's day read once. */
export function ageOnDay(birthDate: string, day: string): number | null {
  const birth = calendarDate(birthDate);
  if (day !== lastDay.day) lastDay = { day, date: calendarDate(day) };
  const today = lastDay.date;
  if (!birth || !today) return null;
  const beforeBirthday = today.m < birth.m || (today.m === birth.m && today.d < birth.d);
  return today.y - birth.y - (beforeBirthday ? 1 : 0);
}
