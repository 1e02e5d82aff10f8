/**
 * Dates as French is written. `Intl` writes « 1 décembre »; French writes the first day of a month
 * as an ordinal, « 1er décembre », « mardi 1er décembre 2026 », « du 1er au 7 décembre » (the other
 * days stay cardinal). Every French date the product shows goes through here, in the SPA, the
 * server's mails and PDFs alike; `tests/unit/french-dates.test.ts` refuses a French
 * `Intl.DateTimeFormat` made anywhere else.
 */

export interface FrenchDateFormat {
  format(date: Date | number): string;
  formatToParts(date: Date | number): Intl.DateTimeFormatPart[];
}

const isDigits = (value: string) => /^\d+$/.test(value);

export function frenchDateFormat(options: Intl.DateTimeFormatOptions): FrenchDateFormat {
  const intl = new Intl.DateTimeFormat('fr-FR', options);
  const formatToParts = (date: Date | number): Intl.DateTimeFormatPart[] => {
    const parts = intl.formatToParts(date);
    // « 01/12/2026 » keeps its figures: only a day written with words around it takes « er ».
    if (parts.some((p) => p.type === 'month' && isDigits(p.value))) return parts;
    return parts.map((p) => (p.type === 'day' && p.value === '1' ? { type: 'day', value: '1er' } : p));
  };
  return {
    format: (date) =>
      formatToParts(date)
        .map((p) => p.value)
        .join(''),
    formatToParts,
  };
}
