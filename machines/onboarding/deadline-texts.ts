import { frenchDateFormat } from '#machines/french/dates.ts';
import { addCalendarDays, type CivilPeriod } from '#machines/onboarding/legal-deadlines.ts';

/**
 * The legal deadlines as a person reads them (decision 165): the screens, the mails, the
 * contract's text and the server's refusals say a period's last day, computed by
 * legal-deadlines.ts, the same way: « jusqu’au lundi 14 décembre 2026 inclus ».
 */

/** A calendar day (`YYYY-MM-DD`) is formatted at noon UTC: the same day in every time zone, Paris included. */
const dayFormat = frenchDateFormat({ timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

/** « lundi 14 décembre 2026 » */
export function civilDayText(day: string): string {
  return dayFormat.format(Date.parse(`${day}T12:00:00Z`));
}

/** « jusqu’au lundi 14 décembre 2026 inclus » */
export function untilText(period: Pick<CivilPeriod, 'lastDay'>): string {
  return `jusqu’au ${civilDayText(period.lastDay)} inclus`;
}

/** « le mardi 15 décembre 2026 à 0 h (heure de Paris) »: the day after the period's last day, as it begins. */
export function dayAfterText(period: Pick<CivilPeriod, 'lastDay'>): string {
  return `le ${civilDayText(addCalendarDays(period.lastDay, 1))} à 0\u00a0h (heure de Paris)`;
}

/** How the periods are counted, as the contract and the pre-contract information say it. */
export const COUNTING_RULE =
  'le jour de la signature n’est pas compté et le délai expire le dernier jour à 24 heures (heure de Paris)\u00a0; s’il expire un samedi, un dimanche ou un jour férié, il est prolongé jusqu’au premier jour ouvrable suivant';
