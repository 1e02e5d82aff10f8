import { MutationObserver, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup as render } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GuardianPanel, guardianQuery, removeGuardianMutation, saveGuardianMutation } from '#src/features/account/guardian-section.tsx';
import type { Guardian } from '#src/features/introductions/accompaniment-api.ts';
import { createQueryClient, errorMessage } from '#src/lib/query-client.ts';

const renderToStaticMarkup = (node: ReactNode) => render(<QueryClientProvider client={createQueryClient()}>{node}</QueryClientProvider>);

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

describe('« Mon proche associé »', () => {
  it('without a guardian: says so, offers every relation and choice in French, the consent box unticked', () => {
    const html = renderToStaticMarkup(<GuardianPanel guardian={null} />);
    const t = text(html);
    expect(t).toContain('Aucun proche associé pour le moment.');
    for (const label of [
      'Père',
      'Frère',
      'Oncle',
      'Imam',
      'Autre proche',
      'Une copie de chaque proposition',
      'Les coordonnées à l’acceptation mutuelle',
      'Rien',
    ]) {
      expect(t).toContain(label);
    }
    expect(t).toContain('Associer ce proche');
    expect(t).not.toContain('Retirer ce proche');
    expect(html).not.toMatch(/type="checkbox"[^>]*checked/);
  });

  it('with a guardian: shows who and what they receive in words, prefilled, and offers to remove them', () => {
    const html = renderToStaticMarkup(
      <GuardianPanel
        guardian={{
          name: 'Ahmed Benali',
          relation: 'pere',
          relationLabel: 'Père',
          contactVia: 'moi',
          contactViaLabel: 'Mes propres coordonnées',
          email: 'ahmed@example.fr',
          phone: '+33612345678',
          receives: 'coordonnees',
          receivesLabel: 'Les coordonnées à l’acceptation mutuelle',
          updatedAt: '2026-11-25T10:00:00.000Z',
        }}
      />,
    );
    const t = text(html);
    expect(t).toContain('Actuellement : Ahmed Benali (père) — reçoit : les coordonnées à l’acceptation mutuelle.');
    expect(html).toContain('value="ahmed@example.fr"');
    expect(html).toMatch(/value="pere"[^>]*checked|checked[^>]*value="pere"/);
    expect(t).toContain('Retirer ce proche');
  });
});

const AHMED: Guardian = {
  name: 'Ahmed Benali',
  relation: 'pere',
  relationLabel: 'Père',
  contactVia: 'moi',
  contactViaLabel: 'Mes propres coordonnées',
  email: 'ahmed@example.fr',
  phone: '+33612345678',
  receives: 'coordonnees',
  receivesLabel: 'Les coordonnées à l’acceptation mutuelle',
  updatedAt: '2026-11-25T10:00:00.000Z',
};
const FORM = {
  name: 'Ahmed Benali',
  relation: 'pere',
  email: 'ahmed@example.fr',
  phone: '0612345678',
  receives: 'coordonnees',
  contactVia: 'moi',
  informed: true,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

/** The section on screen (its query observed) against a stand-in server holding `stored`. */
function sectionOnScreen(stored: { current: Guardian | null }) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    if (url !== '/api/v1/user/guardian') return json({ error: { message: 'Ressource introuvable.' } }, 404);
    if (init?.method === 'PUT') {
      const form = JSON.parse(String(init.body)) as { name: string };
      if (form.name === '')
        return json(
          { error: { code: 'VALIDATION_FAILED', message: 'Données invalides', issues: [{ path: 'name', message: 'Indiquez son nom.' }] } },
          400,
        );
      stored.current = AHMED;
      return json({ guardian: AHMED });
    }
    if (init?.method === 'DELETE') {
      stored.current = null;
      return json({ guardian: null, removed: true });
    }
    return json({ guardian: stored.current });
  });
  vi.stubGlobal('fetch', fetch);
  const client = createQueryClient();
  const section = new QueryObserver(client, guardianQuery);
  const off = section.subscribe(() => {});
  return {
    fetch,
    client,
    section,
    close: () => {
      off();
      client.clear();
    },
  };
}

describe('« Mon proche associé » through TanStack Query (decision 223)', () => {
  it('saving shows the stored guardian at once (the server’s answer), without asking the section again', async () => {
    const { fetch, client, section, close } = sectionOnScreen({ current: null });
    await vi.waitFor(() => expect(section.getCurrentResult().isSuccess).toBe(true));
    expect(section.getCurrentResult().data).toBeNull();

    await new MutationObserver(client, saveGuardianMutation(client)).mutate(FORM);

    expect(section.getCurrentResult().data?.name).toBe('Ahmed Benali');
    expect(fetch.mock.calls.map(([, init]) => init?.method ?? 'GET')).toEqual(['GET', 'PUT']);
    close();
  });

  it('removing shows no guardian; a refused save keeps the section and gives the server’s French field message', async () => {
    const { client, section, close } = sectionOnScreen({ current: AHMED });
    await vi.waitFor(() => expect(section.getCurrentResult().data?.name).toBe('Ahmed Benali'));

    const refused = await new MutationObserver(client, saveGuardianMutation(client)).mutate({ ...FORM, name: '' }).catch((e: unknown) => e);
    expect(errorMessage(refused)).toBe('Données invalides');
    expect((refused as { failure: { fieldErrors: Record<string, string> } }).failure.fieldErrors.name).toBe('Indiquez son nom.');
    expect(section.getCurrentResult().data?.name).toBe('Ahmed Benali');

    await new MutationObserver(client, removeGuardianMutation(client)).mutate();
    expect(section.getCurrentResult().data).toBeNull();
    close();
  });
});
