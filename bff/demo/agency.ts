import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { ensureContract, recordContractStop } from '#bff/payments/contract-ledger.ts';
import { executePendingRefunds, recordTerminationRefunds, recordWithdrawalRefunds, standInRefundGateway } from '#bff/payments/refunds.ts';
import { storeSignedContract } from '#bff/privacy/contract-copy.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import { PRIVACY_POLICY_VERSION } from '#machines/public-site/public-forms.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { addAvatar, type Seeding, seedIntroductions, seedLeads, seedMessages, seedPayments } from '#bff/demo/agency-life.ts';
import { demoMarker, setDemoMarker } from '#bff/demo/store/markers.ts';
import {
  assignCounsellors,
  insertBooking,
  insertOnboardingEvent,
  insertPreSubscriptions,
  memberById,
  memberIdByEmail,
  updateDemoMember,
} from '#bff/demo/store/members.ts';
import { build, CAST, type CastMember, emailOf, HOUR_MS, LEVEL, signInPassword, STREETS } from '#bff/demo/cast.ts';

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
export interface DemoAgencyReport {
  seeded: boolean;
  members: number;
  ms: number;
}

/** The three demo accounts' staff account, or the first administrator: the one who « did » the staff's part. */
async function staffIdOf(db: Db, email: string): Promise<string | null> {
  return (await memberIdByEmail(db, email)) ?? null;
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
  const marker = await demoMarker(db, DEMO_AGENCY_KEY);
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
  if (assigned.length > 0) await assignCounsellors(db, assigned);

  const byName = new Map(CAST.map((member, index) => [member.firstName, ids[index] as string]));
  if (created.every(Boolean)) {
    await seedIntroductions(seeding, byName);
    await seedLeads(db, now);
    await seedPreRegistrations(db, now, ids);
    await seedMessages(db, now, staffId, byName);
  }
  await setDemoMarker(db, DEMO_AGENCY_KEY, DEMO_AGENCY_VERSION, new Date());
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
  await insertPreSubscriptions(db, [
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
  await updateDemoMember(db, id, {
    onboarding: record,
    profile: built.profile,
    questionnaire: built.questionnaire,
    contract,
    disabled: record.disabled,
    version: contract ? 2 : 1,
    createdAt: signedUpAt(member, index, signedAt, now),
  });
  // The contract form's event: the contract's PDF is dated by it.
  if (contract)
    await insertOnboardingEvent(db, {
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
  await insertOnboardingEvent(db, {
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
    await insertBooking(db, {
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
  const row = await memberById(db, id);
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
