import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addTagMutation, followUpQuery } from '#src/features/dashboard/member-follow-up-section.tsx';
import { getMemberSummary } from '#src/features/dashboard/member-file-api.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { createQueryClient, errorMessage, unwrap } from '#src/lib/query-client.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

/** A member's file on screen: the follow-up card and the header (the page's query, under the same key). */
function fileOnScreen(tags: { current: string[] }) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/v1/dashboard/members/m1/follow-up') return json({ counsellor: null, staff: [], tags: tags.current, notes: [] });
    if (url === '/api/v1/dashboard/members/m1/summary') return json({ firstName: 'Amina', tags: tags.current });
    if (url === '/api/v1/dashboard/members/m1/tags' && init?.method === 'POST') {
      const { tag } = JSON.parse(String(init.body)) as { tag: string };
      if (tag.length > 30) return json({ error: { code: 'VALIDATION_FAILED', message: 'Étiquette trop longue.' } }, 400);
      tags.current = [...tags.current, tag];
      return json({ tags: tags.current }, 201);
    }
    return json({ error: { message: 'Ressource introuvable.' } }, 404);
  });
  vi.stubGlobal('fetch', fetch);
  const client = createQueryClient();
  const card = new QueryObserver(client, followUpQuery('m1'));
  const header = new QueryObserver(client, {
    queryKey: memberFileKeys.summary('m1'),
    queryFn: () => unwrap(getMemberSummary('m1')),
  });
  const offs = [card.subscribe(() => {}), header.subscribe(() => {})];
  const close = () => {
    for (const off of offs) off();
    client.clear();
  };
  return { fetch, client, card, header, close };
}

describe('the member file’s « Suivi interne » (decision 214: a write invalidates what it changed)', () => {
  it('adding a tag asks the card and the file’s header again: both show the new tag', async () => {
    const tags = { current: ['VIP'] };
    const { fetch, client, card, header, close } = fileOnScreen(tags);
    await vi.waitFor(() => expect(card.getCurrentResult().data?.tags).toEqual(['VIP']));
    await vi.waitFor(() => expect(header.getCurrentResult().isSuccess).toBe(true));

    await new MutationObserver(client, addTagMutation(client, 'm1')).mutate('Relancer');

    // The mutation resolves once the invalidated queries were asked again.
    expect(card.getCurrentResult().data?.tags).toEqual(['VIP', 'Relancer']);
    expect((header.getCurrentResult().data as { tags?: string[] } | undefined)?.tags).toEqual(['VIP', 'Relancer']);
    const urls = fetch.mock.calls.map(([url]) => url);
    expect(urls.slice(2).sort()).toEqual(
      ['/api/v1/dashboard/members/m1/follow-up', '/api/v1/dashboard/members/m1/summary', '/api/v1/dashboard/members/m1/tags'].sort(),
    );
    expect(urls.at(2)).toBe('/api/v1/dashboard/members/m1/tags');
    close();
  });

  it('a refused tag leaves the card as it is and gives the server’s French message; nothing is asked again', async () => {
    const tags = { current: [] };
    const { fetch, client, card, close } = fileOnScreen(tags);
    await vi.waitFor(() => expect(card.getCurrentResult().isSuccess).toBe(true));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));

    const failed = await new MutationObserver(client, addTagMutation(client, 'm1')).mutate('x'.repeat(31)).catch((e: unknown) => e);

    expect(errorMessage(failed)).toBe('Étiquette trop longue.');
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(card.getCurrentResult().data?.tags).toEqual([]);
    close();
  });
});
