import { isNotFound } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContentRequestError, fetchBlogArticle } from '#src/features/public-site/content-api.ts';

function answer(body: string, status: number, type: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } })),
  );
}

describe('content API client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('treats an HTML document as Not found (spec §8), even with a 200', async () => {
    answer('<!doctype html><html><body>Accueil</body></html>', 200, 'text/html; charset=utf-8');
    const error = await fetchBlogArticle('un-article').catch((caught: unknown) => caught);
    expect(isNotFound(error)).toBe(true);
  });

  it('treats a 404 as Not found and another failure as a request error', async () => {
    answer('{"error":{"code":"NOT_FOUND","message":"x"}}', 404, 'application/json');
    expect(isNotFound(await fetchBlogArticle('absent').catch((caught: unknown) => caught))).toBe(true);
    answer('{"error":{"code":"INTERNAL","message":"x"}}', 503, 'application/json');
    expect(await fetchBlogArticle('x').catch((caught: unknown) => caught)).toBeInstanceOf(ContentRequestError);
  });

  it('returns the article of a JSON answer', async () => {
    answer(JSON.stringify({ slug: 'un-article', title: 'Un article', html: '<p>Texte</p>' }), 200, 'application/json');
    expect(await fetchBlogArticle('un-article')).toMatchObject({ slug: 'un-article', title: 'Un article' });
  });
});
