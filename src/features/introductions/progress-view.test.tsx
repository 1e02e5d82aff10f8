import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MemberProgress } from '#src/features/introductions/accompaniment-api.ts';
import type { MemberIntroduction } from '#src/features/introductions/introductions-api.ts';
import { ProgressView } from '#src/features/introductions/progress-page.tsx';
import { countsText, feedbackStep, fitText, formatDay, guardianLines, termText } from '#src/features/introductions/progress-view.ts';
import { ProposalCard } from '#src/features/introductions/proposal-card.tsx';

const text = (html: string) =>
  html
    .replace(/<br\/?>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/[\u202f\u00a0]/g, ' ')
    .replace(/\s+/g, ' ');

const term = {
  plan: 'Sérénité 12 mois',
  durationMonths: 12,
  signedAt: '2026-10-05T09:00:00.000Z',
  endsOn: '2027-10-04',
  note: null,
  ended: null,
};

describe('« Mon accompagnement » in words', () => {
  it('says the term’s end, or why there is none yet', () => {
    expect(formatDay('2027-10-04')).toBe('4 octobre 2027');
    expect(formatDay('pas-une-date')).toBe('—');
    expect(termText(term)).toBe('Votre accompagnement (Sérénité 12 mois, 12 mois) prend fin le 4 octobre 2027, sans reconduction tacite.');
    expect(termText({ ...term, signedAt: null, endsOn: null, note: 'Date de fin communiquée à la signature.' })).toBe(
      'Votre accompagnement : Sérénité 12 mois, 12 mois. Date de fin communiquée à la signature.',
    );
    expect(
      termText({
        plan: null,
        durationMonths: null,
        signedAt: null,
        endsOn: null,
        note: 'Votre formule n’est pas encore choisie.',
        ended: null,
      }),
    ).toBe('Votre formule n’est pas encore choisie.');
  });

  it('says when and how an ended contract ended, and what was refunded; never « prend fin » (decision 176)', () => {
    const renounced = termText({
      ...term,
      endsOn: null,
      ended: { on: '2026-10-08', reason: 'renonciation dans les 7 jours', refundedCents: 0 },
    });
    expect(renounced).toBe('Votre contrat (Sérénité 12 mois, 12 mois) a pris fin le 8 octobre 2026 (renonciation dans les 7 jours).');
    const terminated = termText({
      ...term,
      endsOn: null,
      ended: { on: '2027-01-15', reason: 'résiliation pour motif légitime', refundedCents: 22_467 },
    });
    expect(terminated.replace(/\s/g, ' ')).toContain(
      'a pris fin le 15 janvier 2027 (résiliation pour motif légitime). Nous vous avons remboursé 224,67 €.',
    );
    expect(terminated).not.toContain('prend fin');
  });

  it('says how each fitted, and the counts, with French plurals', () => {
    expect(fitText({ fit: 'Il correspond à vos critères indispensables : âge et région.' })).toBe(
      'Il correspond à vos critères indispensables : âge et région.',
    );
    expect(fitText({ fit: null })).toBe('Résumé du profil plus disponible');
    expect(countsText({ proposals: 2, mutual: 1, meetings: 0 })).toEqual([
      '2 propositions reçues',
      '1 acceptation mutuelle',
      '0 première rencontre',
    ]);
  });

  it('offers the feedback form only where the chart accepts one, and says what was given', () => {
    const given = { outcome: 'continuer', outcomeLabel: 'Continuer à se connaître', at: '2026-11-20T10:00:00.000Z' };
    expect(feedbackStep({ state: 'retours', myFeedback: null })).toMatchObject({ form: true, given: null });
    expect(feedbackStep({ state: 'retours', myFeedback: null }).options.map((o) => o.value)).toEqual(['continuer', 'arreter', 'fiances']);
    const once = feedbackStep({ state: 'retours', myFeedback: given });
    expect(once.form).toBe(false);
    expect(once.given).toContain('continuer à se connaître');
    expect(feedbackStep({ state: 'poursuivie', myFeedback: given }).options.map((o) => o.value)).toEqual(['arreter', 'fiances']);
    const engaged = feedbackStep({
      state: 'poursuivie',
      myFeedback: { ...given, outcome: 'fiances', outcomeLabel: 'Nous sommes fiancés' },
    });
    expect(engaged.options.map((o) => o.value)).toEqual(['continuer', 'arreter']);
    expect(engaged.given).toContain('fiançailles');
    expect(feedbackStep({ state: 'close', myFeedback: given }).form).toBe(false);
  });

  it('lists the guardian’s contact lines', () => {
    expect(guardianLines({ name: 'Omar Haddad', relation: 'Frère', email: 'omar@example.fr', phone: null })).toEqual([
      'Omar Haddad (frère)',
      'omar@example.fr',
    ]);
  });

  it('renders the page: the term, the counts, each proposal with its outcome and fit, no code', () => {
    const progress: MemberProgress = {
      counts: { proposals: 1, mutual: 1, meetings: 0 },
      introductions: [
        {
          id: 'i1',
          proposedAt: '2026-11-02T09:00:00.000Z',
          firstName: 'Youssef',
          outcome: 'Acceptée des deux côtés',
          fit: 'Il correspond à vos souhaits : âge et région.',
          open: true,
        },
      ],
      term,
    };
    const t = text(renderToStaticMarkup(<ProgressView progress={progress} />));
    expect(t).toContain('prend fin le 4 octobre 2027');
    expect(t).toContain('1 proposition reçue');
    expect(t).toContain('Youssef — proposée le 2 novembre 2026 à 10 h 00');
    expect(t).toContain('Acceptée des deux côtés');
    expect(t).toContain('Il correspond à vos souhaits : âge et région.');
    expect(t).not.toMatch(/critères? sur/);
    expect(t).not.toMatch(/acceptee|proposee/);
  });
});

describe('a proposal with a guardian, and feedback given', () => {
  const now = Date.parse('2026-12-01T09:00:00Z');
  const proposal: MemberIntroduction = {
    id: '7d1f0c2e-0000-4000-8000-000000000002',
    state: 'retours',
    stateLabel: 'En attente des retours après la rencontre',
    proposedAt: '2026-11-01T09:00:00.000Z',
    deadlineAt: '2026-11-08T09:00:00.000Z',
    myAnswer: { status: 'accepted', at: '2026-11-02T09:00:00.000Z', reason: null },
    note: null,
    other: {
      firstName: 'Youssef',
      age: 34,
      region: 'Île-de-France',
      practice: 'Régulière',
      profession: 'Ingénieur',
      familySituation: 'Célibataire',
      presentation: null,
    },
    reasons: [],
    outsideCriteria: null,
    meeting: { at: '2026-11-20T10:00:00.000Z', place: 'Locaux de l’agence' },
    contact: {
      via: 'moi',
      email: 'youssef@example.fr',
      phone: '+33612345678',
      guardian: { name: 'Omar Haddad', relation: 'Frère', email: 'omar@example.fr', phone: '+33611223344' },
    },
    myFeedback: { outcome: 'continuer', outcomeLabel: 'Continuer à se connaître', at: '2026-11-21T10:00:00.000Z', byPhone: false },
    feedbackDeadline: null,
    contactAlsoToGuardian: null,
    myContactVia: { via: 'moi', label: 'Mes propres coordonnées', fromSettings: true, waliPhone: false },
    photos: [],
    ended: null,
    otherFirstName: 'Youssef',
    timeline: [],
  };
  const send = async () => null;

  it('shows the other’s guardian beside the contact, and no feedback form once given', () => {
    const t = text(renderToStaticMarkup(<ProposalCard proposal={proposal} now={now} send={send} />));
    expect(t).toContain('Son proche associé');
    expect(t).toContain('Omar Haddad (frère)');
    expect(t).toContain('omar@example.fr');
    expect(t).toContain('06 11 22 33 44');
    expect(t).toContain('06 12 34 56 78');
    expect(t).toContain('Votre retour du 21 novembre 2026 à 11 h 00 : continuer à se connaître.');
    expect(t).not.toContain('Envoyer mon retour');
  });

  it('offers the form while no feedback is given; tells before accepting that a guardian will receive the contact', () => {
    const t = text(renderToStaticMarkup(<ProposalCard proposal={{ ...proposal, myFeedback: null }} now={now} send={send} />));
    expect(t).toContain('Envoyer mon retour');
    const open = text(
      renderToStaticMarkup(
        <ProposalCard
          proposal={{
            ...proposal,
            state: 'proposee',
            deadlineAt: '2026-12-05T09:00:00.000Z',
            myAnswer: { status: 'pending', at: null, reason: null },
            contact: null,
            meeting: null,
            myFeedback: null,
            contactAlsoToGuardian: 'Père',
          }}
          now={now}
          send={send}
        />,
      ),
    );
    expect(open).toContain(
      'Cette personne a associé un proche (père) : si vous acceptez tous les deux, vos coordonnées lui seront aussi transmises.',
    );
  });
});
