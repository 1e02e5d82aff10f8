import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GuardianPanel } from '#src/features/account/guardian-section.tsx';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

describe('« Mon proche associé »', () => {
  it('without a guardian: says so, offers every relation and choice in French, the consent box unticked', () => {
    const html = renderToStaticMarkup(<GuardianPanel guardian={null} onChange={() => undefined} />);
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
        onChange={() => undefined}
      />,
    );
    const t = text(html);
    expect(t).toContain('Actuellement : Ahmed Benali (père) — reçoit : les coordonnées à l’acceptation mutuelle.');
    expect(html).toContain('value="ahmed@example.fr"');
    expect(html).toMatch(/value="pere"[^>]*checked|checked[^>]*value="pere"/);
    expect(t).toContain('Retirer ce proche');
  });
});
