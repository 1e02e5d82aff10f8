import { describe, expect, it } from 'vitest';
import { type ProgressSource, progressCounts, progressItem, progressOutcome } from '#machines/introductions/progress.ts';

const base: ProgressSource = {
  id: 'i1',
  state: 'proposee',
  proposedAt: '2026-11-01T10:00:00.000Z',
  myAnswer: { status: 'pending' },
  other: { firstName: 'Youssef' },
  reasons: ['Il correspond à vos critères indispensables : âge et région.', 'Il correspond aussi à vos souhaits : enfants.'],
  outsideCriteria: null,
  meeting: null,
  myFeedback: null,
};
const at = (state: string, extra: Partial<ProgressSource> = {}): ProgressSource => ({ ...base, state, ...extra });

describe('the member’s progress', () => {
  it('says each outcome in French from the member’s side, never the other’s reason', () => {
    expect(progressOutcome(at('proposee.attente-des-reponses'))).toBe('En attente de votre réponse');
    expect(progressOutcome(at('proposee', { myAnswer: { status: 'accepted' } }))).toBe('Vous avez accepté ; en attente de l’autre réponse');
    expect(progressOutcome(at('declinee', { myAnswer: { status: 'declined' } }))).toBe('Vous avez décliné');
    expect(progressOutcome(at('declinee', { myAnswer: { status: 'accepted' } }))).toBe('Sans suite');
    expect(progressOutcome(at('expiree'))).toBe('Expirée sans réponse');
    expect(progressOutcome(at('acceptee'))).toBe('Acceptée des deux côtés');
    expect(progressOutcome(at('rencontre-planifiee'))).toBe('Première rencontre planifiée');
    expect(progressOutcome(at('retours'))).toBe('Rencontre faite : votre retour est attendu');
    expect(progressOutcome(at('retours', { myFeedback: { outcome: 'continuer' } }))).toBe('Rencontre faite : votre retour est enregistré');
    expect(progressOutcome(at('poursuivie'))).toBe('Vous continuez à vous connaître');
    expect(progressOutcome(at('fiancailles'))).toBe('Fiançailles : félicitations !');
    expect(progressOutcome(at('close'))).toBe('Terminée');
    expect(progressOutcome(at('inconnu'))).toBe('En cours');
  });

  it('says what matched (never a count of what did not), and whether it is still going on', () => {
    expect(progressItem(base)).toEqual({
      id: 'i1',
      proposedAt: base.proposedAt,
      firstName: 'Youssef',
      outcome: 'En attente de votre réponse',
      fit: 'Il correspond à vos critères indispensables : âge et région.',
      open: true,
    });
    expect(progressItem(at('proposee', { outsideCriteria: 'Cette proposition s’écarte de votre critère indispensable : âge.' })).fit).toBe(
      'Proposée hors d’un de vos critères indispensables, avec l’explication de votre conseillère',
    );
    expect(progressItem(at('close', { other: null, reasons: [] }))).toMatchObject({
      firstName: null,
      fit: null,
      open: false,
    });
  });

  it('counts proposals, mutual acceptances and meetings held', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    const met = { at: '2026-11-20T10:00:00.000Z' };
    const list = [
      at('proposee'),
      at('declinee'),
      at('acceptee'),
      at('rencontre-planifiee', { meeting: { at: '2026-12-05T10:00:00.000Z' } }),
      at('retours', { meeting: met }),
      at('close', { meeting: met }),
      at('close'),
    ];
    expect(progressCounts(list, now)).toEqual({ proposals: 7, mutual: 4, meetings: 2 });
    expect(progressCounts([], now)).toEqual({ proposals: 0, mutual: 0, meetings: 0 });
  });
});
