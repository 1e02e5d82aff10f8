/**
 * Cuts the HTML of a content page (`content/pages/*.md`, rendered at build time by
 * bff/content/markdown.ts: headings carry their `id`) into what the designed pages lay out:
 * the text before the first `<h2>`, then one section per `<h2>`, each with its text and its `<h3>`
 * parts. Pure functions on our own trusted HTML; the Markdown stays the single source of the copy.
 */

interface ContentPart {
  id: string;
  /** Inner HTML of the heading. */
  title: string;
  /** HTML after the heading, up to the next heading of the same level or above. */
  html: string;
}

export interface ContentSection extends ContentPart {
  /** HTML between the `<h2>` and its first `<h3>` (all of it when there is none). */
  html: string;
  parts: ContentPart[];
}

export interface SplitContent {
  intro: string;
  sections: ContentSection[];
}

/** How a section is laid out. */
export type SectionKind = 'questions' | 'steps' | 'cards' | 'list-steps' | 'prose';

function heading(chunk: string, level: 2 | 3): { id: string; title: string; rest: string } {
  const match = new RegExp(`^<h${level}(?: id="([^"]*)")?>([\\s\\S]*?)</h${level}>\\s*`).exec(chunk);
  if (!match) return { id: '', title: '', rest: chunk };
  return { id: match[1] ?? '', title: match[2] ?? '', rest: chunk.slice(match[0].length) };
}

export function splitContent(html: string): SplitContent {
  const chunks = html.split(/(?=<h2[\s>])/);
  const intro = chunks[0]?.startsWith('<h2') ? '' : (chunks.shift() ?? '');
  const sections = chunks.map((chunk) => {
    const { id, title, rest } = heading(chunk, 2);
    const chunksOfSection = rest.split(/(?=<h3[\s>])/);
    // `split` gives no empty first chunk when the text starts with an `<h3>`.
    const body = chunksOfSection[0]?.startsWith('<h3') ? '' : (chunksOfSection.shift() ?? '');
    const parts = chunksOfSection.map((sub) => {
      const part = heading(sub, 3);
      return { id: part.id, title: part.title, html: part.rest.trim() };
    });
    return { id, title, html: body.trim(), parts };
  });
  return { intro: intro.trim(), sections };
}

/** « 3. Le questionnaire » → « Le questionnaire ». */
export function stripNumber(title: string): string {
  return title.replace(/^\d+\.\s+/, '');
}

export function sectionKind(section: ContentSection): SectionKind {
  const { parts } = section;
  if (parts.length > 0 && parts.every((part) => /\?\s*$/.test(part.title))) return 'questions';
  if (parts.length > 1 && parts.every((part) => /^\d+\.\s/.test(part.title))) return 'steps';
  if (parts.length > 1) return 'cards';
  if (parts.length === 0 && /<ol>/.test(section.html)) return 'list-steps';
  return 'prose';
}

export interface ListStep {
  /** Inner HTML of the item's leading `<strong>`. */
  title: string;
  /** The rest of the item, without the separating colon. */
  html: string;
}

/**
 * The items of the first ordered list of a section (« 1. **Pré-inscription** : … »), and the HTML
 * before and after that list.
 */
export function listSteps(html: string): { before: string; steps: ListStep[]; after: string } {
  const match = /<ol>([\s\S]*?)<\/ol>/.exec(html);
  if (!match) return { before: html, steps: [], after: '' };
  const steps = [...(match[1] ?? '').matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => {
    const inner = (item[1] ?? '').trim();
    const strong = /^<strong>([\s\S]*?)<\/strong>\s*(?::|&nbsp;:|\u00a0:)?\s*/.exec(inner);
    return strong ? { title: strong[1] ?? '', html: inner.slice(strong[0].length) } : { title: '', html: inner };
  });
  return { before: html.slice(0, match.index).trim(), steps, after: html.slice(match.index + match[0].length).trim() };
}

/** The page's table of contents: its `<h2>` (id, and inner HTML without tags: entities stay). */
export function tableOfContents(html: string): { id: string; html: string }[] {
  return [...html.matchAll(/<h2 id="([^"]+)">([\s\S]*?)<\/h2>/g)].map((match) => ({
    id: match[1] ?? '',
    html: (match[2] ?? '').replace(/<[^>]+>/g, '').trim(),
  }));
}
