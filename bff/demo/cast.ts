import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import type { PlanId } from '#machines/onboarding/plans.ts';
import { emptyRecord, type Gender, type OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * The demo agency's cast (decision 207): who each member is, how far they went, and their
 * onboarding record, profile and questionnaire for that stage. Seeded by `agency.ts`.
 */

const DOMAIN = 'demo.union-sincere.fr';
export const HOUR_MS = 3_600_000;

/** The demo members who can sign in, as the README's table and the start's log name them. */
export const DEMO_AGENCY_ACCOUNTS = [
  {
    label: 'Membre active avec mises en relation',
    email: `salma@${DOMAIN}`,
    password: 'jasmin-horizon-2026',
  },
  {
    label: 'Membre actif avec mises en relation',
    email: `karim@${DOMAIN}`,
    password: 'amande-sextant-2026',
  },
] as const;

/** How far each member went: the onboarding step reached, or what became of the contract. */
export type Stage =
  | 'profil'
  | 'questionnaire'
  | 'formules'
  | 'informations'
  | 'rendez-vous'
  | 'rendez-vous-choisi'
  | 'entretien'
  | 'contrat-formulaire'
  | 'contrat-signature'
  | 'renonciation-en-cours'
  | 'frais'
  | 'retractation-en-cours'
  | 'entretien-matchmaking'
  | 'actif'
  | 'resiliation-demandee'
  | 'renonce'
  | 'retracte'
  | 'resilie'
  | 'termine'
  | 'desactive';

export interface CastMember {
  firstName: string;
  gender: Gender;
  stage: Stage;
  /** Days between the signature and now (stages from the contract on). */
  signedDaysAgo?: number;
  plan?: PlanId;
  /** The onboarding (or matchmaking) meeting, in hours from now. */
  meetingInHours?: number;
  /** A failed instalment among the paid ones. */
  failedInstalment?: boolean;
  counsellor?: boolean;
  city: [string, string];
  age: number;
  profession: string;
}

export const LEVEL: Record<Stage, number> = {
  profil: 0,
  questionnaire: 1,
  formules: 2,
  informations: 3,
  'rendez-vous': 4,
  'rendez-vous-choisi': 4,
  entretien: 5,
  'contrat-formulaire': 6,
  'contrat-signature': 7,
  'renonciation-en-cours': 8,
  frais: 8,
  'retractation-en-cours': 10,
  'entretien-matchmaking': 10,
  actif: 11,
  'resiliation-demandee': 11,
  renonce: 8,
  retracte: 10,
  resilie: 11,
  termine: 11,
  desactive: 11,
};

const PARIS: [string, string] = ['75011', 'Paris'];
const LYON: [string, string] = ['69003', 'Lyon'];
const LILLE: [string, string] = ['59000', 'Lille'];
const MARSEILLE: [string, string] = ['13005', 'Marseille'];
const TOULOUSE: [string, string] = ['31000', 'Toulouse'];
const SAINT_DENIS: [string, string] = ['93200', 'Saint-Denis'];

const f = (firstName: string, stage: Stage, rest: Partial<CastMember> = {}): CastMember => ({
  firstName,
  gender: 'femme',
  stage,
  city: PARIS,
  age: 29,
  profession: 'Infirmière',
  ...rest,
});
const m = (firstName: string, stage: Stage, rest: Partial<CastMember> = {}): CastMember => ({
  firstName,
  gender: 'homme',
  stage,
  city: PARIS,
  age: 32,
  profession: 'Ingénieur',
  ...rest,
});

/** The cast, in order of the chart. The first active woman and man are the sign-in accounts. */
export const CAST: readonly CastMember[] = [
  f('Hajar', 'profil', { age: 26 }),
  m('Walid', 'profil', { city: LILLE }),
  f('Zineb', 'questionnaire', { city: LYON, profession: 'Enseignante' }),
  m('Anis', 'questionnaire', { age: 35, profession: 'Comptable' }),
  f('Souad', 'formules', { age: 38, city: MARSEILLE, profession: 'Pharmacienne' }),
  m('Tarek', 'formules', { city: TOULOUSE }),
  f('Lina', 'informations', { plan: 'plan_horizon_month', age: 24, profession: 'Étudiante' }),
  m('Yanis', 'informations', { plan: 'plan_serenity_year', city: SAINT_DENIS }),
  f('Samia', 'rendez-vous', { plan: 'plan_serenity_month', city: LYON }),
  m('Farid', 'rendez-vous-choisi', { plan: 'plan_horizon_year', age: 41, meetingInHours: 50, profession: 'Commerçant' }),
  f('Rania', 'entretien', { plan: 'plan_serenity_month', meetingInHours: -20, counsellor: true }),
  m('Ismaël', 'entretien', { plan: 'plan_horizon_month', meetingInHours: 3, counsellor: true }),
  f('Asma', 'entretien', { plan: 'plan_serenity_year', meetingInHours: 26, city: SAINT_DENIS }),
  m('Malik', 'entretien', { plan: 'plan_serenity_month', meetingInHours: 74, city: LYON, profession: 'Artisan' }),
  f('Naïma', 'contrat-formulaire', { plan: 'plan_horizon_year', age: 33, counsellor: true }),
  m('Zakaria', 'contrat-signature', { plan: 'plan_serenity_month', age: 30 }),
  f('Farah', 'renonciation-en-cours', { plan: 'plan_serenity_month', signedDaysAgo: 3, city: LILLE }),
  m('Idriss', 'frais', { plan: 'plan_horizon_year', signedDaysAgo: 12, age: 37 }),
  f('Meryem', 'retractation-en-cours', { plan: 'plan_serenity_year', signedDaysAgo: 10, counsellor: true }),
  m('Hamza', 'entretien-matchmaking', { plan: 'plan_horizon_month', signedDaysAgo: 21, meetingInHours: 27, counsellor: true }),
  f('Salma', 'actif', { plan: 'plan_serenity_month', signedDaysAgo: 95, age: 28, counsellor: true, profession: 'Sage-femme' }),
  m('Karim', 'actif', { plan: 'plan_serenity_year', signedDaysAgo: 80, age: 31, counsellor: true }),
  f('Amira', 'actif', { plan: 'plan_horizon_month', signedDaysAgo: 70, city: LYON, profession: 'Enseignante' }),
  m('Mehdi', 'actif', { plan: 'plan_serenity_month', signedDaysAgo: 130, age: 34, failedInstalment: true, counsellor: true }),
  f('Sarah', 'actif', { plan: 'plan_serenity_year', signedDaysAgo: 60, age: 27, city: SAINT_DENIS }),
  m('Bilal', 'actif', { plan: 'plan_horizon_year', signedDaysAgo: 55, age: 29, city: SAINT_DENIS, profession: 'Commercial' }),
  f('Myriam', 'actif', { plan: 'plan_serenity_month', signedDaysAgo: 110, age: 33, profession: 'Avocate' }),
  m('Ilyes', 'actif', { plan: 'plan_serenity_year', signedDaysAgo: 150, age: 36, city: LYON, profession: 'Médecin' }),
  f('Nadia', 'actif', { plan: 'plan_serenity_year', signedDaysAgo: 90, age: 35, city: MARSEILLE, profession: 'Comptable' }),
  m('Samir', 'actif', { plan: 'plan_horizon_month', signedDaysAgo: 65, age: 38, city: MARSEILLE, profession: 'Chauffeur' }),
  f('Leïla', 'actif', { plan: 'plan_serenity_month', signedDaysAgo: 75, age: 30, counsellor: true, profession: 'Graphiste' }),
  m('Adam', 'actif', { plan: 'plan_serenity_year', signedDaysAgo: 100, age: 30, profession: 'Développeur' }),
  f('Inès', 'actif', { plan: 'plan_horizon_year', signedDaysAgo: 50, age: 25, city: TOULOUSE, profession: 'Étudiante' }),
  m('Nassim', 'actif', { plan: 'plan_serenity_month', signedDaysAgo: 85, age: 33, city: TOULOUSE, profession: 'Infirmier' }),
  f('Yasmine', 'actif', { plan: 'plan_serenity_year', signedDaysAgo: 120, age: 32, profession: 'Architecte' }),
  m('Rayan', 'actif', { plan: 'plan_horizon_month', signedDaysAgo: 58, age: 27, failedInstalment: true, profession: 'Technicien' }),
  f('Khadija', 'resiliation-demandee', { plan: 'plan_serenity_year', signedDaysAgo: 140, age: 40, counsellor: true }),
  m('Omar', 'renonce', { plan: 'plan_serenity_month', signedDaysAgo: 4, age: 45, city: LILLE }),
  f('Imane', 'retracte', { plan: 'plan_serenity_year', signedDaysAgo: 13, age: 31, city: LYON }),
  m('Sofiane', 'resilie', { plan: 'plan_serenity_month', signedDaysAgo: 125, age: 39 }),
  f('Lamia', 'termine', { plan: 'plan_horizon_year', signedDaysAgo: 200, age: 34, city: TOULOUSE }),
  m('Jamel', 'desactive', { plan: 'plan_horizon_month', signedDaysAgo: 90, age: 43 }),
];

function slug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Each cast member's address: the first name, or the documented sign-in account. */
export function emailOf(member: CastMember): string {
  return `${slug(member.firstName)}@${DOMAIN}`;
}

export function signInPassword(email: string): string | undefined {
  return DEMO_AGENCY_ACCOUNTS.find((a) => a.email === email)?.password;
}

export const STREETS = [
  'rue des Lilas',
  'avenue Jean-Jaurès',
  'rue Victor-Hugo',
  'boulevard Voltaire',
  'rue de la République',
  'allée des Tilleuls',
];
const LAST_NAMES = ['Benali', 'Haddad', 'Mansouri', 'Cherif', 'Belkacem', 'Diallo', 'Ouali', 'Rahmani', 'Kaci', 'Nour'];
const QUALITIES = [
  'Sérieux, bienveillant et attaché à la famille.',
  'Quelqu’un de patient, qui aime voyager et apprendre.',
  'Une personne droite, douce et pratiquante.',
  'Le sens de l’humour et le goût des choses simples.',
];

export interface Built {
  record: OnboardingRecord;
  profile: Record<string, unknown> | null;
  questionnaire: Record<string, unknown> | null;
  /** The signature, payment and activation instants (ms), when reached. */
  signedAt: number | null;
  paidAt: number | null;
}

/** The member's onboarding record, profile and questionnaire for their stage, at `now`. */
export function build(member: CastMember, index: number, id: string, email: string, now: number): Built {
  const level = LEVEL[member.stage];
  const signedAt = level >= 8 ? now - (member.signedDaysAgo ?? 30) * DAY_MS : null;
  const paidAt = signedAt !== null && level >= 10 ? deadlinesOfSignature(signedAt).paymentOpensAtMs + 2 * HOUR_MS : null;
  const meetingAt =
    member.meetingInHours !== undefined && level <= 5
      ? now + member.meetingInHours * HOUR_MS
      : signedAt !== null
        ? signedAt - 2 * DAY_MS
        : now - 2 * DAY_MS;
  const startedAt = signedAt ?? now - (4 + (index % 5)) * DAY_MS;
  const record: OnboardingRecord = {
    ...emptyRecord(id, email, member.gender),
    profileCompleted: level >= 1,
    sensitiveDataConsentAt: level >= 1 ? toIsoInstant(startedAt - 20 * DAY_MS) : null,
    questionnaireCompleted: level >= 2,
    formPersonnalInfoCompleted: level >= 2,
    selectedPlanId: level >= 3 ? (member.plan ?? 'plan_serenity_year') : null,
    renouncedWithdrawalRight: level >= 3 ? false : null,
    preContractInfoAcknowledged: level >= 4,
    onboardingMeetingDateSelected: level >= 5 || member.stage === 'rendez-vous-choisi',
    onboardingMeetingReserved: level >= 5,
    onboardingMeetingDate: level >= 5 || member.stage === 'rendez-vous-choisi' ? toIsoInstant(meetingAt) : null,
    onboardingMeetingDone: level >= 6,
    subscriptionContractFormCompleted: level >= 7,
    subscriptionDate: signedAt === null ? null : toIsoInstant(signedAt),
    applicationFeesPaid: level >= 10,
    subscriptionFeesPaid: level >= 10,
    matchmakingMeetingDone: level >= 11,
  };
  if (member.stage === 'renonce' && signedAt !== null) record.contractRenouncedAt = toIsoInstant(signedAt + 2 * DAY_MS);
  if (member.stage === 'retracte') record.contractWithdrawnAt = toIsoInstant(now - 2 * DAY_MS);
  if (member.stage === 'resiliation-demandee') record.terminationRequestedAt = toIsoInstant(now - 10 * DAY_MS);
  if (member.stage === 'resilie') {
    record.terminationRequestedAt = toIsoInstant(now - 30 * DAY_MS);
    record.terminatedAt = toIsoInstant(now - 20 * DAY_MS);
  }
  if (member.stage === 'desactive') record.disabled = true;
  const birthYearMs = now - (member.age * 365.25 + 40 + index * 7) * DAY_MS;
  const profile =
    level >= 1
      ? {
          firstName: member.firstName,
          lastName: LAST_NAMES[index % LAST_NAMES.length] as string,
          birthDate: toIsoInstant(birthYearMs).slice(0, 10),
          phone: `+336${String(12_000_000 + index * 104_729).padStart(8, '0')}`,
          postcode: member.city[0],
          city: member.city[1],
          maritalStatus: index % 4 === 3 ? 'divorce' : 'celibataire',
          childrenCount: 0,
          profession: member.profession,
          prayerPractice: index % 3 === 0 ? 'cinq-prieres' : 'reguliere',
          practiceDetails: '',
          sensitiveDataConsent: true,
        }
      : null;
  const questionnaire =
    level >= 2
      ? {
          soughtPractice: 'indifferent',
          soughtAgeMin: 22,
          soughtAgeMax: 50,
          soughtRegions: ['indifferent'],
          soughtFamilySituations: ['celibataire', 'divorce', 'veuf'],
          acceptsChildren: true,
          soughtProfessionalSituation: 'indifferent',
          wantsChildren: 'oui',
          readyToRelocate: index % 2 === 0,
          requiredCriteria: [],
          otherQualities: QUALITIES[index % QUALITIES.length] as string,
        }
      : null;
  return { record, profile, questionnaire, signedAt, paidAt };
}
