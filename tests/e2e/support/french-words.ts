import {
  maritalStatusLabels,
  offerLabels,
  paymentStatusLabels,
  prayerPracticeLabels,
  professionalSituationLabels,
  regionLabels,
  soughtPracticeLabels,
  stateLabels,
} from '#machines/onboarding/labels.ts';
import { eventLabels } from '#machines/onboarding/event-labels.ts';

/**
 * What a French walk (tests/e2e/french-walk.spec.ts) refuses in what a person reads: English
 * interface words (a framework's or a template's default left in place) and stored codes (an
 * answer, a plan, a state or an event shown without its label from machines/onboarding/labels.ts).
 */

/** English interface words, as they appear when a default was left untranslated. */
const ENGLISH_UI_WORDS = [
  'Not Found',
  'Page not found',
  'Go back',
  'Go home',
  'Loading',
  'Submit',
  'Search...',
  'Search…',
  'Sign in',
  'Sign up',
  'Log in',
  'Read more',
  'Learn more',
  'Something went wrong',
  'Cancel',
  'Close',
  'Previous',
  'Next',
] as const;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const englishPattern = new RegExp(
  ENGLISH_UI_WORDS.map((word) => `(?<![\\p{L}\\p{N}])${escapeRegExp(word)}(?![\\p{L}\\p{N}])`).join('|'),
  'gu',
);

/** The English interface words found in `text`. */
export function englishWords(text: string): string[] {
  return [...text.matchAll(englishPattern)].map((match) => match[0]);
}

/** Codes that are also ordinary French words, as a sentence may write them. */
const FRENCH_COMPOUNDS = new Set(['outre-mer']);

/** Every code of the label table made of several words (kebab-case, snake_case or SCREAMING_SNAKE). */
const KNOWN_CODES: readonly string[] = [
  ...new Set(
    [
      maritalStatusLabels,
      prayerPracticeLabels,
      soughtPracticeLabels,
      regionLabels,
      professionalSituationLabels,
      offerLabels,
      paymentStatusLabels,
      stateLabels,
      eventLabels,
    ].flatMap((table) => Object.keys(table).flatMap((key) => key.split('.'))),
  ),
].filter((code) => /[-_]/.test(code) && !FRENCH_COMPOUNDS.has(code));

const LETTER = '\\p{L}\\p{N}';
/** A token standing alone (not inside a longer word, a hyphenated French word or a path). */
const alone = (body: string) => `(?<![${LETTER}_/.@-])(?:${body})(?![${LETTER}_/@-])`;
const GENERIC_CODES = [
  // snake_case and SCREAMING_SNAKE: never French.
  '[a-z][a-z0-9]*(?:_[a-z0-9]+)+',
  '[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+',
  // kebab-case of three or more plain-ASCII lowercase parts ("ile-de-france"); French hyphenated
  // words of that length carry an accent ("c'est-à-dire") or the euphonic t ("va-t-il").
  '(?![a-z]+-t-)[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}',
];
const codePattern = new RegExp(alone([...KNOWN_CODES.map(escapeRegExp), ...GENERIC_CODES].join('|')), 'gu');

/** Web addresses and e-mail addresses, which may be kebab-case and are meant to be read as they are. */
const ADDRESSES = /\b(?:https?:\/\/|www\.)\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/** The stored codes (or code-like tokens) found in `text`. */
export function storedCodes(text: string): string[] {
  return [...text.replace(ADDRESSES, ' ').matchAll(codePattern)].map((match) => match[0]);
}
