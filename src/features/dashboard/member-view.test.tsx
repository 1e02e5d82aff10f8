import { renderToStaticMarkup } from 'react-dom/server';
import type { AnyStateNode } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  bookingStatusLabels,
  checkoutStatusLabels,
  contractFields,
  genderLabels,
  maritalStatusLabels,
  offerLabels,
  paymentStatusLabels,
  planLabels,
  prayerPracticeLabels,
  professionalSituationLabels,
  profileFields,
  questionnaireFields,
  regionLabels,
  soughtPracticeLabels,
  stateLabels,
} from '#machines/onboarding/labels.ts';
import { contextSentences, eventLabels } from '#machines/onboarding/event-labels.ts';
import { onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { contextNames, eventTypes } from '#machines/onboarding/update-contexts.ts';
import type { MemberDetail } from '#src/features/dashboard/dashboard-api.ts';
import { ContractTab, HistoryTab, ProfileTab } from '#src/features/dashboard/member-sections.tsx';
import { formatBirthDate, formatDateTime, profileRows, questionnaireRows, timeline } from '#src/features/dashboard/member-view.ts';

const NOW = Date.parse('2026-11-24T10:30:00Z');
const AT = '2026-11-24T10:30:00.000Z';
const MEMBER_ID = '0b7c1f7e-2f0a-4c55-9d44-3a7d8c1e5b21';

function stateKeys(): string[] {
  const keys: string[] = [];
  const walk = (node: AnyStateNode) => {
    if (node.path.length > 0) keys.push(node.path.join('.'));
    for (const child of Object.values(node.states)) walk(child);
  };
  walk(onboardingMachine.root);
  return keys;
}

/** Every kind of logged event, each outcome, every actor, and every state of the chart as from/to. */
function allEvents(): MemberDetail['events'] {
  const keys = stateKeys();
  const contexts = [...contextNames, 'ban' as const];
  const actors = [
    { actorRole: 'staff', actorName: 'Nadia', actorId: '11111111-1111-4111-8111-111111111111' },
    { actorRole: 'staff', actorName: null, actorId: '22222222-2222-4222-8222-222222222222' },
    { actorRole: 'member', actorName: null, actorId: MEMBER_ID },
    { actorRole: 'system', actorName: null, actorId: null },
  ];
  const events: MemberDetail['events'] = [];
  let id = 0;
  for (const context of contexts) {
    for (const outcome of [true, false, null]) {
      const actor = actors[id % actors.length] ?? actors[0];
      events.push({
        id: ++id,
        at: AT,
        context,
        event: context === 'ban' ? (outcome === false ? 'ENABLE' : 'DISABLE') : eventTypes[context],
        fromState: keys[id % keys.length] ?? 'profil',
        toState: keys[(id + 3) % keys.length] ?? 'profil',
        actorRole: actor?.actorRole ?? 'system',
        actorId: actor?.actorId ?? null,
        actorEmail: actor?.actorId ? 'quelqu.un@union-sincere.test' : null,
        actorName: actor?.actorName ?? null,
        outcome,
        planId: context === 'sel_plan' ? 'plan_serenity_month' : null,
      });
    }
  }
  // The newest: the onboarding meeting marked held by a named staff member.
  events.push({
    id: ++id,
    at: AT,
    context: 'onb_meet_ok',
    event: 'RECORD_ONBOARDING_MEETING',
    fromState: 'attente-entretien-personnalise',
    toState: 'attente-contrat.formulaire-contrat',
    actorRole: 'staff',
    actorId: '11111111-1111-4111-8111-111111111111',
    actorEmail: 'nadia@union-sincere.test',
    actorName: 'Nadia',
    outcome: true,
    planId: null,
  });
  return events;
}

/** A member with everything filled in; the answers' keys deliberately out of order. */
function fullMember(): MemberDetail {
  return {
    member: {
      id: MEMBER_ID,
      email: 'nadia.membre@exemple.fr',
      name: 'Nadia Tableau',
      gender: 'femme',
      state: 'attente-contrat.signature',
      top: 'attente-contrat',
      step: { id: 'attente-contrat', number: 7, title: 'Contrat' },
      disabled: false,
      createdAt: '2026-11-01T09:00:00.000Z',
      updatedAt: AT,
    },
    version: 12,
    record: {
      id: MEMBER_ID,
      email: 'nadia.membre@exemple.fr',
      gender: 'femme',
      selectedPlanId: 'plan_serenity_month',
      renouncedWithdrawalRight: true,
      couponApplied: true,
      profileCompleted: true,
      sensitiveDataConsentAt: '2026-11-01T09:05:00.000Z',
      questionnaireCompleted: true,
      formPersonnalInfoCompleted: true,
      applicationFeesPaid: true,
      preContractInfoAcknowledged: true,
      onboardingMeetingDateSelected: true,
      onboardingMeetingReserved: true,
      onboardingMeetingDate: '2026-11-20T14:00:00.000Z',
      onboardingMeetingDone: true,
      subscriptionContractFormCompleted: true,
      subscriptionDate: '2026-11-22T10:00:00.000Z',
      subscriptionFeesPaid: false,
      matchmakingMeetingDone: false,
      disabled: false,
    },
    profile: {
      sensitiveDataConsent: true,
      prayerPractice: 'cinq-prieres',
      maritalStatus: 'celibataire',
      phone: '+33612345678',
      lastName: 'Tableau',
      practiceDetails: 'Je porte le voile.',
      firstName: 'Nadia',
      childrenCount: 0,
      city: 'Lyon',
      birthDate: '1992-04-17',
      postcode: '69003',
      profession: 'Infirmière',
    },
    questionnaire: {
      otherQualities: 'Bienveillance, patience et sens de la famille.',
      soughtProfessionalSituation: 'indifferent',
      soughtRegions: ['ile-de-france', 'provence-alpes-cote-d-azur', 'etranger'],
      acceptsChildren: false,
      soughtFamilySituations: ['celibataire', 'divorce', 'veuf'],
      soughtPractice: 'en-apprentissage',
      soughtAgeMax: 40,
      soughtAgeMin: 30,
    },
    presentation: null,
    guardian: null,
    contract: {
      termsAccepted: true,
      contractForm: true,
      signature: 'Nadia Tableau',
      city: 'Lyon',
      postcode: '69003',
      address: '12 rue de la République',
      fullName: 'Nadia Tableau',
    },
    payments: [
      {
        id: 'cs_test_1',
        offerId: 'file_fee',
        amountCents: 0,
        currency: 'eur',
        status: 'complete',
        paymentStatus: 'no_payment_required',
        consumedByContext: 'app',
        createdAt: '2026-11-02T10:00:00.000Z',
      },
      {
        id: 'cs_test_2',
        offerId: 'plan_serenity_month',
        amountCents: 8500,
        currency: 'eur',
        status: 'open',
        paymentStatus: 'unpaid',
        consumedByContext: null,
        createdAt: '2026-11-23T10:00:00.000Z',
      },
      {
        id: 'cs_test_3',
        offerId: 'plan_horizon_year_cachback',
        amountCents: 16900,
        currency: 'eur',
        status: 'complete',
        paymentStatus: 'paid',
        consumedByContext: 'sub',
        createdAt: '2026-11-23T11:00:00.000Z',
      },
    ],
    meetings: [
      {
        id: 'https://calendly.test/invitees/1',
        startTime: '2026-11-18T14:00:00.000Z',
        endTime: '2026-11-18T14:30:00.000Z',
        status: 'canceled',
        rescheduled: true,
        bookedAt: '2026-11-10T10:00:00.000Z',
        canceledAt: '2026-11-12T10:00:00.000Z',
      },
      {
        id: 'https://calendly.test/invitees/2',
        startTime: '2026-11-20T14:00:00.000Z',
        endTime: '2026-11-20T14:30:00.000Z',
        status: 'active',
        rescheduled: false,
        bookedAt: '2026-11-12T10:00:00.000Z',
        canceledAt: null,
      },
    ],
    actions: [
      {
        id: 'onb_meet_cancel',
        label: 'Annuler le rendez-vous',
        confirm: 'Le rendez-vous est annulé.',
        endpoint: '/user/update',
        body: { context: 'onb_meet_cancel', uid: MEMBER_ID },
        danger: true,
        allowed: true,
        reason: null,
      },
      {
        id: 'meeting_mm',
        label: 'Entretien de rapprochement effectué',
        confirm: 'Le membre devient membre actif.',
        endpoint: '/user/update',
        body: { context: 'meeting_mm', uid: MEMBER_ID },
        danger: false,
        allowed: true,
        reason: null,
      },
    ],
    rights: {
      signedAt: null,
      renunciationEndsAt: null,
      withdrawalEndsAt: null,
      termEndsAt: null,
      renouncedAt: null,
      withdrawnAt: null,
      refunds: [],
      termination: null,
    },
    events: allEvents(),
  } as MemberDetail;
}

/** The text a person reads: tags dropped, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * Codes that are also ordinary French words ('questionnaire', 'signature', 'attente'…): the page may
 * say them in a sentence, so they cannot be told from a leak by the text alone.
 */
const FRENCH_WORDS = new Set([
  'questionnaire',
  'signature',
  'attente',
  'confirmation',
  'coupon',
  'divorce',
  'formules',
  'profil',
  'active',
]);

/** Every stored code the label table knows, plus the field names of the answers. */
function knownCodes(): string[] {
  const tables: Readonly<Record<string, unknown>>[] = [
    maritalStatusLabels,
    prayerPracticeLabels,
    soughtPracticeLabels,
    regionLabels,
    professionalSituationLabels,
    genderLabels,
    planLabels,
    offerLabels,
    paymentStatusLabels,
    checkoutStatusLabels,
    bookingStatusLabels,
    stateLabels,
    eventLabels,
    contextSentences,
  ];
  const codes = new Set<string>([...tables.flatMap((t) => Object.keys(t)), ...stateKeys(), ...Object.values(eventTypes)]);
  for (const field of [...profileFields, ...questionnaireFields, ...contractFields]) codes.add(field.key);
  for (const code of ['contractForm', 'plan_serenity_month', 'cs_test_1', 'canceled', 'no_payment_required']) codes.add(code);
  return [...codes].filter((code) => !FRENCH_WORDS.has(code));
}

function leakedCodes(text: string): string[] {
  return knownCodes().filter((code) => {
    const escaped = code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?<![\\p{L}\\p{N}_-])${escaped}(?![\\p{L}\\p{N}_-])`, 'u').test(text);
  });
}

describe('the dashboard member page speaks French (issue 21)', () => {
  // The three tabs that read the member's file (decision 209), one after the other.
  const html = renderToStaticMarkup(
    <>
      <ProfileTab detail={fullMember()} now={NOW} onReload={async () => {}} />
      <ContractTab detail={fullMember()} now={NOW} onReload={async () => {}} isAdministration={false} />
      <HistoryTab detail={fullMember()} />
    </>,
  );
  const text = textOf(html);

  it('shows no stored code, only its label', () => {
    expect(knownCodes().length).toBeGreaterThan(80);
    expect(leakedCodes(text)).toEqual([]);
  });

  it('would catch a code shown raw (the check itself works)', () => {
    expect(leakedCodes('Offre : file_fee')).toEqual(['file_fee']);
    expect(leakedCodes('De prendre-un-rendez-vous.confirmation → attente-entretien-personnalise')).toEqual(
      expect.arrayContaining(['prendre-un-rendez-vous.confirmation', 'attente-entretien-personnalise']),
    );
    expect(leakedCodes('RECORD_ONBOARDING_MEETING par celibataire')).toEqual(
      expect.arrayContaining(['RECORD_ONBOARDING_MEETING', 'celibataire']),
    );
  });

  it('reads the answers through the label table, dates and amounts in fr-FR', () => {
    for (const expected of [
      'Célibataire',
      'Les cinq prières quotidiennes',
      '17 avril 1992 (34 ans)',
      '06 12 34 56 78',
      'Île-de-France, Provence-Alpes-Côte d’Azur, Étranger',
      'Célibataire, Divorcé(e), Veuf / veuve',
      'En apprentissage',
      'Peu importe',
      '30 ans',
      'Sérénité, 12 mois en 12 mensualités',
      'Oui : commencer avant la fin du délai de 14 jours',
      'Femme',
      'Frais de dossier',
      'Payé (code avantage, 0 €)',
      'Non payé',
      '85,00 €',
      '169,00 €',
      'Horizon, 6 mois réglés en une fois (−10 %)',
      '18 nov. 2026 à 15 h 00 — annulé (reporté)',
      '20 nov. 2026 à 15 h 00 — confirmé',
      'Contrat et conditions acceptés',
      'Étape actuelle : Contrat — Signature',
    ])
      expect(text).toContain(expected);
  });

  it('tells the history as sentences with actor and date, and step changes by name', () => {
    expect(text).toContain(
      'Historique Entretien personnalisé validé par Nadia, 24 nov. 2026 à 11 h 30 De « Entretien personnalisé » à « Contrat — Formulaire du contrat »',
    );
    expect(text).toMatch(/par l’équipe, 24 nov\. 2026 à 11 h 30/);
    expect(text).toMatch(/par le membre, 24 nov\. 2026 à 11 h 30/);
    expect(text).toMatch(/automatiquement, 24 nov\. 2026 à 11 h 30/);
    expect(text).toContain('Formule choisie : Sérénité, 12 mois en 12 mensualités');
    expect(text).toContain('Compte réactivé');
    expect(text).toMatch(/De « [^»]+ » à « [^»]+ »/);
    expect(text).not.toContain('Événement inconnu');
    expect(text).not.toContain('Étape inconnue');
    const items = timeline([
      {
        id: 1,
        at: AT,
        context: 'onb_meet_resa',
        event: 'RESERVE_MEETING',
        outcome: true,
        fromState: 'prendre-un-rendez-vous.confirmation',
        toState: 'attente-entretien-personnalise',
        actorRole: 'system',
      },
    ]);
    expect(items[0]?.stateChange).toBe('De « Prise de rendez-vous — Confirmation du rendez-vous » à « Entretien personnalisé »');
  });

  it('puts the answers in a fixed order: identity, contact, situation, practice; then the criteria', () => {
    const profile = profileRows(fullMember().profile, NOW)?.map((row) => row.label) ?? [];
    expect(profile.slice(0, 4)).toEqual(['Prénom', 'Nom', 'Date de naissance', 'Téléphone']);
    expect(profile.indexOf('Situation familiale')).toBeLessThan(profile.indexOf('Pratique de la prière'));
    const criteria = questionnaireRows(fullMember().questionnaire, NOW)?.map((row) => row.label) ?? [];
    expect(criteria[0]).toBe('Âge minimum');
    expect(criteria.at(-1)).toBe('Autres qualités essentielles');
    expect(text.indexOf('Prénom')).toBeLessThan(text.indexOf('Pratique de la prière'));
  });

  it('marks cancelling actions as destructive', () => {
    expect(html).toMatch(/<button[^>]*data-danger="true"[^>]*>Annuler le rendez-vous<\/button>/);
    expect(html).not.toMatch(/<button[^>]*data-danger="true"[^>]*>Entretien de rapprochement effectué<\/button>/);
  });

  it('formats dates for France', () => {
    expect(formatDateTime('2026-07-01T07:05:00Z')).toBe('1er juil. 2026 à 9 h 05');
    expect(formatBirthDate('1992-11-25', NOW)).toBe('25 novembre 1992 (33 ans)');
  });
});
