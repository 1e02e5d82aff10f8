import { describe, expect, it } from 'vitest';
import { contractStatusLabel } from '#bff/dashboard/member-summary.ts';

/** The contract's status in the file's header (decision 209): words for every stage, never a code. */
describe('contractStatusLabel', () => {
  it('says where the contract stands, from the stage and the signature', () => {
    expect(contractStatusLabel('profil', false)).toBe('Pas de contrat');
    expect(contractStatusLabel('attente-contrat', false)).toBe('Pas encore signé');
    expect(contractStatusLabel('attente-contrat', true)).toBe('Signé, délai de 7 jours avant tout paiement');
    expect(contractStatusLabel('attente', true)).toBe('Signé, délai légal en cours');
    expect(contractStatusLabel('membre-actif', true)).toBe('En cours');
    expect(contractStatusLabel('resiliation-demandee', true)).toBe('Résiliation demandée, en attente de décision');
    expect(contractStatusLabel('renonce', true)).toBe('Annulé (renonciation)');
    expect(contractStatusLabel('retracte', true)).toBe('Résilié (rétractation)');
    expect(contractStatusLabel('resilie', true)).toBe('Résilié (motif légitime)');
    expect(contractStatusLabel('contrat-termine', true)).toBe('Terminé');
    expect(contractStatusLabel('desactive', true)).toBe('Signé (compte désactivé)');
    expect(contractStatusLabel('desactive', false)).toBe('Pas de contrat (compte désactivé)');
  });
});
