import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import type { PlanId } from '#machines/onboarding/plans.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { parisDayOf } from '#machines/paris-time.ts';
import type { OnboardingStateValue } from '#machines/onboarding/steps.ts';
import type { ContextName } from '#machines/onboarding/update-contexts.ts';

/**
 * Sample request bodies of `POST /api/v1/user/update` and the canonical happy path
 * from a new member to an active member, for the BFF tests and the Playwright walk.
 * Bodies are raw (as a form would post them: e.g. a phone number with spaces);
 * `parseUpdate` normalises them.
 */

export interface Member {
  id: string;
  email: string;
  gender: Gender;
}

const HOUR_MS = 60 * 60 * 1000;

/** Valid raw bodies for each context, for this member at this time. */
export function samplePayloads(member: Member, now: number) {
  return {
    profil: {
      context: 'profil',
      firstName: 'Amina',
      lastName: 'Benali',
      birthDate: '1992-04-17',
      phone: '06 12 34 56 78',
      postcode: '69003',
      city: 'Lyon',
      maritalStatus: 'celibataire',
      childrenCount: 0,
      profession: 'Infirmière',
      prayerPractice: 'cinq-prieres',
      practiceDetails: 'Je porte le voile et je suis des cours de tajwid.',
      sensitiveDataConsent: true,
    },
    questionnaire: {
      context: 'questionnaire',
      soughtPractice: 'cinq-prieres',
      soughtAgeMin: 30,
      soughtAgeMax: 40,
      soughtRegions: ['auvergne-rhone-alpes', 'ile-de-france'],
      soughtFamilySituations: ['celibataire', 'divorce'],
      acceptsChildren: true,
      soughtProfessionalSituation: 'emploi-stable',
      wantsChildren: 'oui',
      readyToRelocate: false,
      requiredCriteria: ['age', 'pratique'],
      otherQualities: 'Une personne bienveillante, patiente et attachée à la famille.',
    },
    form_per_inf: { context: 'form_per_inf', completed: true },
    sel_plan: { context: 'sel_plan', id: 'plan_serenity_month', renounce: false },
    sel_plan_res: { context: 'sel_plan_res' },
    coupon: { context: 'coupon', code: 'BIENVENUE' },
    app: { context: 'app', email: member.email, csid: 'cs_test_file_fee_0001' },
    pre_contract_ok: { context: 'pre_contract_ok', acknowledged: true },
    onb_meet: { context: 'onb_meet', date: toIsoInstant(now + 2 * DAY_MS) },
    onb_meet_resa: { context: 'onb_meet_resa', status: true, uid: member.id },
    onb_meet_cancel: { context: 'onb_meet_cancel', uid: member.id },
    onb_meet_ok: { context: 'onb_meet_ok', status: true, uid: member.id },
    contractForm: {
      context: 'contractForm',
      contractForm: true,
      fullName: 'Amina Benali',
      address: '12 rue de la République',
      postcode: '69003',
      city: 'Lyon',
      signature: 'Amina Benali',
      termsAccepted: true,
    },
    sub_date: { context: 'sub_date', subDate: toIsoInstant(now) },
    sub: { context: 'sub', email: member.email, csid: 'cs_test_subscription_0001' },
    meeting_mm: { context: 'meeting_mm', uid: member.id },
    lmnop: { context: 'lmnop', uid: member.id },
    renounce: { context: 'renounce', confirm: true },
    withdraw: { context: 'withdraw', confirm: true },
    renew: { context: 'renew' },
    terminate: { context: 'terminate', reason: 'demenagement', explanation: 'Je pars vivre à l’étranger pour mon travail.' },
    // A letter received the day before (decision 189).
    terminate_letter: {
      context: 'terminate_letter',
      uid: member.id,
      receivedOn: parisDayOf(now - DAY_MS),
      reason: 'changement-situation-matrimoniale',
      explanation: 'Courrier du membre\u00a0: mariage célébré le mois dernier.',
    },
    terminate_ok: { context: 'terminate_ok', uid: member.id },
    terminate_no: { context: 'terminate_no', uid: member.id, reason: 'Le justificatif ne montre pas de déménagement.' },
  } satisfies { [C in ContextName]: { context: C } & Record<string, unknown> };
}

export interface HappyPathStep {
  context: ContextName;
  /** Raw request body. */
  body: Record<string, unknown> & { context: ContextName };
  /** Server time (ms) at which to send it: the Playwright walk moves the BFF's clock. */
  now: number;
  /** Who sends it: the member's session, staff (aal2), or a webhook handler on the server. */
  sender: 'member' | 'staff';
  /** The chart's state once it is accepted. */
  stateAfter: OnboardingStateValue;
}

export interface HappyPathOptions {
  /** When the member starts (ms). */
  start: number;
  planId?: PlanId;
  /** Renounce the 14-day wait (the matchmaking meeting can follow the payment at once). */
  renounce?: boolean;
}

/**
 * The canonical happy path (decision 105): profile, questionnaire, plan, pre-contract
 * information, booking, onboarding meeting (two days later), contract and signature,
 * then, as payment opens (00:00 Paris after the 7-day renunciation period, civil days, decision
 * 165), the file fee and the subscription (no money before, L224-91), then the matchmaking
 * meeting (as the 14-day withdrawal period ends, or at once when the member renounced).
 */
export function happyPath(member: Member, options: HappyPathOptions): HappyPathStep[] {
  const { start, planId = 'plan_serenity_month', renounce = false } = options;
  const meetingAt = start + 2 * DAY_MS;
  const signedAt = meetingAt + HOUR_MS;
  const deadlines = deadlinesOfSignature(signedAt);
  const paidAt = deadlines.paymentOpensAtMs;
  const activeAt = renounce ? paidAt : deadlines.withdrawal.endsAtMs;
  const at = (now: number) => samplePayloads(member, now);

  return [
    { context: 'profil', body: at(start).profil, now: start, sender: 'member', stateAfter: 'questionnaire-profil' },
    {
      context: 'questionnaire',
      body: at(start).questionnaire,
      now: start,
      sender: 'member',
      stateAfter: 'questionnaire-profil',
    },
    { context: 'form_per_inf', body: at(start).form_per_inf, now: start, sender: 'member', stateAfter: 'formules' },
    {
      context: 'sel_plan',
      body: { context: 'sel_plan', id: planId, renounce },
      now: start,
      sender: 'member',
      stateAfter: 'informations-et-tarifs',
    },
    {
      context: 'pre_contract_ok',
      body: at(start).pre_contract_ok,
      now: start,
      sender: 'member',
      stateAfter: { 'prendre-un-rendez-vous': 'choix-creneau' },
    },
    {
      context: 'onb_meet',
      body: { context: 'onb_meet', date: toIsoInstant(meetingAt) },
      now: start,
      sender: 'member',
      stateAfter: { 'prendre-un-rendez-vous': 'confirmation' },
    },
    {
      context: 'onb_meet_resa',
      body: at(start).onb_meet_resa,
      now: start,
      sender: 'member',
      stateAfter: 'attente-entretien-personnalise',
    },
    {
      context: 'onb_meet_ok',
      body: at(signedAt).onb_meet_ok,
      now: signedAt,
      sender: 'staff',
      stateAfter: { 'attente-contrat': 'formulaire-contrat' },
    },
    {
      context: 'contractForm',
      body: at(signedAt).contractForm,
      now: signedAt,
      sender: 'member',
      stateAfter: { 'attente-contrat': 'signature' },
    },
    {
      context: 'sub_date',
      body: at(signedAt).sub_date,
      now: signedAt,
      sender: 'member',
      stateAfter: { 'attente-contrat': 'delai-renonciation' },
    },
    { context: 'app', body: at(paidAt).app, now: paidAt, sender: 'member', stateAfter: 'frais-de-dossier' },
    {
      context: 'sub',
      body: at(paidAt).sub,
      now: paidAt,
      sender: 'member',
      stateAfter: { attente: renounce ? 'entretien-matchmaking' : 'delai-retractation' },
    },
    { context: 'meeting_mm', body: at(activeAt).meeting_mm, now: activeAt, sender: 'staff', stateAfter: 'membre-actif' },
  ];
}
