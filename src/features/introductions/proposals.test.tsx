import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MemberIntroduction } from '#src/features/introductions/introductions-api.ts';
import { ProposalCard } from '#src/features/introductions/proposal-card.tsx';
import { accompanimentEnded, proposalsIntro } from '#src/features/introductions/proposals-page.tsx';

const DAY = 24 * 60 * 60 * 1000;
const now = Date.parse('2026-12-01T09:00:00Z');
const text = (html: string) =>
  html
    .replace(/<br\/?>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/[\u202f\u00a0]/g, ' ')
    .replace(/\s+/g, ' ');

const proposal: MemberIntroduction = {
  id: '7d1f0c2e-0000-4000-8000-000000000001',
  state: 'proposee',
  stateLabel: 'Proposée',
  proposedAt: new Date(now - DAY).toISOString(),
  deadlineAt: new Date(now + 6 * DAY).toISOString(),
  myAnswer: { status: 'pending', at: null, reason: null },
  note: 'Un homme posé, qui partage votre attachement à la famille.',
  other: {
    firstName: 'Youssef',
    age: 34,
    region: 'Île-de-France',
    practice: 'Cinq prières par jour',
    profession: 'Ingénieur',
    familySituation: 'Célibataire, sans enfant',
    presentation: null,
  },
  reasons: ['Il correspond à vos critères indispensables : âge et région.', 'Il correspond aussi à vos souhaits : pratique religieuse.'],
  outsideCriteria: null,
  meeting: null,
  contact: null,
  myFeedback: null,
  feedbackDeadline: null,
  contactAlsoToGuardian: null,
  myContactVia: { via: 'moi', label: 'Mes propres coordonnées', fromSettings: true, waliPhone: false },
  photos: [],
  ended: null,
  otherFirstName: 'Youssef',
  timeline: [],
};
const send = async () => null;

describe('a proposal in "Mes propositions"', () => {
  it('shows the anonymised summary, what matches (never a cross), the deadline, accept and decline', () => {
    const html = renderToStaticMarkup(<ProposalCard proposal={proposal} now={now} send={send} />);
    const t = text(html);
    expect(t).toContain('Youssef, 34 ans');
    expect(t).toContain('Réponse attendue');
    for (const value of ['Île-de-France', 'Cinq prières par jour', 'Ingénieur', 'Célibataire, sans enfant']) expect(t).toContain(value);
    expect(t).toContain('Il correspond à vos critères indispensables : âge et région.');
    expect(t).toContain('Il correspond aussi à vos souhaits : pratique religieuse.');
    expect(t).not.toMatch(/✗|ne correspond pas|critères sur/);
    expect(t).toContain('À répondre avant le 7 décembre 2026 à 10 h 00 (encore 6 jours)');
    expect(t).toContain('Le mot de votre conseillère');
    expect(t).toContain('Accepter la proposition');
    expect(t).toContain('Décliner…');
    // No stored code, no contact before both accept.
    expect(t).not.toMatch(/situation-professionnelle|proposee|pending/);
    expect(t).not.toContain('E-mail');
  });

  it('outside an indispensable criterion: which one, and the counsellor’s reason in place of the note', () => {
    const outside: MemberIntroduction = {
      ...proposal,
      outsideCriteria: 'Cette proposition s’écarte de votre critère indispensable : situation familiale.',
      note: 'Youssef est divorcé sans enfant ; il partage tout le reste de ce que vous cherchez.',
    };
    const t = text(renderToStaticMarkup(<ProposalCard proposal={outside} now={now} send={send} />));
    expect(t).toContain('Cette proposition s’écarte de votre critère indispensable : situation familiale.');
    expect(t).toContain('Pourquoi votre conseillère vous la propose malgré tout');
    expect(t).toContain('Youssef est divorcé sans enfant ; il partage tout le reste de ce que vous cherchez.');
    expect(t).not.toContain('Le mot de votre conseillère');
  });

  it('after my acceptance alone: no contact details, a word on what comes next', () => {
    const mine = { ...proposal, myAnswer: { status: 'accepted' as const, at: new Date(now).toISOString(), reason: null } };
    const t = text(renderToStaticMarkup(<ProposalCard proposal={mine} now={now} send={send} />));
    expect(t).toContain('Vous avez accepté le 1er décembre 2026 à 10 h 00');
    expect(t).toContain('Les coordonnées ne sont échangées que si l’autre personne accepte aussi');
    expect(t).not.toContain('Accepter la proposition');
    expect(t).not.toContain('E-mail');
  });

  it('once both accepted: the contact details and the first meeting', () => {
    const both: MemberIntroduction = {
      ...proposal,
      state: 'rencontre-planifiee',
      stateLabel: 'Première rencontre planifiée',
      myAnswer: { status: 'accepted', at: new Date(now).toISOString(), reason: null },
      contact: { via: 'moi', email: 'youssef@example.fr', phone: '+33698765432', guardian: null },
      meeting: { at: '2026-12-10T14:00:00Z', place: 'À l’agence, 12 rue de la Paix' },
    };
    const html = renderToStaticMarkup(<ProposalCard proposal={both} now={now} send={send} />);
    const t = text(html);
    expect(t).toContain('Vous avez accepté tous les deux');
    expect(html).toContain('href="mailto:youssef@example.fr"');
    // As a person writes it, never the stored E.164.
    expect(t).toContain('06 98 76 54 32');
    expect(t).not.toContain('+33698765432');
    expect(t).toContain('Première rencontre : le 10 décembre 2026 à 15 h 00, À l’agence, 12 rue de la Paix');
    expect(t).not.toContain('Votre retour après la rencontre');
  });

  it('after the meeting: the feedback form with the outcomes in French', () => {
    const after: MemberIntroduction = {
      ...proposal,
      state: 'retours',
      contact: { via: 'moi', email: 'y@example.fr', phone: null, guardian: null },
    };
    const t = text(renderToStaticMarkup(<ProposalCard proposal={after} now={now} send={send} />));
    expect(t).toContain('Votre retour après la rencontre');
    for (const label of ['Continuer à se connaître', 'Arrêter', 'Nous sommes fiancés']) expect(t).toContain(label);
    expect(t).toContain('non communiqué');
  });

  it('declined by me: the reason in French; engaged: congratulations', () => {
    const declined: MemberIntroduction = {
      ...proposal,
      state: 'declinee',
      myAnswer: { status: 'declined', at: new Date(now).toISOString(), reason: 'Pas d’affinité' },
    };
    expect(text(renderToStaticMarkup(<ProposalCard proposal={declined} now={now} send={send} />))).toContain(
      'Vous avez décliné cette proposition le 1er décembre 2026 à 10 h 00 (motif : pas d’affinité).',
    );
    const engaged: MemberIntroduction = { ...proposal, state: 'fiancailles', stateLabel: 'Fiançailles : recherches en pause' };
    expect(text(renderToStaticMarkup(<ProposalCard proposal={engaged} now={now} send={send} />))).toContain('Félicitations !');
  });
});

describe('an introduction that ended (decision 194)', () => {
  const ended = (over: Partial<MemberIntroduction>): MemberIntroduction => ({
    ...proposal,
    state: 'close',
    stateLabel: 'Close',
    myAnswer: { status: 'accepted', at: new Date(now - 20 * DAY).toISOString(), reason: null },
    other: null,
    reasons: [],
    ended: { at: '2026-11-30T23:00:00.000Z', why: null, wasShared: true, message: null },
    ...over,
  });

  it('stays as history: the first name, the dates and the end, never a contact or a photo', () => {
    const t = text(renderToStaticMarkup(<ProposalCard proposal={ended({})} now={now} send={send} />));
    expect(t).toContain('Youssef');
    expect(t).toContain('Proposée le');
    expect(t).toContain(
      'Cette mise en relation a pris fin le 1er décembre 2026 à 0 h 00. Ses coordonnées et ses photos ne vous sont plus accessibles.',
    );
    expect(t).not.toContain('E-mail');
    expect(t).not.toContain('Les photos de');
    expect(t).not.toContain('Accepter la proposition');
  });

  it('says the member’s own cause, and ends a card whose state has not caught up yet', () => {
    const own = ended({
      state: 'acceptee',
      ended: { at: null, why: 'votre contrat est arrivé à son terme', wasShared: true, message: null },
    });
    const t = text(renderToStaticMarkup(<ProposalCard proposal={own} now={now} send={send} />));
    expect(t).toContain('Cette mise en relation a pris fin : votre contrat est arrivé à son terme.');
    expect(t).not.toContain('Vous avez accepté tous les deux');
    const engaged = ended({ state: 'fiancailles', ended: { at: null, why: null, wasShared: true, message: null } });
    const e = text(renderToStaticMarkup(<ProposalCard proposal={engaged} now={now} send={send} />));
    expect(e).toContain('Félicitations !');
    expect(e).toContain('Cette mise en relation a pris fin. Ses coordonnées et ses photos ne vous sont plus accessibles.');
  });

  it('reads the counsellor’s message instead of a bare « Close » (decision 205)', () => {
    const closed = ended({
      ended: { at: null, why: 'l’autre personne a souhaité ne pas poursuivre', wasShared: true, message: 'Je vous appelle cette semaine.' },
    });
    const t = text(renderToStaticMarkup(<ProposalCard proposal={closed} now={now} send={send} />));
    expect(t).toContain('Cette mise en relation a pris fin : l’autre personne a souhaité ne pas poursuivre.');
    expect(t).toContain('Le mot de votre conseillère Je vous appelle cette semaine.');
    expect(t).not.toContain('Close.');
  });

  it('shows the feedback’s deadline above the form, and only the sentence once it passed (decision 205)', () => {
    const waiting = {
      ...proposal,
      state: 'retours',
      stateLabel: 'Retours',
      myAnswer: { status: 'accepted' as const, at: null, reason: null },
    };
    const open = { lastDay: '2027-03-10', passed: false, text: 'Votre retour est attendu jusqu’au mercredi 10 mars 2027 inclus.' };
    const t = text(renderToStaticMarkup(<ProposalCard proposal={{ ...waiting, feedbackDeadline: open }} now={now} send={send} />));
    expect(t).toContain('Votre retour est attendu jusqu’au mercredi 10 mars 2027 inclus.');
    expect(t).toContain('Envoyer mon retour');
    const passed = { ...open, passed: true, text: 'Le délai pour donner votre retour est passé.' };
    const p = text(renderToStaticMarkup(<ProposalCard proposal={{ ...waiting, feedbackDeadline: passed }} now={now} send={send} />));
    expect(p).toContain('Le délai pour donner votre retour est passé.');
    expect(p).not.toContain('Envoyer mon retour');
  });
});

describe('after the member’s contract ended (issue 59 point 3)', () => {
  it('an accepted proposal promises no meeting date, offers no action, and says it ended with the contract', () => {
    const accepted: MemberIntroduction = {
      ...proposal,
      state: 'acceptee',
      stateLabel: 'Acceptée des deux côtés',
      myAnswer: { status: 'accepted', at: new Date(now - DAY).toISOString(), reason: null },
    };
    // While the contract runs, the agency will propose a date.
    expect(text(renderToStaticMarkup(<ProposalCard proposal={accepted} now={now} send={send} />))).toContain('proposera bientôt une date');
    const t = text(renderToStaticMarkup(<ProposalCard proposal={accepted} now={now} send={send} ended />));
    expect(t).not.toContain('proposera bientôt une date');
    expect(t).not.toContain('Comment cette personne vous contacte');
    expect(t).toContain('Cette mise en relation a pris fin avec votre contrat.');
    expect(t).toContain('Terminée');
  });

  it('one the other declined does not say the adviser keeps searching', () => {
    const declined: MemberIntroduction = { ...proposal, state: 'declinee', stateLabel: 'Déclinée' };
    expect(text(renderToStaticMarkup(<ProposalCard proposal={declined} now={now} send={send} />))).toContain('continue de chercher');
    expect(text(renderToStaticMarkup(<ProposalCard proposal={declined} now={now} send={send} ended />))).not.toContain(
      'continue de chercher',
    );
  });

  it('the page says the accompaniment has ended, for the end states only', () => {
    for (const state of ['renonce', 'retracte', 'resilie', 'contrat-termine']) expect(accompanimentEnded(state)).toBe(true);
    for (const state of ['membre-actif', 'resiliation-demandee', 'attente.entretien-matchmaking', null]) {
      expect(accompanimentEnded(state)).toBe(false);
    }
    expect(proposalsIntro(false, 0)).toEqual([]);
    expect(proposalsIntro(true, 0).join(' ')).toContain('Votre accompagnement a pris fin');
    expect(proposalsIntro(true, 2).join(' ')).toContain('restent pour mémoire');
  });
});
