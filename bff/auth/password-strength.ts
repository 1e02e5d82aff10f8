import type { ZxcvbnFactory, ZxcvbnResult } from '@zxcvbn-ts/core';

/**
 * The password policy of issue 60 (decision 180), checked on the server only (the strength
 * library and its dictionaries, ~1.5 MB, never reach a browser): at least `PASSWORD_MIN_LENGTH`
 * characters (machines/auth/credentials.ts), then zxcvbn-ts with its common-password list, the
 * French dictionaries (common words, first and last names, Wikipedia) and the person's own
 * details (name, e-mail address) as user inputs. A score under `MIN_SCORE` is refused, and the
 * French message says why.
 */

/** zxcvbn's 3: about 10^8 guesses or more ("safely unguessable" against a slow hash offline). */
const MIN_SCORE = 3;

export type PasswordWeakness = { reason: 'PASSWORD_TOO_COMMON' | 'PASSWORD_PERSONAL'; message: string };

export const PASSWORD_PERSONAL_MESSAGE =
  'Ce mot de passe reprend votre nom ou votre adresse e-mail\u00a0: choisissez-en un qui ne parle pas de vous.';
export const PASSWORD_TOO_COMMON_MESSAGE =
  'Ce mot de passe est trop courant ou trop facile à deviner\u00a0: allongez-le avec quelques mots inattendus.';

let factory: Promise<ZxcvbnFactory> | undefined;

/** Built at the first check, not at start (the dictionaries take a moment to load). */
function strengthChecker(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-fr')]).then(
    ([core, common, fr]) =>
      new core.ZxcvbnFactory({
        translations: fr.translations,
        graphs: common.adjacencyGraphs,
        dictionary: { ...common.dictionary, ...fr.dictionary },
      }),
  );
  return factory;
}

/** The words of a person's details that a password must not be built on: names, the address's parts. */
function personalWords(details: (string | null | undefined)[]): string[] {
  const words = new Set<string>();
  for (const detail of details) {
    if (!detail) continue;
    const lower = detail.trim().toLowerCase();
    if (lower === '') continue;
    words.add(lower);
    for (const part of lower.split(/[^\p{L}\p{N}]+/u)) if (part.length >= 3) words.add(part);
  }
  return [...words];
}

/** Why `password` is refused (beyond its length), or null when it is strong enough. */
export async function passwordWeakness(password: string, details: (string | null | undefined)[]): Promise<PasswordWeakness | null> {
  const checker = await strengthChecker();
  const words = personalWords(details);
  const result: ZxcvbnResult = checker.check(password, words);
  const personal = { reason: 'PASSWORD_PERSONAL', message: PASSWORD_PERSONAL_MESSAGE } as const;
  if (result.score < MIN_SCORE) {
    const built = result.sequence.some((match) => match.pattern === 'dictionary' && match.dictionaryName === 'userInputs');
    return built ? personal : { reason: 'PASSWORD_TOO_COMMON', message: PASSWORD_TOO_COMMON_MESSAGE };
  }
  // Built on the person's details: what is left without them must be strong on its own.
  const lower = password.toLowerCase();
  const found = words.filter((word) => word.length >= 4 && lower.includes(word));
  if (found.length === 0) return null;
  const rest = found.reduce((left, word) => left.split(word).join(''), lower);
  return checker.check(rest, words).score < MIN_SCORE ? personal : null;
}
