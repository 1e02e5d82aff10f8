import { findPhoneNumbersInText } from 'libphonenumber-js/min';

/**
 * Phone numbers hidden in a member's presentation (decision 200), for `contact-details.ts`:
 * libphonenumber-js, runs of nine digits or more, and numbers read aloud in French or English
 * words, digits and words mixed. `folded` is the text lowercased without accents, same length.
 */
/** Nine digits or more in a row, single spaces, dots, dashes or slashes between them. */
const DIGIT_RUN = /(?:\d[\s./-]?){8,}\d/;

const UNITS: Record<string, number> = {
  zero: 0,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  six: 6,
  sept: 7,
  huit: 8,
  neuf: 9,
  oh: 0,
  o: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  seven: 7,
  eight: 8,
  nine: 9,
};
const TEENS: Record<string, number> = {
  dix: 10,
  onze: 11,
  douze: 12,
  treize: 13,
  quatorze: 14,
  quinze: 15,
  seize: 16,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  vingt: 20,
  vingts: 20,
  trente: 30,
  quarante: 40,
  cinquante: 50,
  soixante: 60,
  septante: 70,
  huitante: 80,
  octante: 80,
  nonante: 90,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
/** Words that may sit inside a number read aloud without ending it. */
const GLUE = new Set(['et', 'and']);

/** One token's number value (digits, a number word), or null. */
function numberOf(token: string): { digits: string } | null {
  if (/^\d+$/.test(token)) return { digits: token };
  return null;
}

/**
 * Reads the runs of numbers written in words (French, Belgian/Swiss, English), digits mixed in,
 * and answers the longest run's digits. « zéro six douze trente-quatre cinquante-six
 * soixante-dix-huit » → « 0612345678 ».
 */
function spokenDigitRuns(folded: string): { digits: string; start: number; end: number }[] {
  const tokens = [...folded.matchAll(/[a-z]+|\d+/g)].map((m) => ({ word: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
  const runs: { digits: string; start: number; end: number }[] = [];
  let digits = '';
  let words = 0;
  let start = -1;
  let end = -1;
  const close = () => {
    if (digits.length > 0 && words > 0) runs.push({ digits, start, end });
    digits = '';
    words = 0;
    start = -1;
  };
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i] as { word: string; start: number; end: number };
    const next = (k: number) => tokens[i + k]?.word;
    // Only what lies between the tokens may separate the numbers: spaces, hyphens, commas, dots.
    if (start >= 0 && !/^[\s,.;/-]*$/.test(folded.slice(end, t.start))) close();
    let value: string | null = null;
    let used = 1;
    const plain = numberOf(t.word);
    if (plain) value = plain.digits;
    else if (t.word === 'quatre' && (next(1) === 'vingt' || next(1) === 'vingts')) {
      // quatre-vingt(s), quatre-vingt-un, quatre-vingt-dix, quatre-vingt-douze…
      let n = 80;
      used = 2;
      const after = next(2);
      if (after !== undefined && after in TEENS) {
        n += TEENS[after] as number;
        used = 3;
        if (after === 'dix' && next(3) !== undefined && (next(3) as string) in UNITS && (UNITS[next(3) as string] as number) >= 7) {
          n += UNITS[next(3) as string] as number;
          used = 4;
        }
      } else if (after !== undefined && after in UNITS && after !== 'o' && after !== 'oh') {
        n += UNITS[after] as number;
        used = 3;
      }
      value = String(n);
    } else if (t.word in TENS) {
      let n = TENS[t.word] as number;
      let k = 1;
      if (next(k) !== undefined && GLUE.has(next(k) as string)) k += 1;
      const after = next(k);
      if (n === 60 && after !== undefined && after in TEENS) {
        n += TEENS[after] as number;
        used = k + 1;
        if (
          after === 'dix' &&
          next(k + 1) !== undefined &&
          (next(k + 1) as string) in UNITS &&
          (UNITS[next(k + 1) as string] as number) >= 7
        ) {
          n += UNITS[next(k + 1) as string] as number;
          used = k + 2;
        }
      } else if (after !== undefined && after in UNITS && after !== 'o' && after !== 'oh' && UNITS[after] !== 0) {
        n += UNITS[after] as number;
        used = k + 1;
      }
      value = String(n);
    } else if (t.word in TEENS) {
      let n = TEENS[t.word] as number;
      if (t.word === 'dix' && next(1) !== undefined && (next(1) as string) in UNITS && (UNITS[next(1) as string] as number) >= 7) {
        n += UNITS[next(1) as string] as number;
        used = 2;
      }
      value = String(n);
    } else if (t.word in UNITS && !(t.word === 'o' || t.word === 'oh' || t.word === 'un' || t.word === 'une')) {
      value = String(UNITS[t.word]);
    } else if ((t.word === 'o' || t.word === 'oh' || t.word === 'un' || t.word === 'une') && start >= 0) {
      // « oh », « un » only inside a run already started (« un » alone is an article).
      value = String(UNITS[t.word]);
    } else if (t.word === 'double' && next(1) !== undefined && (next(1) as string) in UNITS) {
      const d = String(UNITS[next(1) as string]);
      value = d + d;
      used = 2;
    }
    if (value === null) {
      close();
      i += 1;
      continue;
    }
    if (start < 0) start = t.start;
    digits += value;
    if (!/^\d+$/.test(t.word)) words += 1;
    end = (tokens[i + used - 1] as { end: number }).end;
    i += used;
  }
  close();
  return runs;
}

/** The first phone number in the text, as written: digits, any country's number, or digits read aloud. */
export function findPhone(text: string, folded: string): string | null {
  const run = DIGIT_RUN.exec(text);
  if (run) return run[0];
  const [number] = findPhoneNumbersInText(text, 'FR');
  if (number) return text.slice(number.startsAt, number.endsAt);
  // Eight digits read aloud are already most of a French number (ten digits).
  const spoken = spokenDigitRuns(folded).find((r) => r.digits.length >= 8);
  return spoken ? text.slice(spoken.start, spoken.end) : null;
}
