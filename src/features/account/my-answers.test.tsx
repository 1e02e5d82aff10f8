import { renderToStaticMarkup } from 'react-dom/server';
import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { RequestItem, valueText } from '#src/features/account/change-request-item.tsx';
import { myAnswersQuery, saveAnswersMutation } from '#src/features/account/my-answers.tsx';
import { createQueryClient, errorMessage } from '#src/lib/query-client.ts';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');
const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('« Mon profil »: change requests in French (issue 21)', () => {
  it('shows what changes, old → new, through the label table, with the note, the status and the answer', () => {
    const html = renderToStaticMarkup(
      <RequestItem
        now={NOW}
        request={{
          id: 3,
          section: 'questionnaire',
          changes: [
            { field: 'soughtRegions', old: ['ile-de-france'], new: ['ile-de-france', 'provence-alpes-cote-d-azur'] },
            { field: 'soughtPractice', old: 'indifferent', new: 'cinq-prieres' },
          ],
          note: 'Je peux déménager dans le Sud.',
          status: 'declined',
          createdAt: '2026-11-24T10:30:00.000Z',
          decidedAt: '2026-11-25T09:00:00.000Z',
          decisionNote: 'Parlons-en lors de votre entretien.',
        }}
      />,
    );
    const t = text(html);
    expect(t).toContain('Questionnaire de recherche');
    expect(t).toContain('Refusée');
    expect(t).toContain('Régions : Île-de-France → Île-de-France, Provence-Alpes-Côte d’Azur');
    expect(t).toContain('Pratique recherchée : Peu importe → Les cinq prières quotidiennes');
    expect(t).toContain('Votre message : Je peux déménager dans le Sud.');
    expect(t).toContain('Réponse de l’équipe : Parlons-en lors de votre entretien.');
    for (const code of ['ile-de-france', 'cinq-prieres', 'indifferent', 'declined', 'soughtRegions', 'questionnaire '])
      expect(t).not.toContain(code);
  });

  it('reads a stored value like the staff page: birth date with age, phone in national form, Oui/Non', () => {
    expect(valueText('profil', 'birthDate', '1995-04-17', NOW)).toBe('17 avril 1995 (31 ans)');
    expect(valueText('profil', 'phone', '+33612345678', NOW)).toBe('06 12 34 56 78');
    expect(valueText('profil', 'maritalStatus', 'divorce', NOW)).toBe('Divorcé(e)');
    expect(valueText('questionnaire', 'acceptsChildren', true, NOW)).toBe('Oui');
  });
});

describe('« Mes informations » through TanStack Query (decision 223)', () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const answersOf = (city: string, changeRequests: unknown[] = []) => ({
    editable: true,
    signed: false,
    steps: { profil: true, questionnaire: false },
    profile: { city },
    questionnaire: null,
    contract: null,
    changeRequests,
  });

  /** The section on screen (its query observed) against a stand-in server. */
  function sectionOnScreen() {
    const stored = { city: 'Lyon', requests: [] as unknown[] };
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (url === '/api/v1/user/answers' && method === 'GET') return json(answersOf(stored.city, stored.requests));
      const body = JSON.parse(String(init?.body ?? '{}')) as { city?: string };
      if (body.city === '')
        return json(
          {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'Données invalides',
              issues: [{ path: 'city', message: 'Indiquez votre ville.' }],
            },
          },
          400,
        );
      if (url === '/api/v1/user/answers' && method === 'PUT') {
        stored.city = body.city ?? stored.city;
        return json({ section: 'profil', changed: ['city'] });
      }
      if (url === '/api/v1/user/change-requests' && method === 'POST') {
        stored.requests = [{ id: 1 }];
        return json({ request: { id: 1 } }, 201);
      }
      return json({ error: { message: 'Ressource introuvable.' } }, 404);
    });
    vi.stubGlobal('fetch', fetch);
    const client = createQueryClient();
    const section = new QueryObserver(client, myAnswersQuery);
    const off = section.subscribe(() => {});
    return {
      fetch,
      client,
      section,
      close: () => {
        off();
        client.clear();
        vi.unstubAllGlobals();
      },
    };
  }

  it('a direct edit asks the answers again: the section shows the new value once the save resolves', async () => {
    const { fetch, client, section, close } = sectionOnScreen();
    await vi.waitFor(() => expect(section.getCurrentResult().data?.profile?.city).toBe('Lyon'));

    await new MutationObserver(client, saveAnswersMutation(client, false)).mutate({ section: 'profil', city: 'Marseille' });

    expect(section.getCurrentResult().data?.profile?.city).toBe('Marseille');
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${url}`)).toEqual([
      'GET /api/v1/user/answers',
      'PUT /api/v1/user/answers',
      'GET /api/v1/user/answers',
    ]);
    close();
  });

  it('after signature a change request goes to staff and the section lists it; a refused one changes nothing', async () => {
    const { fetch, client, section, close } = sectionOnScreen();
    await vi.waitFor(() => expect(section.getCurrentResult().isSuccess).toBe(true));

    const refused = await new MutationObserver(client, saveAnswersMutation(client, true))
      .mutate({ section: 'profil', city: '' })
      .catch((e: unknown) => e);
    expect(errorMessage(refused)).toBe('Données invalides');
    expect(fetch).toHaveBeenCalledTimes(2);

    await new MutationObserver(client, saveAnswersMutation(client, true)).mutate({ section: 'profil', city: 'Nice' });
    expect(section.getCurrentResult().data?.changeRequests).toHaveLength(1);
    expect(fetch.mock.calls.at(2)?.[0]).toBe('/api/v1/user/change-requests');
    close();
  });
});
