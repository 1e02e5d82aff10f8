import { notFound } from '@tanstack/react-router';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * The SPA's client of the content API (`/api/v1/content/query` and `/navigation`). A preview
 * token given once as `?preview=<token>` is kept in session storage and sent as `x-preview-token`
 * so drafts show for this tab only. A 404, or an answer that is an HTML document (a proxy or a
 * fallback page instead of the API), is 'Not found' (spec §8).
 */

export interface BlogSummary {
  slug: string;
  path: string;
  title: string;
  description: string;
  date: string;
  cover: string;
  coverAlt: string;
  tags: string[];
  draft: boolean;
  readingMinutes: number;
}

export interface BlogArticle extends BlogSummary {
  html: string;
}

export const PREVIEW_STORAGE_KEY = 'union:content-preview-token';

/** The preview token of this tab: taken from `?preview=` once, then from session storage. */
export function previewToken(): string | null {
  if (typeof window === 'undefined') return null;
  try {
    const fromUrl = new URLSearchParams(window.location.search).get('preview');
    if (fromUrl) window.sessionStorage.setItem(PREVIEW_STORAGE_KEY, fromUrl);
    return window.sessionStorage.getItem(PREVIEW_STORAGE_KEY);
  } catch {
    return null;
  }
}

export class ContentRequestError extends Error {
  constructor(readonly status: number) {
    super(status === 0 ? 'Impossible de charger le contenu. Vérifiez votre connexion.' : 'Le contenu n’a pas pu être chargé.');
    this.name = 'ContentRequestError';
  }
}

async function getContent<T>(query: string): Promise<T> {
  const token = previewToken();
  let response: Response;
  try {
    response = await fetch(`/api/v1/content/${query}`, { headers: token ? { 'x-preview-token': token } : {}, credentials: 'same-origin' });
  } catch {
    throw new ContentRequestError(0);
  }
  const type = response.headers.get('content-type') ?? '';
  if (response.status === 404 || /text\/html/i.test(type)) throw notFound();
  if (!response.ok) throw new ContentRequestError(response.status);
  try {
    return (await response.json()) as T;
  } catch {
    throw notFound();
  }
}

export async function fetchBlogList(): Promise<BlogSummary[]> {
  const body = await getContent<{ items: BlogSummary[] }>('query?collection=blog');
  return body.items;
}

export async function fetchBlogArticle(slug: string): Promise<BlogArticle> {
  return getContent<BlogArticle>(`query?collection=blog&slug=${encodeURIComponent(slug)}`);
}

const dateFormat = frenchDateFormat({ day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `2026-01-15` → `15 janvier 2026`. */
export function formatArticleDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime()) ? date : dateFormat.format(parsed);
}
