import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BlogFrontMatterSchema,
  ContentError,
  PageFrontMatterSchema,
  parseFrontMatter,
  renderMarkdown,
  wordCount,
} from '#bff/content/markdown.ts';

/** The site's copy folder (`content/` at the repository root). */
export const CONTENT_DIR = join(import.meta.dirname, '..', '..', 'content');

export const collections = ['blog', 'pages'] as const;
export type Collection = (typeof collections)[number];

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What the content API lists (no body). */
interface ContentSummary {
  collection: Collection;
  slug: string;
  /** Site path of the document (`/blog/<slug>` for articles). */
  path: string;
  title: string;
  description: string;
  heading?: string;
  date?: string;
  cover?: string;
  coverAlt?: string;
  tags?: string[];
  draft: boolean;
  readingMinutes: number;
}

interface ContentDocument extends ContentSummary {
  html: string;
}

export interface ContentStore {
  /** One document, or undefined (drafts only when `withDrafts`). */
  get(collection: Collection, slug: string, withDrafts: boolean): ContentDocument | undefined;
  /** Every document of a collection, newest article first. */
  list(collection: Collection, withDrafts: boolean): ContentSummary[];
}

/** Paths of the pages of `content/pages` on the site. */
export const pagePaths: Record<string, string> = {
  accueil: '/',
  bio: '/bio',
  'conditions-generales-de-vente': '/conditions-generales-de-vente',
  contact: '/contactez-agence-matrimoniale-musulmane',
  inscription: '/inscription-agence-matrimoniale-musulmane',
  'mentions-legales': '/mentions-legales',
  merci: '/pre-inscription/merci',
  'politique-de-confidentialite': '/politique-de-confidentialite',
  'pour-les-femmes': '/inscription-agence-matrimoniale-musulmane/pour-les-femmes',
  'pour-les-hommes': '/inscription-agence-matrimoniale-musulmane/pour-les-hommes',
  'qui-sommes-nous': '/qui-sommes-nous',
};

const readingMinutes = (markdown: string) => Math.max(1, Math.round(wordCount(markdown) / 200));

function markdownFiles(dir: string): { slug: string; source: string; file: string }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const slug = name.slice(0, -3);
      if (!SLUG_PATTERN.test(slug)) throw new ContentError(`${name} : nom de fichier invalide (minuscules, chiffres et tirets)`);
      return { slug, source: readFileSync(join(dir, name), 'utf8'), file: name };
    });
}

interface StoredDocument {
  summary: ContentSummary;
  markdown: string;
  html?: string;
}

/**
 * Reads and validates every document once, so that a bad file stops the start with its name; the
 * HTML of a document is rendered at its first request and kept (rendering all of them at start
 * took ≈ 300 ms of the start-up, decision 080).
 */
export function loadContent(dir = CONTENT_DIR): ContentStore {
  const store: Record<Collection, StoredDocument[]> = { blog: [], pages: [] };
  for (const { slug, source, file } of markdownFiles(join(dir, 'blog'))) {
    const { frontMatter, markdown } = parseFrontMatter(source, BlogFrontMatterSchema, `blog/${file}`);
    store.blog.push({
      summary: { collection: 'blog', slug, path: `/blog/${slug}`, ...frontMatter, readingMinutes: readingMinutes(markdown) },
      markdown,
    });
  }
  store.blog.sort((a, b) => (b.summary.date ?? '').localeCompare(a.summary.date ?? '') || a.summary.slug.localeCompare(b.summary.slug));
  for (const { slug, source, file } of markdownFiles(join(dir, 'pages'))) {
    const { frontMatter, markdown } = parseFrontMatter(source, PageFrontMatterSchema, `pages/${file}`);
    store.pages.push({
      summary: {
        collection: 'pages',
        slug,
        path: pagePaths[slug] ?? `/${slug}`,
        ...frontMatter,
        draft: false,
        readingMinutes: readingMinutes(markdown),
      },
      markdown,
    });
  }
  return {
    get(collection, slug, withDrafts) {
      const doc = store[collection].find(({ summary }) => summary.slug === slug && (withDrafts || !summary.draft));
      if (!doc) return undefined;
      doc.html ??= renderMarkdown(doc.markdown);
      return { ...doc.summary, html: doc.html };
    },
    list(collection, withDrafts) {
      return store[collection].filter(({ summary }) => withDrafts || !summary.draft).map(({ summary }) => ({ ...summary }));
    },
  };
}
