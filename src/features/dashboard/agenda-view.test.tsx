import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { byDay, periodOf, periodTitle, timeOf } from '#src/features/dashboard/agenda-view.ts';

vi.mock('@tanstack/react-router', () => ({
  getRouteApi: () => ({ useSearch: () => ({}) }),
  Link: ({ children, params }: { children: unknown; params?: Record<string, string> }) => (
    <a href={`/lien/${Object.values(params ?? {}).join('/')}`}>{children as string}</a>
  ),
}));

const { AgendaDays } = await import('#src/features/dashboard/agenda-page.tsx');
const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
// Wednesday 25 November 2026, 10 h in Paris.
const now = Date.parse('2026-11-25T09:00:00Z');

describe('the agenda page', () => {
  it('shows this week by default (Monday to Sunday), or the day asked; a bad day is today', () => {
    expect(periodOf(undefined, undefined, now)).toEqual({
      view: 'semaine',
      day: '2026-11-25',
      du: '2026-11-23',
      au: '2026-11-29',
      previous: '2026-11-16',
      next: '2026-11-30',
    });
    expect(periodOf('jour', '2026-12-31', now)).toMatchObject({
      du: '2026-12-31',
      au: '2026-12-31',
      previous: '2026-12-30',
      next: '2027-01-01',
    });
    expect(periodOf('jour', '2026-02-30', now).du).toBe('2026-11-25');
  });

  it('titles the period in French', () => {
    expect(periodTitle(periodOf('semaine', '2026-11-25', now))).toBe('Semaine du 23 au 29 novembre 2026');
    expect(periodTitle(periodOf('semaine', '2026-12-02', now))).toBe('Semaine du 30 novembre au 6 décembre 2026');
    expect(periodTitle(periodOf('semaine', '2026-12-31', now))).toBe('Semaine du 28 décembre 2026 au 3 janvier 2027');
    expect(periodTitle(periodOf('jour', '2026-11-25', now))).toBe('Mercredi 25 novembre 2026');
    expect(timeOf('2026-11-25T13:05:00Z')).toBe('14 h 05');
    expect(timeOf('2026-07-01T07:00:00Z')).toBe('9 h 00');
  });

  it('groups the items by Paris day, the days of the week in order', () => {
    const week = periodOf('semaine', '2026-11-25', now);
    const groups = byDay(week, [{ at: '2026-11-22T23:30:00Z' }, { at: '2026-11-29T22:59:00Z' }, { at: '2026-11-29T23:00:00Z' }]);
    expect(groups.map((g) => g.day)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(groups[0]?.items).toHaveLength(1);
    expect(groups[6]?.items).toHaveLength(1);
    expect(groups.reduce((n, g) => n + g.items.length, 0)).toBe(2);
  });

  it('renders each meeting with its time, kind in French and links to the files; an empty period in French', () => {
    const week = periodOf('semaine', '2026-11-25', now);
    const html = renderToStaticMarkup(
      <AgendaDays
        period={week}
        items={[
          {
            key: 'introduction:1',
            kind: 'premiere-rencontre',
            kindLabel: 'Première rencontre (mise en relation)',
            at: '2026-11-25T13:00:00.000Z',
            endAt: null,
            members: [
              { id: 'a1', name: 'Amina Benali' },
              { id: 'b2', name: 'Youssef Haddad' },
            ],
            place: 'À l’agence',
            introductionId: 'i3',
            detail: 'Première rencontre planifiée',
          },
        ]}
      />,
    );
    const text = nbsp(html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '));
    expect(text).toContain('Mercredi 25 novembre 2026 14 h 00 Première rencontre (mise en relation) Amina Benali et Youssef Haddad');
    expect(text).toContain('Lieu : À l’agence');
    expect(html).toContain('href="/lien/a1"');
    expect(html).toContain('href="/lien/i3"');
    expect(html.match(/Aucun rendez-vous\./g)).toHaveLength(6);
    expect(html).not.toContain('premiere-rencontre');
    expect(renderToStaticMarkup(<AgendaDays period={week} items={[]} />)).toContain('Aucun rendez-vous cette semaine.');
    expect(renderToStaticMarkup(<AgendaDays period={periodOf('jour', '2026-11-25', now)} items={[]} />)).toContain(
      'Aucun rendez-vous ce jour-là.',
    );
  });
});
