import { eq, sql } from 'drizzle-orm';
import { adminClient } from '#bff/auth/supabase.ts';
import { members } from '#bff/db/schema.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import type { Product } from '#bff/start.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { emptyRecord, type Gender } from '#machines/onboarding/record.ts';

/**
 * An active member written straight into the database (no test framework here: the introduction
 * tests and `npm run lighthouse` both use it): steps 1-2 done, contract signed 40 days before
 * `now` and paid, active for 10 days, Île-de-France, open criteria. Answers the account's id and
 * password, and whether the member is available for introductions.
 */
export async function seedActiveMember(
  product: Pick<Product, 'auth' | 'database'>,
  now: number,
  person: { email: string; firstName: string; gender: Gender; age: number },
  /**
   * Optional: the contract's signature instant (ms, 40 days before `now` by default), whether the
   * member asked the services to start before the 14 days were over (then active the day after
   * signing, and still free to withdraw), and the phone.
   */
  options: { signedAt?: number; startedEarly?: boolean; phone?: string } = {},
): Promise<{ id: string; password: string; available: boolean }> {
  const password = 'bismillah-2026';
  const db = product.database.db;
  const { id } = await ensureAccount(adminClient(product.auth), db, { email: person.email, password, kind: person.gender });
  const signedAt = options.signedAt ?? now - 40 * DAY_MS;
  const activeAt = options.startedEarly ? signedAt + DAY_MS : Math.max(now - 10 * DAY_MS, signedAt + 15 * DAY_MS);
  const record = {
    ...emptyRecord(id, person.email, person.gender),
    selectedPlanId: 'plan_serenity_year',
    renouncedWithdrawalRight: options.startedEarly === true,
    profileCompleted: true,
    sensitiveDataConsentAt: toIsoInstant(signedAt - 20 * DAY_MS),
    questionnaireCompleted: true,
    formPersonnalInfoCompleted: true,
    applicationFeesPaid: true,
    preContractInfoAcknowledged: true,
    onboardingMeetingDateSelected: true,
    onboardingMeetingReserved: true,
    onboardingMeetingDate: toIsoInstant(signedAt - 2 * DAY_MS),
    onboardingMeetingDone: true,
    subscriptionContractFormCompleted: true,
    subscriptionDate: toIsoInstant(signedAt),
    subscriptionFeesPaid: true,
    matchmakingMeetingDone: true,
  };
  const profile = {
    firstName: person.firstName,
    lastName: 'Exemple',
    birthDate: toIsoInstant(now - (person.age * 365.25 + 100) * DAY_MS).slice(0, 10),
    phone: options.phone ?? '+33612345678',
    postcode: '75011',
    city: 'Paris',
    maritalStatus: 'celibataire',
    childrenCount: 0,
    profession: 'Infirmière',
    prayerPractice: 'reguliere',
    practiceDetails: '',
    sensitiveDataConsent: true,
  };
  const questionnaire = {
    soughtPractice: 'indifferent',
    soughtAgeMin: 20,
    soughtAgeMax: 60,
    soughtRegions: ['indifferent'],
    soughtFamilySituations: ['celibataire', 'divorce', 'veuf'],
    acceptsChildren: true,
    soughtProfessionalSituation: 'indifferent',
    // The questions of decision 193, every criterion only wished: a seeded member excludes nobody.
    wantsChildren: 'oui',
    readyToRelocate: false,
    requiredCriteria: [],
    otherQualities: 'Sérieux, bienveillant et attaché à la famille.',
  };
  // Version 1: the seeded event below is the member's first, so their next event (a right, a
  // termination) takes version 2 as on a walked member.
  await db.update(members).set({ onboarding: record, profile, questionnaire, version: 1 }).where(eq(members.id, id));
  await db.execute(sql`INSERT INTO onboarding_events (member_id, context, event, payload, from_state, to_state, actor_role, version, created_at)
    VALUES (${id}::uuid, 'meeting_mm', 'meeting_mm', '{}'::jsonb, 'attente', 'membre-actif', 'staff', 1, ${toIsoInstant(activeAt)}::timestamptz)`);
  const matchProfile = await upsertMatchProfile(db, id, now);
  return { id, password, available: matchProfile?.available === true };
}
