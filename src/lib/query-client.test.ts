import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviewMutation, waitingPresentationsQuery } from '#src/features/dashboard/presentation-review-card.tsx';
import { ApiError, createQueryClient, errorMessage, shouldRetry, unwrap } from '#src/lib/query-client.ts';
import { toApiFailure } from '#src/lib/api-result.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('the query functions keep the API layer’s French errors (decision 214)', () => {
  it('unwrap gives the data, or throws an ApiError carrying the French message and the field errors', async () => {
    await expect(unwrap(Promise.resolve({ ok: true as const, status: 200, data: [1] }))).resolves.toEqual([1]);
    const failure = toApiFailure(400, {
      error: { code: 'VALIDATION_FAILED', message: 'Adresse invalide.', issues: [{ path: 'email', message: 'Adresse invalide.' }] },
    });
    const thrown = await unwrap(Promise.resolve({ ok: false as const, error: failure })).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(ApiError);
    expect(errorMessage(thrown)).toBe('Adresse invalide.');
    expect((thrown as ApiError).failure.fieldErrors).toEqual({ email: 'Adresse invalide.' });
    expect(errorMessage(null)).toBeNull();
    expect(errorMessage(new TypeError('x'))).toBe('Une erreur inattendue est survenue. Veuillez réessayer plus tard.');
  });

  it('never retries a 4xx; retries a network failure or a 5xx once', () => {
    for (const status of [400, 401, 403, 404, 409, 429]) expect(shouldRetry(0, new ApiError(toApiFailure(status, undefined)))).toBe(false);
    for (const status of [0, 500, 503]) {
      expect(shouldRetry(0, new ApiError(toApiFailure(status, undefined)))).toBe(true);
      expect(shouldRetry(1, new ApiError(toApiFailure(status, undefined)))).toBe(false);
    }
  });
});

describe('a write invalidates the list it changes', () => {
  it('approving a presentation asks the waiting list again, and the page shows the new list', async () => {
    let waiting = [{ memberId: 'm1', name: 'Amina', text: 'Bonjour', updatedAt: '2026-12-01T09:00:00.000Z', approvedText: null }];
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/v1/dashboard/presentations') return json({ presentations: waiting });
      if (url === '/api/v1/dashboard/members/m1/presentation/review' && init?.method === 'POST') {
        waiting = [];
        return json({ ok: true });
      }
      return json({ error: { message: 'Ressource introuvable.' } }, 404);
    });
    vi.stubGlobal('fetch', fetch);
    const client = createQueryClient();
    const list = new QueryObserver(client, waitingPresentationsQuery);
    const off = list.subscribe(() => {});
    await vi.waitFor(() => expect(list.getCurrentResult().data?.presentations).toHaveLength(1));

    const review = new MutationObserver(client, reviewMutation(client));
    await review.mutate({ item: { memberId: 'm1', updatedAt: '2026-12-01T09:00:00.000Z' }, decision: 'approuver', message: '' });

    // The mutation resolves once the invalidated list was asked again (onSuccess awaits it).
    expect(list.getCurrentResult().data?.presentations).toEqual([]);
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      '/api/v1/dashboard/presentations',
      '/api/v1/dashboard/members/m1/presentation/review',
      '/api/v1/dashboard/presentations',
    ]);
    off();
    client.clear();
  });

  it('a refused write leaves the list as it is and shows the server’s French message', async () => {
    const fetch = vi.fn(async (url: string) =>
      url === '/api/v1/dashboard/presentations'
        ? json({ presentations: [] })
        : json({ error: { code: 'STALE', message: 'La présentation a changé entre-temps.' } }, 409),
    );
    vi.stubGlobal('fetch', fetch);
    const client = createQueryClient();
    const list = new QueryObserver(client, waitingPresentationsQuery);
    const off = list.subscribe(() => {});
    await vi.waitFor(() => expect(list.getCurrentResult().isSuccess).toBe(true));
    const review = new MutationObserver(client, reviewMutation(client));
    const failed = await review
      .mutate({ item: { memberId: 'm1', updatedAt: 'x' }, decision: 'approuver', message: '' })
      .catch((e: unknown) => e);
    expect(errorMessage(failed)).toBe('La présentation a changé entre-temps.');
    expect(fetch).toHaveBeenCalledTimes(2);
    off();
    client.clear();
  });
});
