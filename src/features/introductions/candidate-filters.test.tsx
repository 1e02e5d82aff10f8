import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup as render } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CandidateFilters } from '#src/features/introductions/candidate-filters.tsx';
import { candidatesQuery, NO_CANDIDATE_FILTERS } from '#src/features/introductions/introductions-api.ts';
import { createQueryClient } from '#src/lib/query-client.ts';

/** The filters render in the dashboard, inside its query client (the staff list is asked when not given). */
const renderToStaticMarkup = (node: ReactNode) => render(<QueryClientProvider client={createQueryClient()}>{node}</QueryClientProvider>);

const STAFF = [
  { id: '5f0c3d2e-1a2b-4c3d-8e9f-0a1b2c3d4e5f', name: 'Nadia', self: true },
  { id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d', name: 'Karim', self: false },
];

/** The candidates' filters on screen (issue 62 point 7, decision 201). */
describe('the candidates’ filters', () => {
  it('offer age, region, practice, family situation, children and counsellor, in French words', () => {
    const html = renderToStaticMarkup(<CandidateFilters value={NO_CANDIDATE_FILTERS} onChange={() => {}} staff={STAFF} />);
    for (const label of [
      'Âge minimum',
      'Âge maximum',
      'Région',
      'Pratique',
      'Situation familiale',
      'Enfants',
      'Conseiller du candidat',
      // Decision 208.
      'Langue parlée',
      'École juridique',
      // Decision 212.
      'Niveau d’études',
      'Taille minimale (cm)',
      'Taille maximale (cm)',
    ]) {
      expect(html, label).toContain(label);
    }
    for (const option of [
      'Île-de-France',
      'Les cinq prières quotidiennes',
      'Divorcé ou divorcée',
      'Sans enfant',
      'Sans conseiller',
      'Moi (Nadia)',
      'Karim',
      'Arabe dialectal (darija…)',
      'Malikite',
      'Sans préférence',
    ]) {
      expect(html, option).toContain(option);
    }
    // Stored codes are values, never what staff read; no « (e) ».
    expect(html).not.toContain('>cinq-prieres<');
    expect(html).not.toContain('(e)');
    // The sex of the candidates is not known: neither the hijab nor the beard is offered.
    expect(html).not.toContain('Port du voile');
    expect(html).not.toContain('Port de la barbe');
    // Nothing to remove while nothing is chosen.
    expect(html).not.toContain('Retirer les filtres');
  });

  it('offer the hijab for women sought and the beard for men sought, never both (decision 212)', () => {
    const women = renderToStaticMarkup(<CandidateFilters value={NO_CANDIDATE_FILTERS} onChange={() => {}} staff={STAFF} sought="femme" />);
    expect(women).toContain('Port du voile');
    expect(women).toContain('Voile\u00a0: peu importe');
    expect(women).toContain('>Parfois<');
    expect(women).not.toContain('Port de la barbe');
    const men = renderToStaticMarkup(<CandidateFilters value={NO_CANDIDATE_FILTERS} onChange={() => {}} staff={STAFF} sought="homme" />);
    expect(men).toContain('Port de la barbe');
    expect(men).not.toContain('Port du voile');
    expect(men).toContain('Bac + 5 (master, école d’ingénieur…)');
  });

  it('show what is chosen and offer to remove it', () => {
    const html = renderToStaticMarkup(
      <CandidateFilters value={{ ...NO_CANDIDATE_FILTERS, region: 'bretagne', ageMin: '30' }} onChange={() => {}} staff={STAFF} />,
    );
    expect(html).toMatch(/<option value="bretagne" selected="">Bretagne<\/option>/);
    expect(html).toContain('value="30"');
    expect(html).toContain('Retirer les filtres');
  });

  it('become the query the server reads, the page included', () => {
    expect(candidatesQuery(false, NO_CANDIDATE_FILTERS, 1)).toBe('');
    expect(
      candidatesQuery(false, { ...NO_CANDIDATE_FILTERS, ageMin: ' 30 ', region: 'bretagne', enfants: 'avec', counsellor: 'aucun' }, 3),
    ).toBe('?ageMin=30&region=bretagne&enfants=avec&counsellor=aucun&page=3');
    expect(candidatesQuery(true, { ...NO_CANDIDATE_FILTERS, practice: 'reguliere' }, 1)).toBe('?horsCriteres=true&practice=reguliere');
    expect(candidatesQuery(false, { ...NO_CANDIDATE_FILTERS, langue: 'arabe', madhhab: 'malikite' }, 1)).toBe(
      '?langue=arabe&madhhab=malikite',
    );
    expect(
      candidatesQuery(false, { ...NO_CANDIDATE_FILTERS, etudes: 'bac-5', tailleMin: '160', tailleMax: '175', voile: 'oui', barbe: '' }, 1),
    ).toBe('?etudes=bac-5&tailleMin=160&tailleMax=175&voile=oui');
  });
});
