import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { eq } from 'drizzle-orm';
import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { memberCounsellors } from '#bff/db/follow-up-schema.ts';
import { contactMessages, leadFollowUps } from '#bff/db/leads-schema.ts';
import { directMessages } from '#bff/db/messages-schema.ts';
import { checkoutSessions, members, onboardingEvents, preSubscriptions, settings } from '#bff/db/schema.ts';
import { avatarPng } from '#bff/demo/avatar.ts';
import { applyIntroductionEvent, type IntroductionActor, proposeIntroduction } from '#bff/introductions/introductions.ts';
import { invoiceRecordedPayment } from '#bff/invoices/invoices.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { ensureContract, recordContractStop } from '#bff/payments/contract-ledger.ts';
import { recordInstalmentEvent } from '#bff/payments/instalments.ts';
import { executePendingRefunds, recordTerminationRefunds, recordWithdrawalRefunds, standInRefundGateway } from '#bff/payments/refunds.ts';
import { addPhoto, processPhoto } from '#bff/photos/member-photos.ts';
import { storeSignedContract } from '#bff/privacy/contract-copy.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { expectedAmountCents, type PlanId, planById } from '#machines/onboarding/plans.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { PRIVACY_POLICY_VERSION } from '#machines/public-site/public-forms.ts';
import { emptyRecord, type Gender, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';

/**
 * The demo agency (issue 63, decision 207): about forty members at every step of the onboarding
 * and every end of a contract, with their match profiles, generated pictures (shapes and an
 * initial, never a face), payments and instalments with their invoices, refunds with their credit
 * notes, introductions in each state, leads, messages and the week's meetings. Seeded once per
 * data folder (the `settings` key below), in embedded mode only, never in production.
 *
 * The ledger, the introductions and the photos go through the product's own functions (the ones
 * the routes and webhooks call), so that every rule and trigger holds; what only a person's
 * clicks would write over weeks (the onboarding record of each step, a booking, a contact
 * message) is written as those routes write it. Everything is dated in the past of the agency's
 * clock, except the week's meetings.
 */

const DEMO_AGENCY_KEY = 'demo-agency';
const DEMO_AGENCY_VERSION = 1;
const DOMAIN = 'demo.union-sincere.fr';
const HOUR_MS = 3_600_000;

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
type Stage =
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

interface CastMember {
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

const LEVEL: Record<Stage, number> = {
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
function emailOf(member: CastMember): string {
  return `${slug(member.firstName)}@${DOMAIN}`;
}

function signInPassword(email: string): string | undefined {
  return DEMO_AGENCY_ACCOUNTS.find((a) => a.email === email)?.password;
}

const STREETS = [
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

interface Built {
  record: OnboardingRecord;
  profile: Record<string, unknown> | null;
  questionnaire: Record<string, unknown> | null;
  /** The signature, payment and activation instants (ms), when reached. */
  signedAt: number | null;
  paidAt: number | null;
}

/** The member's onboarding record, profile and questionnaire for their stage, at `now`. */
function build(member: CastMember, index: number, id: string, email: string, now: number): Built {
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

export interface DemoAgencyReport {
  seeded: boolean;
  members: number;
  ms: number;
}

interface Seeding {
  admin: SupabaseClient;
  db: Db;
  config: Config;
  now: number;
  staffId: string;
}

/** The three demo accounts' staff account, or the first administrator: the one who « did » the staff's part. */
async function staffIdOf(db: Db, email: string): Promise<string | null> {
  const [row] = await db.select({ id: members.id }).from(members).where(eq(members.email, email)).limit(1);
  return row?.id ?? null;
}

/**
 * Seeds the demo agency once per data folder. A second call (every later start) reads one
 * settings row and returns. `staffEmail` is the demo administrator (created before, by `seedDemo`),
 * `counsellorEmail` the demo counsellor, to whom some members are assigned.
 */
export async function seedDemoAgency(
  admin: SupabaseClient,
  db: Db,
  config: Config,
  input: { now: Date; staffEmail: string; counsellorEmail: string },
): Promise<DemoAgencyReport> {
  const started = performance.now();
  const [marker] = await db.select().from(settings).where(eq(settings.key, DEMO_AGENCY_KEY)).limit(1);
  if (marker) return { seeded: false, members: 0, ms: Math.round(performance.now() - started) };
  const staffId = await staffIdOf(db, input.staffEmail);
  const counsellorId = await staffIdOf(db, input.counsellorEmail);
  if (!staffId || !counsellorId) throw new Error('agence de démonstration : comptes de l’équipe introuvables');
  const now = input.now.getTime();
  const seeding: Seeding = { admin, db, config, now, staffId };

  // The accounts (auth user and member row), a few at a time: their password hashes overlap.
  const ids: string[] = [];
  const created: boolean[] = [];
  const BATCH = 6;
  for (let start = 0; start < CAST.length; start += BATCH) {
    const batch = CAST.slice(start, start + BATCH);
    const accounts = await Promise.all(
      batch.map((member) => {
        const email = emailOf(member);
        const password = signInPassword(email) ?? randomBytes(18).toString('base64url');
        return ensureAccount(admin, db, { email, password, kind: member.gender });
      }),
    );
    for (const account of accounts) {
      ids.push(account.id);
      created.push(account.created);
    }
  }

  // Each member's record, events, contract, payments, photos: members independent of each other.
  const pictures: Promise<unknown>[] = [];
  for (const [index, member] of CAST.entries()) {
    const id = ids[index] as string;
    // A start stopped half-way: a member already made keeps what they have.
    if (!created[index]) continue;
    await seedMember(seeding, member, index, id);
    if (LEVEL[member.stage] >= 2) pictures.push(addAvatar(db, member, index, id, now));
  }
  await Promise.all(pictures);

  // The counsellor's members.
  const assigned = CAST.flatMap((member, index) =>
    member.counsellor && created[index] ? [{ memberId: ids[index] as string, counsellorId, assignedAt: new Date(now - 30 * DAY_MS) }] : [],
  );
  if (assigned.length > 0) await db.insert(memberCounsellors).values(assigned).onConflictDoNothing();

  const byName = new Map(CAST.map((member, index) => [member.firstName, ids[index] as string]));
  if (created.every(Boolean)) {
    await seedIntroductions(seeding, byName);
    await seedLeads(db, now);
    await seedPreRegistrations(db, now, ids);
    await seedMessages(db, now, staffId, byName);
  }
  await db
    .insert(settings)
    .values({ key: DEMO_AGENCY_KEY, value: DEMO_AGENCY_VERSION })
    .onConflictDoUpdate({ target: settings.key, set: { value: DEMO_AGENCY_VERSION, updatedAt: new Date() } });
  return { seeded: true, members: CAST.length, ms: Math.round(performance.now() - started) };
}

/** When the member opened their account: weeks before the signature, or days ago for the steps before it. */
function signedUpAt(member: CastMember, index: number, signedAt: number | null, now: number): Date {
  const before = signedAt !== null ? signedAt - (18 + (index % 9)) * DAY_MS : now - (LEVEL[member.stage] * 3 + (index % 4)) * DAY_MS;
  return new Date(before - ((index * 7) % 10) * HOUR_MS - ((index * 13) % 60) * 60_000);
}

/** Pre-registrations (the site's first form): every other member came through one, and three never opened an account. */
async function seedPreRegistrations(db: Db, now: number, ids: readonly string[]): Promise<void> {
  const came = CAST.flatMap((member, index) => {
    if (index % 2 === 1) return [];
    const createdAt = new Date(signedUpAt(member, index, null, now).getTime() - 2 * DAY_MS);
    return [
      {
        gender: member.gender,
        email: emailOf(member),
        age: member.age,
        zipCode: member.city[0],
        city: member.city[1],
        consentVersion: PRIVACY_POLICY_VERSION,
        createdAt,
        memberId: ids[index] as string,
        convertedAt: new Date(createdAt.getTime() + DAY_MS),
      },
    ];
  });
  const strangers = [
    ['femme', 'houda.benyahia@exemple.fr', 27, '92100', 'Boulogne-Billancourt'],
    ['homme', 'slimane.ferhat@exemple.fr', 34, '69100', 'Villeurbanne'],
    ['femme', 'aya.toure@exemple.fr', 23, '33000', 'Bordeaux'],
  ] as const;
  await db.insert(preSubscriptions).values([
    ...came,
    ...strangers.map(([gender, email, age, zipCode, city], i) => ({
      gender,
      email,
      age,
      zipCode,
      city,
      consentVersion: PRIVACY_POLICY_VERSION,
      createdAt: new Date(now - (i + 1) * DAY_MS - 5 * HOUR_MS),
    })),
  ]);
}

async function seedMember(s: Seeding, member: CastMember, index: number, id: string): Promise<void> {
  const { db, config, now } = s;
  const email = emailOf(member);
  const built = build(member, index, id, email, now);
  const { record, signedAt, paidAt } = built;
  const state = stateKey(stateFromRecord(record, now));
  // The contract form (step 7), as the member fills it in: their name, a street and their signature.
  const fullName = built.profile ? `${built.profile.firstName} ${built.profile.lastName}` : member.firstName;
  const contract =
    LEVEL[member.stage] >= 7
      ? {
          fullName,
          address: `${3 + ((index * 7) % 90)} ${STREETS[index % STREETS.length]}`,
          postcode: member.city[0],
          city: member.city[1],
          signature: fullName,
          termsAccepted: true,
        }
      : null;
  await db
    .update(members)
    .set({
      onboarding: record,
      profile: built.profile,
      questionnaire: built.questionnaire,
      contract,
      disabled: record.disabled,
      version: contract ? 2 : 1,
      createdAt: signedUpAt(member, index, signedAt, now),
    })
    .where(eq(members.id, id));
  // The contract form's event: the contract's PDF is dated by it.
  if (contract)
    await db.insert(onboardingEvents).values({
      memberId: id,
      context: 'contractForm',
      event: 'demo',
      payload: {},
      fromState: 'attente-contrat.formulaire-contrat',
      toState: 'attente-contrat.signature',
      actorId: id,
      actorRole: 'member',
      version: 1,
      createdAt: new Date((signedAt ?? now - DAY_MS) - 3 * HOUR_MS),
    });
  // The member's latest step, as the log of accepted events records it (their next event takes the next version).
  await db.insert(onboardingEvents).values({
    memberId: id,
    context: 'demo',
    event: 'demo',
    payload: {},
    fromState: 'profil',
    toState: state,
    actorRole: 'staff',
    version: contract ? 2 : 1,
    createdAt: new Date(Math.min(now - HOUR_MS, (signedAt ?? now - 3 * DAY_MS) + 16 * DAY_MS)),
  });

  // The week's meetings: the onboarding meeting booked, or the matchmaking one.
  if (member.meetingInHours !== undefined && (member.stage === 'entretien' || member.stage === 'entretien-matchmaking')) {
    const start = now + member.meetingInHours * HOUR_MS;
    await db.insert(bookings).values({
      inviteeUri: `${config.publicSiteUrl}/_local/booking/demo/${id}`,
      memberId: id,
      eventUri: `${config.publicSiteUrl}/_local/booking/demo-event/${id}`,
      startTime: new Date(start),
      endTime: new Date(start + 45 * 60_000),
      status: 'active',
      inviteeEmail: email,
      inviteeName: member.firstName,
      kind: member.stage === 'entretien' ? 'entretien-personnalise' : 'entretien-matchmaking',
      bookedAt: new Date(now - 3 * DAY_MS),
      createdAt: new Date(now - 3 * DAY_MS),
      updatedAt: new Date(now - 3 * DAY_MS),
    });
  }

  if (signedAt === null) return;
  const contractId = await ensureContract(db, id, record, new Date(signedAt));
  // The signed copy handed over at signature (L224-90), downloadable by the member and the staff.
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1);
  if (row) await storeSignedContract(db, row, { agency: config.agency, now: new Date(signedAt) });
  if (paidAt !== null && record.selectedPlanId) await seedPayments(s, member, id, record, contractId, paidAt);

  const stop = record.contractRenouncedAt ?? record.contractWithdrawnAt ?? record.terminatedAt ?? null;
  if (member.stage === 'retracte' && stop) {
    const at = new Date(stop);
    await db.transaction(async (tx) => {
      await recordWithdrawalRefunds(tx, { memberId: id, record, now: at, creditNote: { agency: config.agency, site: undefined } });
      await recordContractStop(tx, { memberId: id, record, reason: 'withdrawal', at });
    });
    // The stand-in gateway carries it out, as the refunds job would: a refund done.
    await executePendingRefunds(db, standInRefundGateway, { now: new Date(now - DAY_MS), memberId: id });
  } else if (member.stage === 'resilie' && stop && record.terminationRequestedAt) {
    const at = new Date(stop);
    const requestedAt = new Date(record.terminationRequestedAt);
    await db.transaction(async (tx) => {
      await recordTerminationRefunds(tx, {
        memberId: id,
        record,
        requestedAt,
        now: at,
        creditNote: { agency: config.agency, site: undefined },
      });
      await recordContractStop(tx, { memberId: id, record, reason: 'termination', at });
    });
  } else if (member.stage === 'renonce' && stop) {
    await recordContractStop(db, { memberId: id, record, reason: 'renunciation', at: new Date(stop) });
  } else if (member.stage === 'termine') {
    const end = termEndsAtMs(record);
    if (end !== null) await recordContractStop(db, { memberId: id, record, reason: 'term', at: new Date(end) });
  }
  if (LEVEL[member.stage] >= 11 && !stop && member.stage !== 'desactive') await upsertMatchProfile(db, id, now);
}

/** The file fee and the plan's first payment (checkout sessions, each with its invoice), then the instalments due since. */
async function seedPayments(
  s: Seeding,
  member: CastMember,
  id: string,
  record: OnboardingRecord,
  contractId: number | null,
  paidAt: number,
): Promise<void> {
  const { db, config, now } = s;
  const planId = record.selectedPlanId as PlanId;
  const plan = planById(planId);
  const subscriptionId = plan.type === 'monthly' ? `sub_demo_${id.replaceAll('-', '')}` : null;
  const sessions = [
    { offerId: 'file_fee', context: 'app', at: paidAt, subscriptionId: null },
    { offerId: planId, context: 'sub', at: paidAt + 5 * 60_000, subscriptionId },
  ] as const;
  for (const session of sessions) {
    const sessionId = `cs_demo_${session.context}_${id.replaceAll('-', '')}`;
    await db.transaction(async (tx) => {
      await tx.insert(checkoutSessions).values({
        id: sessionId,
        memberId: id,
        offerId: session.offerId,
        amountTotal: expectedAmountCents(session.offerId, record),
        currency: 'eur',
        status: 'complete',
        paymentStatus: 'paid',
        customerEmail: record.email,
        livemode: false,
        consumedAt: new Date(session.at),
        consumedByContext: session.context,
        subscriptionId: session.subscriptionId,
        contractId,
        createdAt: new Date(session.at),
        updatedAt: new Date(session.at),
      });
      await invoiceRecordedPayment(tx, config, sessionId, new Date(session.at));
    });
  }
  if (subscriptionId === null) return;
  // Instalments 2…: one a month after the first, as long as they fall before now and inside the contract.
  const stopped = record.terminationRequestedAt ?? record.contractWithdrawnAt ?? null;
  const until = stopped ? Math.min(now, Date.parse(stopped)) : now;
  for (let number = 2; number <= plan.installments; number++) {
    const at = paidAt + (number - 1) * 30 * DAY_MS;
    if (at >= until) break;
    const failed = member.failedInstalment === true && at + 30 * DAY_MS >= until;
    const invoiceId = `in_demo_${number}_${id.replaceAll('-', '')}`;
    await recordInstalmentEvent(
      db,
      config,
      { id: `evt_demo_${number}_${id.replaceAll('-', '')}`, type: failed ? 'invoice.payment_failed' : 'invoice.paid', livemode: false },
      {
        id: invoiceId,
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        amount_paid: failed ? 0 : plan.priceCents,
        amount_due: plan.priceCents,
        currency: 'eur',
        livemode: false,
        customer_email: record.email,
        parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
      },
      new Date(at),
    );
  }
}

async function addAvatar(db: Db, member: CastMember, index: number, id: string, now: number): Promise<void> {
  const png = await avatarPng(member.firstName, index);
  await addPhoto(db, id, await processPhoto(png), new Date(now - 20 * DAY_MS));
}

/** One introduction in each state of the chart, between active members, each walked through its events. */
async function seedIntroductions(s: Seeding, byName: Map<string, string>): Promise<void> {
  const { db, now, staffId } = s;
  const staff: IntroductionActor = { id: staffId, role: 'staff' };
  const id = (name: string) => byName.get(name) as string;
  const member = (name: string): IntroductionActor => ({ id: id(name), role: 'member' });
  type Step = [number, unknown, IntroductionActor];
  const walk = async (a: string, b: string, proposedDaysAgo: number, steps: (at: (days: number) => Date) => Step[]) => {
    const at = (days: number) => new Date(now - days * DAY_MS);
    const row = await proposeIntroduction(db, {
      staffId,
      a: id(a),
      b: id(b),
      noteA: `${b} partage votre attachement à la famille et habite non loin de chez vous.`,
      noteB: `${a} cherche, comme vous, une relation sérieuse et simple.`,
      now: at(proposedDaysAgo),
    });
    for (const [days, body, actor] of steps(at)) {
      await applyIntroductionEvent(db, { introductionId: row.id, body, actor, now: at(days) });
    }
  };
  const accept = (side: 'a' | 'b') => ({ type: 'ACCEPT', side });
  const meetingIn = (days: number) => toIsoInstant(now + days * DAY_MS);
  const place = 'Salon de thé Les Jardins, 12 rue de la Roquette, Paris';

  // Older ones first: the open introductions of a member never go beyond the limit.
  await walk('Salma', 'Karim', 40, () => [
    [39, accept('a'), member('Salma')],
    [38, accept('b'), member('Karim')],
    [36, { type: 'PLAN_MEETING', meetingAt: meetingIn(-30), place, accompaniedBy: 'La conseillère de l’agence' }, staff],
    [29, { type: 'RECORD_MEETING_HELD' }, staff],
    [27, { type: 'FEEDBACK', side: 'a', outcome: 'continuer' }, member('Salma')],
    [26, { type: 'FEEDBACK', side: 'b', outcome: 'continuer' }, member('Karim')],
  ]);
  await walk('Yasmine', 'Ilyes', 60, () => [
    [59, accept('a'), member('Yasmine')],
    [58, accept('b'), member('Ilyes')],
    [55, { type: 'PLAN_MEETING', meetingAt: meetingIn(-50), place: 'Agence, salon du rez-de-chaussée' }, staff],
    [49, { type: 'RECORD_MEETING_HELD' }, staff],
    [45, { type: 'FEEDBACK', side: 'a', outcome: 'fiances' }, member('Yasmine')],
    [44, { type: 'FEEDBACK', side: 'b', outcome: 'fiances' }, member('Ilyes')],
  ]);
  await walk('Nadia', 'Samir', 30, () => [[27, { type: 'CLOSE', note: 'Nadia a demandé une pause de quelques semaines.' }, staff]]);
  await walk('Sarah', 'Bilal', 25, () => [
    [24, { type: 'DECLINE', side: 'b', reason: 'region', comment: 'Trop loin pour moi en ce moment.' }, member('Bilal')],
  ]);
  await walk('Myriam', 'Adam', 20, () => [[11, { type: 'EXPIRE' }, staff]]);
  await walk('Amira', 'Mehdi', 16, () => [
    [15, accept('a'), member('Amira')],
    [14, accept('b'), member('Mehdi')],
    [12, { type: 'PLAN_MEETING', meetingAt: meetingIn(-4), place }, staff],
    [3, { type: 'RECORD_MEETING_HELD' }, staff],
  ]);
  await walk('Leïla', 'Nassim', 9, () => [
    [8, accept('a'), member('Leïla')],
    [7, accept('b'), member('Nassim')],
    [3, { type: 'PLAN_MEETING', meetingAt: meetingIn(2), place, accompaniedBy: 'Le frère de Leïla' }, staff],
  ]);
  await walk('Inès', 'Rayan', 6, () => [
    [5, accept('a'), member('Inès')],
    [4, accept('b'), member('Rayan')],
  ]);
  await walk('Salma', 'Adam', 2, () => [[1, accept('a'), member('Salma')]]);
  await walk('Sarah', 'Karim', 1, () => []);
}

/** Contact messages, some followed up, one to call back today. */
async function seedLeads(db: Db, now: number): Promise<void> {
  const leads = [
    {
      name: 'Hind Ait Ali',
      email: 'hind.aitali@exemple.fr',
      subject: 'Renseignements sur les formules',
      message: 'Bonjour, je voudrais savoir si un entretien est possible un samedi. Merci.',
      daysAgo: 1,
      status: 'nouveau',
      followUpIn: null,
    },
    {
      name: 'Mourad Saidi',
      email: 'mourad.saidi@exemple.fr',
      subject: 'Inscription pour mon frère',
      message: 'Salam, mon frère aimerait s’inscrire mais n’est pas à l’aise avec internet. Pouvez-vous l’appeler ?',
      daysAgo: 4,
      status: 'contacte',
      followUpIn: 0,
    },
    {
      name: 'Kenza Brahimi',
      email: 'kenza.brahimi@exemple.fr',
      subject: 'Question sur la confidentialité',
      message: 'Qui voit mes photos ? Je ne souhaite pas qu’elles soient visibles par tous.',
      daysAgo: 6,
      status: 'contacte',
      followUpIn: 2,
    },
    {
      name: 'Yacine Meziane',
      email: 'yacine.meziane@exemple.fr',
      subject: 'Tarifs pour la région lyonnaise',
      message: 'Les tarifs sont-ils les mêmes à Lyon ? Je suis intéressé par la formule annuelle.',
      daysAgo: 12,
      status: 'sans_suite',
      followUpIn: null,
    },
  ];
  for (const lead of leads) {
    const createdAt = new Date(now - lead.daysAgo * DAY_MS - 3 * HOUR_MS);
    const [row] = await db
      .insert(contactMessages)
      .values({ name: lead.name, email: lead.email, subject: lead.subject, message: lead.message, createdAt })
      .returning({ id: contactMessages.id });
    if (!row || (lead.status === 'nouveau' && lead.followUpIn === null)) continue;
    const followUpOn = lead.followUpIn === null ? null : toIsoInstant(now + lead.followUpIn * DAY_MS).slice(0, 10);
    await db.insert(leadFollowUps).values({ leadId: row.id, kind: 'contact', status: lead.status, followUpOn, updatedAt: createdAt });
  }
}

/** A few conversations between members and the agency, some unread by the staff. */
async function seedMessages(db: Db, now: number, staffId: string, byName: Map<string, string>): Promise<void> {
  const at = (days: number) => new Date(now - days * DAY_MS);
  const rows = [
    {
      memberId: byName.get('Salma') as string,
      authorId: staffId,
      direction: 'to_member' as const,
      subject: 'Votre rencontre avec Karim',
      body: 'Bonjour Salma, comment s’est passée votre rencontre ? Nous restons disponibles si vous souhaitez en parler.',
      createdAt: at(27),
      memberReadAt: at(27),
      staffReadAt: at(27),
    },
    {
      memberId: byName.get('Salma') as string,
      authorId: byName.get('Salma') as string,
      direction: 'to_agency' as const,
      subject: 'Re : Votre rencontre avec Karim',
      body: 'Très bien, merci ! Nous souhaitons continuer à nous connaître.',
      createdAt: at(26),
      memberReadAt: at(26),
      staffReadAt: at(26),
    },
    {
      memberId: byName.get('Naïma') as string,
      authorId: byName.get('Naïma') as string,
      direction: 'to_agency' as const,
      subject: 'Question sur le contrat',
      body: 'Bonjour, puis-je payer la formule annuelle en deux fois ?',
      createdAt: at(1),
      memberReadAt: at(1),
      staffReadAt: null,
    },
    {
      memberId: byName.get('Khadija') as string,
      authorId: byName.get('Khadija') as string,
      direction: 'to_agency' as const,
      subject: 'Ma demande de résiliation',
      body: 'Bonjour, je vous ai envoyé le justificatif de mon déménagement à l’étranger. Merci de me confirmer.',
      createdAt: at(2),
      memberReadAt: at(2),
      staffReadAt: null,
    },
    {
      memberId: byName.get('Karim') as string,
      authorId: staffId,
      direction: 'to_member' as const,
      subject: 'Une nouvelle proposition',
      body: 'Bonjour Karim, une nouvelle proposition vous attend dans votre espace. Prenez le temps de la lire.',
      createdAt: at(1),
      memberReadAt: null,
      staffReadAt: at(1),
    },
  ];
  await db.insert(directMessages).values(rows);
}
