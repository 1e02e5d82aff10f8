import { findPhoneNumbersInText } from 'libphonenumber-js/min';
import LinkifyIt from 'linkify-it';

/**
 * Contact details hidden in a free text (issue 62 point 6, decision 200): what the member's
 * presentation must not carry, written in any usual way. Pure, shared by the page and the BFF.
 *
 * - Phone numbers: libphonenumber-js (`findPhoneNumbersInText`, French numbers by default, any
 *   country with its +code), a run of nine digits or more with spaces, dots, dashes or slashes, and
 *   the same read aloud in words (« zéro six douze trente-quatre… », « zero six one two… »),
 *   digits and words mixed.
 * - E-mail addresses, URLs and bare domains: linkify-it (the markdown-it project's linkifier:
 *   schemes, `www.`, IDN hosts, e-mails, trailing punctuation), after the usual disguises are put
 *   back (« nom at gmail point com », « nom [at] gmail [dot] com », « arobase »). A bare domain
 *   counts only with a lowercase top-level domain among those people write (`BARE_TLDS`), so that
 *   « la lecture.Je » or « un point de vue » are not domains.
 * - « @handle » anywhere, and a social network's name followed by a handle (`NETWORKS`:
 *   « Insta : youssef.amr », « snap youssef_amr », « fb Youssef.Amr »).
 */

export type ContactKind = 'telephone' | 'email' | 'lien' | 'pseudo' | 'reseau';

export interface ContactFinding {
  kind: ContactKind;
  /** The part of the text that was found, as written (at most 40 characters). */
  excerpt: string;
}

/** Social networks and messengers by the names members write (lowercase, accents removed). */
export const NETWORKS = [
  'instagram',
  'insta',
  'ig',
  'snapchat',
  'snap',
  'sc',
  'facebook',
  'fb',
  'messenger',
  'tiktok',
  'tik tok',
  'twitter',
  'telegram',
  'tg',
  'whatsapp',
  'whats app',
  'wa',
  'signal',
  'discord',
  'linkedin',
  'skype',
  'threads',
  'bereal',
  'youtube',
  'pinterest',
  'viber',
  'wechat',
  'kik',
  'muzmatch',
  'muzz',
] as const;

/** Top-level domains accepted for a domain written without `http://` or `www.`. */
const BARE_TLDS = [
  'com',
  'fr',
  'net',
  'org',
  'info',
  'io',
  'me',
  'be',
  'ch',
  'ca',
  'ma',
  'dz',
  'tn',
  'eu',
  'co',
  'uk',
  'de',
  'app',
  'link',
  'ly',
  'gl',
  'gg',
  'bio',
  'site',
  'online',
  'xyz',
  'page',
];

const linkify = new LinkifyIt(undefined, { fuzzyLink: true, fuzzyEmail: true, fuzzyIP: false });

const MAX_EXCERPT = 40;
const excerpt = (text: string) => {
  const t = text.trim().replace(/[ \t\r\n\f\v]+/g, ' ');
  return t.length > MAX_EXCERPT ? `${t.slice(0, MAX_EXCERPT - 1)}…` : t;
};

/** Lowercase without accents, same length as the input (so indices match). */
function fold(text: string): string {
  return text
    .split('')
    .map((ch) => {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return base.length === 1 ? base.toLowerCase() : ch.toLowerCase().slice(0, 1) || ch;
    })
    .join('');
}

// ——— Phones ———

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

function findPhones(text: string, folded: string): ContactFinding[] {
  const found: ContactFinding[] = [];
  const run = DIGIT_RUN.exec(text);
  if (run) found.push({ kind: 'telephone', excerpt: excerpt(run[0]) });
  else {
    const [number] = findPhoneNumbersInText(text, 'FR');
    if (number) found.push({ kind: 'telephone', excerpt: excerpt(text.slice(number.startsAt, number.endsAt)) });
  }
  if (found.length === 0) {
    // Eight digits read aloud are already most of a French number (ten digits).
    const spoken = spokenDigitRuns(folded).find((r) => r.digits.length >= 8);
    if (spoken) found.push({ kind: 'telephone', excerpt: excerpt(text.slice(spoken.start, spoken.end)) });
  }
  return found;
}

// ——— E-mails, links, handles ———

const AT_WORD = /\s*(?:[([{<]\s*(?:at|arobase|arrobase|arobas)\s*[)\]}>]|\b(?:at|arobase|arrobase|arobas)\b)\s*/gi;
const DOT_WORD = /\s*(?:[([{<]\s*(?:dot|point)\s*[)\]}>]|\b(?:dot|point)\b)\s*/gi;

/**
 * The text with « at » / « arobase » between two words read as @, and « point » / « dot » as a dot
 * when it leads to a top-level domain (« gmail point com »), so the linkifier sees the address.
 */
function undisguised(folded: string): string {
  const tlds = BARE_TLDS.join('|');
  return folded
    .replace(new RegExp(`([a-z0-9._-]+)${AT_WORD.source}([a-z0-9-]+)`, 'g'), '$1@$2')
    .replace(
      new RegExp(`([a-z0-9-]+)${DOT_WORD.source}(${tlds})\\b`, 'g'),
      (whole, host: string, tld: string, offset: number, all: string) => {
        // « gmail point com » after an @, or a known mail host, or www.: a domain; « un point de vue » is not.
        const before = all.slice(0, offset);
        if (/@[a-z0-9.-]*$/.test(before) || /www\.?$/.test(before) || MAIL_HOSTS.has(host)) return `${host}.${tld}`;
        return whole;
      },
    );
}

const MAIL_HOSTS = new Set([
  'gmail',
  'hotmail',
  'yahoo',
  'outlook',
  'live',
  'icloud',
  'orange',
  'free',
  'sfr',
  'laposte',
  'wanadoo',
  'protonmail',
  'proton',
  'gmx',
  'aol',
  'msn',
  'bbox',
  'neuf',
]);

/** Hosts that are nothing but mail (« orange », « free » are also words and companies). */
const MAIL_ONLY = new Set(['gmail', 'hotmail', 'yahoo', 'outlook', 'icloud', 'protonmail', 'laposte', 'wanadoo', 'gmx', 'aol', 'msn']);

function findLinks(original: string, folded: string): ContactFinding[] {
  const found: ContactFinding[] = [];
  // The text as written first (its excerpts are the member's own), then with the disguises put back.
  for (const source of [original, undisguised(folded)]) {
    for (const match of linkify.match(source) ?? []) {
      if (match.schema === 'mailto:') {
        found.push({ kind: 'email', excerpt: excerpt(match.raw) });
        continue;
      }
      if (match.schema === '') {
        // A bare domain: with www., a path, or a lowercase top-level domain people write.
        const [host = '', ...path] = match.raw.replace(/^\/\//, '').split(/(?=[/?#])/);
        const tld = host.split(':')[0]?.split('.').pop() ?? '';
        const known = BARE_TLDS.includes(tld) && (source !== original || tld === tld.toLowerCase());
        if (!host.toLowerCase().startsWith('www.') && path.join('').length <= 1 && !known) continue;
      }
      found.push({ kind: 'lien', excerpt: excerpt(match.raw) });
    }
  }
  // « youssef.amr chez gmail »: a mail host without its domain.
  // « youssef.amr chez gmail », « youssef at hotmail »: a mail host without its domain (« chez »
  // only after a name that looks like an address: « je travaille chez Orange » is no address).
  const hosts = [...MAIL_HOSTS].join('|');
  const hosted = new RegExp(`([a-z0-9._-]{2,})\\s*(@|\\bchez\\b|\\bat\\b|\\barr?obase?\\b)\\s*(${hosts})\\b`).exec(folded);
  const plainWord = hosted?.[2] === 'chez' || hosted?.[2] === 'at';
  if (
    hosted &&
    (!plainWord || MAIL_ONLY.has(hosted[3] as string) || /[\d._]/.test(hosted[1] as string)) &&
    !found.some((f) => f.kind === 'email')
  ) {
    found.push({ kind: 'email', excerpt: excerpt(original.slice(hosted.index, hosted.index + hosted[0].length)) });
  }
  // An e-mail's domain is not a second finding.
  const emails = found.filter((f) => f.kind === 'email');
  return [
    ...emails,
    ...found.filter((f) => f.kind === 'lien' && !emails.some((e) => e.excerpt.toLowerCase().endsWith(f.excerpt.toLowerCase()))),
  ];
}

/** « @handle »: an @ not inside an e-mail address, then at least two handle characters. */
const HANDLE = /(?:^|[^a-z0-9._%+-])(@[a-z0-9_](?:[a-z0-9_.]*[a-z0-9_])?)/gi;

/** What may sit between a network's name and the handle. */
const LINK_WORDS = /^\s*(?:(?:[:=→]|->|-|c['’]est|c est|is|mon|my|moi|sur|on|pseudo|compte|id)\s*)*/;
/** Words that follow a network's name without being a handle. */
const NOT_HANDLES = new Set([
  'non',
  'oui',
  'pas',
  'je',
  'j',
  'et',
  'ou',
  'aussi',
  'jamais',
  'aucun',
  'aucune',
  'rien',
  'merci',
  'ni',
  'de',
  'du',
  'des',
  'la',
  'le',
  'les',
  'ne',
  'n',
  'no',
  'not',
  'and',
  'or',
  'or',
  'ca',
  'cela',
  'etc',
  'mais',
  'donc',
  'car',
  'qui',
  'que',
  'quand',
  'parfois',
  'souvent',
  'peu',
  'beaucoup',
  'plus',
  'moins',
  'tres',
]);

function findHandles(original: string, folded: string): ContactFinding[] {
  const found: ContactFinding[] = [];
  for (const match of original.matchAll(HANDLE)) {
    const handle = match[1] as string;
    if (handle.length >= 3) found.push({ kind: 'pseudo', excerpt: excerpt(handle) });
  }
  const names = [...NETWORKS].sort((a, b) => b.length - a.length).map((n) => n.replace(' ', '\\s?'));
  const network = new RegExp(`(?:^|[^a-z0-9])(${names.join('|')})(?![a-z0-9])`, 'g');
  for (const match of folded.matchAll(network)) {
    const nameStart = (match.index ?? 0) + match[0].length - (match[1] as string).length;
    const afterName = nameStart + (match[1] as string).length;
    const rest = folded.slice(afterName);
    const link = LINK_WORDS.exec(rest)?.[0] ?? '';
    const separated = /[:=→@]|->|c['’ ]est|is/.test(link);
    const handle = /^@?([a-z0-9_][a-z0-9_.-]*[a-z0-9_]|[a-z0-9_]{2,})/.exec(rest.slice(link.length));
    if (!handle) continue;
    const word = handle[1] as string;
    const marked = /[\d_.]/.test(word) || handle[0].startsWith('@');
    if (NOT_HANDLES.has(word)) continue;
    if (!marked && !separated) continue;
    if (word.length < 3) continue;
    const end = afterName + link.length + handle[0].length;
    found.push({ kind: 'reseau', excerpt: excerpt(original.slice(nameStart, end)) });
  }
  return found;
}

/** Every kind of contact detail found in the text, each kind once (its first occurrence). */
export function findContactDetails(text: string): ContactFinding[] {
  const folded = fold(text);
  const all = [...findPhones(text, folded), ...findLinks(text, folded), ...findHandles(text, folded)];
  // A network with its handle says more than the bare @handle inside it.
  const kinds = new Map<ContactKind, ContactFinding>();
  for (const f of all) if (!kinds.has(f.kind)) kinds.set(f.kind, f);
  const reseau = kinds.get('reseau');
  const pseudo = kinds.get('pseudo');
  if (reseau && pseudo && reseau.excerpt.includes(pseudo.excerpt)) kinds.delete('pseudo');
  return [...kinds.values()];
}

const LABELS: Record<ContactKind, string> = {
  telephone: 'un numéro de téléphone',
  email: 'une adresse e-mail',
  lien: 'une adresse de site',
  pseudo: 'un pseudonyme',
  reseau: 'un compte de réseau social',
};

/** The refusal, in French, saying what was found. */
export function contactRefusal(findings: readonly ContactFinding[]): string {
  const parts = findings.map((f) => `${LABELS[f.kind]} (\u00ab\u00a0${f.excerpt}\u00a0\u00bb)`);
  const list = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} et ${parts[parts.length - 1]}`;
  return `Votre présentation ne doit pas contenir de coordonnées\u00a0: nous y avons trouvé ${list}. L’agence transmet les coordonnées seulement quand vous avez accepté tous les deux.`;
}
