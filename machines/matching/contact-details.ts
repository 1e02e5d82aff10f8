import LinkifyIt from 'linkify-it';
import { findPhone } from '#machines/matching/contact-phones.ts';

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
  const phone = findPhone(text, folded);
  const phones: ContactFinding[] = phone === null ? [] : [{ kind: 'telephone', excerpt: excerpt(phone) }];
  const all = [...phones, ...findLinks(text, folded), ...findHandles(text, folded)];
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
