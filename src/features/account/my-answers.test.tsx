import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RequestItem, valueText } from '#src/features/account/change-request-item.tsx';

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
