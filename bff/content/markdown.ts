import matter from 'gray-matter';
import { Marked, type Tokens } from 'marked';
import * as v from 'valibot';
import { steps } from '#machines/onboarding/steps.ts';
import { TERMINATION_HOW, TERMINATION_PROOF } from '#machines/onboarding/termination-texts.ts';
import { fillTokens } from '#machines/public-site/fill-tokens.ts';

/**
 * Markdown + front matter of the site's copy (`content/pages`, `content/blog`): parsed with
 * gray-matter, validated with valibot, rendered to HTML with marked. Used by the content API at
 * start and by the Vite content plugin at build time, so the browser never ships a Markdown parser.
 */

const text = (name: string) => v.pipe(v.string(`${name} : texte attendu`), v.trim(), v.minLength(1, `${name} : valeur vide`));

export const PageFrontMatterSchema = v.object({
  title: text('title'),
  description: text('description'),
  heading: text('heading'),
});

export const BlogFrontMatterSchema = v.object({
  title: text('title'),
  description: text('description'),
  /** A quoted `YYYY-MM-DD`: YAML would otherwise turn it into a Date. */
  date: v.pipe(v.string('date : "AAAA-MM-JJ" entre guillemets'), v.isoDate('date : "AAAA-MM-JJ"')),
  cover: v.pipe(v.string('cover : chemin attendu'), v.regex(/^\/images\/[\w./-]+$/, 'cover : chemin local /images/…')),
  coverAlt: text('coverAlt'),
  draft: v.optional(v.boolean('draft : true ou false'), false),
  tags: v.optional(v.array(v.string()), []),
});

/** `Titre « avec » accents` → `titre-avec-accents` (heading anchors). */
export function slugify(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z]+;|&#\d+;/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A marked instance: GFM, heading ids for anchors, external links opened safely in a new tab. */
function createMarked(): Marked {
  const marked = new Marked({ gfm: true, breaks: false });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const id = slugify(inner);
        return `<h${token.depth}${id ? ` id="${id}"` : ''}>${inner}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const href = escapeAttribute(token.href);
        const title = token.title ? ` title="${escapeAttribute(token.title)}"` : '';
        if (/^https?:\/\//i.test(token.href)) {
          return `<a href="${href}"${title} target="_blank" rel="noopener noreferrer">${inner}</a>`;
        }
        return `<a href="${href}"${title}>${inner}</a>`;
      },
    },
  });
  return marked;
}

const marked = createMarked();

export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

/** Words of a Markdown body (reading time). */
export function wordCount(markdown: string): number {
  return markdown.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

export class ContentError extends Error {}

export interface ParsedDocument<F> {
  frontMatter: F;
  markdown: string;
  html: string;
}

/** The number of steps in words, for « neuf étapes ». */
const STEP_COUNT_WORDS: Readonly<Record<number, string>> = { 7: 'sept', 8: 'huit', 9: 'neuf', 10: 'dix', 11: 'onze', 12: 'douze' };

/**
 * Sentences the copy shares with the app and the contract, filled in when a file is parsed (at
 * build time and when the content API loads): `{{resiliation.modalites}}` and
 * `{{resiliation.justificatif}}` say how to terminate exactly as the signed contract, « Mon
 * profil » and the member's screen do (decision 189). The tokens of the agency's identity and
 * offers stay for the server to fill in as it serves a page (decision 106). `{{etape.<id>}}` is
 * « N. Titre » of the onboarding chart's step (`{{etape.<id>.titre}}` the title alone) (`{{etapes.nombre}}` their number, in words), so
 * the public pages number and name the journey's steps as the member's area does (decision 198).
 */
export const SHARED_TEXTS: Readonly<Record<string, string>> = {
  'resiliation.modalites': TERMINATION_HOW,
  'resiliation.justificatif': TERMINATION_PROOF,
  'etapes.nombre': STEP_COUNT_WORDS[steps.length] ?? String(steps.length),
  ...Object.fromEntries(
    steps.flatMap((step) => [
      [`etape.${step.id}`, `${step.number}. ${step.title}`],
      [`etape.${step.id}.titre`, step.title],
    ]),
  ),
};

/** Parses and validates one file without rendering it; throws a `ContentError` naming the file and the field. */
export function parseFrontMatter<S extends v.GenericSchema>(
  source: string,
  schema: S,
  fileName: string,
): Omit<ParsedDocument<v.InferOutput<S>>, 'html'> {
  // gray-matter caches by content; pass a fresh options object to get a fresh result every time.
  const parsed = matter(source, {});
  const result = v.safeParse(schema, parsed.data);
  if (!result.success) {
    const issue = result.issues[0];
    throw new ContentError(`${fileName} : front matter invalide (${v.getDotPath(issue) ?? ''} ${issue.message})`);
  }
  return { frontMatter: result.output, markdown: fillTokens(parsed.content, SHARED_TEXTS) };
}

/** Parses, validates and renders one file; throws a `ContentError` naming the file and the field. */
export function parseDocument<S extends v.GenericSchema>(source: string, schema: S, fileName: string): ParsedDocument<v.InferOutput<S>> {
  const { frontMatter, markdown } = parseFrontMatter(source, schema, fileName);
  return { frontMatter, markdown, html: renderMarkdown(markdown) };
}
