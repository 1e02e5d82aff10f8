import { describe, expect, it } from 'vitest';
import { declineReasonLabels, feedbackOutcomeLabels, stateLabels } from '#machines/introductions/labels.ts';
import {
  answerLabel,
  criterionLabel,
  criterionRows,
  deadlineSoon,
  deadlineText,
  declineReasonOptions,
  feedbackOutcomeOptions,
  formatLongDateTime,
  localInputToIso,
  ofName,
  proposalStage,
  scoreText,
  sideNames,
  sortProposals,
  staffActionsFor,
  stateFilterOptions,
  summaryTitle,
  wishesText,
} from '#src/features/introductions/introductions-view.ts';

const nbsp = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');
const DAY = 24 * 60 * 60 * 1000;
const now = Date.parse('2026-12-01T09:00:00Z');

describe('introductions view', () => {
  it('writes dates in French, in Paris time', () => {
    expect(nbsp(formatLongDateTime('2026-12-02T13:05:00Z'))).toBe('2 décembre 2026 à 14 h 05');
    expect(formatLongDateTime(null)).toBe('—');
    expect(formatLongDateTime('pas une date')).toBe('—');
  });

  it('says the answer deadline with the days left, the last day, or that it has passed', () => {
    const inFive = new Date(now + 5 * DAY + 3600_000).toISOString();
    expect(nbsp(deadlineText(inFive, now))).toMatch(/^À répondre avant le 6 décembre 2026 à 11 h 00 \(encore 5 jours\)$/);
    expect(deadlineText(new Date(now + DAY + 1).toISOString(), now)).toContain('(encore 1 jour)');
    expect(deadlineText(new Date(now + 3600_000).toISOString(), now)).toContain('(dernier jour)');
    expect(deadlineText(new Date(now - 1).toISOString(), now)).toMatch(/^Le délai de réponse est passé/);
    expect(deadlineSoon(new Date(now + DAY).toISOString(), now)).toBe(true);
    expect(deadlineSoon(new Date(now + 3 * DAY).toISOString(), now)).toBe(false);
  });

  it('never shows a stored code: criteria, answers, reasons, outcomes, states', () => {
    expect(criterionLabel('age')).toBe('Âge');
    expect(criterionLabel('situation-familiale')).toBe('Situation familiale');
    expect(criterionLabel('inconnu')).toBe('Critère');
    expect(answerLabel('pending')).toBe('Pas encore de réponse');
    expect(answerLabel('accepted')).toBe('Acceptée');
    expect(answerLabel('declined')).toBe('Déclinée');
    expect(answerLabel('xyz')).toBe('Réponse inconnue');
    expect(declineReasonOptions.map((o) => o.label)).toEqual(Object.values(declineReasonLabels));
    expect(feedbackOutcomeOptions.map((o) => o.label)).toEqual(Object.values(feedbackOutcomeLabels));
    for (const option of stateFilterOptions) expect(option.label).not.toBe(option.value);
    // Top-level states only, after "En cours" and "Toutes".
    expect(stateFilterOptions.map((o) => o.value)).toEqual([
      'ouvertes',
      'toutes',
      ...Object.keys(stateLabels).filter((k) => !k.includes('.')),
    ]);
  });

  it('knows what a member card offers in each state', () => {
    const base = { deadlineAt: new Date(now + DAY).toISOString(), myAnswer: { status: 'pending' } };
    expect(proposalStage({ ...base, state: 'proposee' }, now)).toBe('answer');
    expect(proposalStage({ ...base, state: 'proposee', myAnswer: { status: 'accepted' } }, now)).toBe('waiting');
    expect(proposalStage({ ...base, state: 'proposee', myAnswer: { status: 'declined' } }, now)).toBe('declined');
    expect(proposalStage({ ...base, state: 'proposee' }, now + 2 * DAY)).toBe('expired');
    expect(proposalStage({ ...base, state: 'declinee' }, now)).toBe('declined');
    expect(proposalStage({ ...base, state: 'expiree' }, now)).toBe('expired');
    expect(proposalStage({ ...base, state: 'acceptee' }, now)).toBe('accepted');
    expect(proposalStage({ ...base, state: 'rencontre-planifiee' }, now)).toBe('meeting');
    expect(proposalStage({ ...base, state: 'retours' }, now)).toBe('feedback');
    expect(proposalStage({ ...base, state: 'poursuivie' }, now)).toBe('feedback');
    expect(proposalStage({ ...base, state: 'fiancailles' }, now)).toBe('ended');
    expect(proposalStage({ ...base, state: 'close' }, now)).toBe('ended');
  });

  it('puts proposals awaiting an answer first, nearest deadline first, then the rest newest first', () => {
    const p = (id: string, state: string, status: string, deadlineDays: number, proposedDays: number) => ({
      id,
      state,
      myAnswer: { status },
      deadlineAt: new Date(now + deadlineDays * DAY).toISOString(),
      proposedAt: new Date(now - proposedDays * DAY).toISOString(),
    });
    const list = [
      p('old-closed', 'close', 'accepted', -20, 27),
      p('late', 'proposee', 'pending', 6, 1),
      p('accepted', 'acceptee', 'accepted', -1, 8),
      p('soon', 'proposee', 'pending', 2, 5),
    ];
    expect(sortProposals(list, now).map((x) => x.id)).toEqual(['soon', 'late', 'accepted', 'old-closed']);
  });

  it('names the other person without a surname', () => {
    expect(summaryTitle({ firstName: 'Youssef', age: 34 })).toBe('Youssef, 34 ans');
    expect(summaryTitle({ firstName: null, age: null })).toBe('Un membre');
    expect(summaryTitle(null)).toBe('Profil indisponible');
  });

  it('offers staff the events the chart accepts in each state', () => {
    expect(staffActionsFor('proposee.attente-des-reponses')).toEqual(['CLOSE']);
    expect(staffActionsFor('acceptee')).toEqual(['PLAN_MEETING', 'CLOSE']);
    expect(staffActionsFor('rencontre-planifiee')).toEqual(['PLAN_MEETING', 'RECORD_MEETING_HELD', 'CANCEL_MEETING', 'CLOSE']);
    expect(staffActionsFor('declinee')).toEqual(['REOPEN']);
    expect(staffActionsFor('close')).toEqual(['REOPEN']);
    expect(staffActionsFor('fiancailles')).toEqual(['CLOSE']);
    expect(staffActionsFor('n-importe')).toEqual([]);
  });

  it('names each side by first name for staff, else Membre A / Membre B', () => {
    expect(sideNames({ a: { firstName: 'Amina' }, b: { firstName: null } })).toEqual({ a: 'Amina', b: 'Membre B' });
  });

  it('puts a candidate’s criteria in rows, both sides side by side, leaving out what neither side asked', () => {
    const reasons = [
      { criterion: 'age', side: 'membre', verdict: 'oui', required: true, reason: '34 ans ; recherché : 28–40 ans' },
      { criterion: 'age', side: 'candidat', verdict: 'non', required: false, reason: '41 ans ; recherché : 25–35 ans' },
      { criterion: 'region', side: 'membre', verdict: 'indifferent', required: false, reason: 'Bretagne ; toute région' },
      { criterion: 'region', side: 'candidat', verdict: 'indifferent', required: false, reason: 'Île-de-France ; toute région' },
      { criterion: 'demenagement', side: 'membre', verdict: 'a-verifier', required: false, reason: 'Autre région' },
      { criterion: 'demenagement', side: 'candidat', verdict: 'indifferent', required: false, reason: 'Accepte de déménager' },
    ];
    const rows = criterionRows(reasons);
    expect(rows.map((r) => [r.label, r.membre?.mark, r.candidat?.mark])).toEqual([
      ['Âge', '✓', '✗'],
      ['Déménagement', '?', '–'],
    ]);
    expect(rows[0]?.membre).toMatchObject({ verdict: 'correspond', required: true, reason: '34 ans ; recherché : 28–40 ans' });
    expect(rows[0]?.candidat?.verdict).toBe('ne correspond pas');
    expect(wishesText(reasons)).toBe('Souhaits des deux côtés\u00a0: 0 souhait rempli, 1 non rempli, 1 à vérifier');
    expect(ofName('Youssef')).toBe('de Youssef');
    expect(ofName('Inès')).toBe('d’Inès');
  });

  it('reads the meeting time as typed and scores as text', () => {
    expect(localInputToIso('2026-12-05T15:00')).toBe(new Date('2026-12-05T15:00').toISOString());
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('demain')).toBeNull();
    expect(scoreText(7, 9)).toBe('Score 7 / 9');
  });
});
