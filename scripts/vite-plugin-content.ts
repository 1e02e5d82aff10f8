import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import type { Plugin } from 'vite';
import { PageFrontMatterSchema, parseDocument, SHARED_TEXTS } from '../bff/content/markdown.ts';
import { fillTokens } from '../machines/public-site/fill-tokens.ts';

/**
 * Build-time content for the SPA: `import page from 'virtual:content/pages/<name>'` gives
 * `{ title, description, heading, html }` of `content/pages/<name>.md`, already rendered to HTML,
 * and `virtual:content/data/<name>` the validated JSON of `content/data/<name>.json`. Markdown is
 * parsed here, at build time: no Markdown library reaches the browser.
 */

const PAGE_PREFIX = 'virtual:content/pages/';
const DATA_PREFIX = 'virtual:content/data/';
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const dataSchemas: Record<string, v.GenericSchema> = {
  faq: v.array(v.object({ question: v.pipe(v.string(), v.minLength(1)), answer: v.pipe(v.string(), v.minLength(1)) })),
  testimonials: v.array(
    v.object({
      name: v.pipe(v.string(), v.minLength(1)),
      city: v.pipe(v.string(), v.minLength(1)),
      text: v.pipe(v.string(), v.minLength(1)),
      illustrative: v.literal(true),
    }),
  ),
};

/** Every string of the data with the copy's shared sentences filled in (bff/content/markdown.ts, decision 189). */
function withSharedTexts(value: unknown): unknown {
  if (typeof value === 'string') return fillTokens(value, SHARED_TEXTS);
  if (Array.isArray(value)) return value.map(withSharedTexts);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, inner]) => [k, withSharedTexts(inner)]));
  return value;
}

/** `content/data/<name>.json`, validated, its shared sentences filled in: what the SPA imports. */
export function loadContentData(contentDir: string, name: string): unknown {
  const schema = dataSchemas[name];
  if (!schema) throw new Error(`Données de contenu inconnues : ${name}`);
  const parsed = v.safeParse(schema, JSON.parse(readFileSync(join(contentDir, 'data', `${name}.json`), 'utf8')));
  if (!parsed.success) throw new Error(`data/${name}.json invalide : ${v.getDotPath(parsed.issues[0]) ?? ''} ${parsed.issues[0].message}`);
  return withSharedTexts(parsed.output);
}

export function contentPlugin(options: { contentDir?: string } = {}): Plugin {
  const contentDir = options.contentDir ?? join(import.meta.dirname, '..', 'content');
  return {
    name: 'union-content',
    enforce: 'pre',
    resolveId(id) {
      if (id.startsWith(PAGE_PREFIX) || id.startsWith(DATA_PREFIX)) return `\0${id}`;
      return null;
    },
    load(id) {
      if (!id.startsWith('\0virtual:content/')) return null;
      const virtualId = id.slice(1);
      if (virtualId.startsWith(PAGE_PREFIX)) {
        const name = virtualId.slice(PAGE_PREFIX.length);
        if (!NAME.test(name)) this.error(`Page de contenu invalide : ${name}`);
        const file = join(contentDir, 'pages', `${name}.md`);
        this.addWatchFile(file);
        const { frontMatter, html } = parseDocument(readFileSync(file, 'utf8'), PageFrontMatterSchema, `pages/${name}.md`);
        return `export default ${JSON.stringify({ ...frontMatter, html })};`;
      }
      const name = virtualId.slice(DATA_PREFIX.length);
      if (!dataSchemas[name]) this.error(`Données de contenu inconnues : ${name}`);
      this.addWatchFile(join(contentDir, 'data', `${name}.json`));
      try {
        return `export default ${JSON.stringify(loadContentData(contentDir, name))};`;
      } catch (error) {
        this.error(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
