import type { Browser, Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { adminClient } from '#bff/auth/supabase.ts';
import { members } from '#bff/db/schema.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import type { Product } from '#bff/start.ts';
import type { PersonalInfo, Questionnaire } from '#machines/onboarding/forms.ts';
import { emptyRecord, type Gender, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The onboarding record of a member who finished signing up: signed 40 days ago, paid, both
 * meetings held — an active member, written straight into the database by the specs that need
 * two of them (the screens of the onboarding are walked elsewhere).
 */
export function activeRecord(id: string, email: string, gender: Gender, now: number): OnboardingRecord {
  const signedAt = now - 40 * DAY;
  return {
    ...emptyRecord(id, email, gender),
    selectedPlanId: 'plan_horizon_month',
    renouncedWithdrawalRight: false,
    profileCompleted: true,
    sensitiveDataConsentAt: new Date(signedAt - 20 * DAY).toISOString(),
    questionnaireCompleted: true,
    formPersonnalInfoCompleted: true,
    applicationFeesPaid: true,
    preContractInfoAcknowledged: true,
    onboardingMeetingDateSelected: true,
    onboardingMeetingReserved: true,
    onboardingMeetingDate: new Date(signedAt - 2 * DAY).toISOString(),
    onboardingMeetingDone: true,
    subscriptionContractFormCompleted: true,
    subscriptionDate: new Date(signedAt).toISOString(),
    subscriptionFeesPaid: true,
    matchmakingMeetingDone: true,
  };
}

/**
 * Writes an active member straight into a spec's own product: the account, `activeRecord`, a
 * profile and open criteria (Île-de-France, 25–45, any practice) unless `answers` gives the
 * spec's own, and their match profile. The specs that need people to propose, meet or list use it
 * rather than a copy of the set-up.
 */
export async function seedActiveMember(
  product: Product,
  person: { email: string; password: string; gender: Gender; firstName: string; lastName: string; birthDate: string; phone?: string },
  now: number,
  answers: { profile?: PersonalInfo; questionnaire?: Questionnaire } = {},
): Promise<string> {
  const db = product.database.db;
  const { id } = await ensureAccount(adminClient(product.auth), db, {
    email: person.email,
    password: person.password,
    kind: person.gender,
  });
  const profile: PersonalInfo = answers.profile ?? {
    firstName: person.firstName,
    lastName: person.lastName,
    birthDate: person.birthDate,
    phone: person.phone ?? '+33612345678',
    postcode: '75011',
    city: 'Paris',
    maritalStatus: 'celibataire',
    childrenCount: 0,
    profession: person.gender === 'femme' ? 'Infirmière' : 'Ingénieur',
    prayerPractice: 'cinq-prieres',
    practiceDetails: '',
    sensitiveDataConsent: true,
  };
  const questionnaire: Questionnaire = answers.questionnaire ?? {
    soughtPractice: 'indifferent',
    soughtAgeMin: 25,
    soughtAgeMax: 45,
    soughtRegions: ['ile-de-france'],
    soughtFamilySituations: ['celibataire', 'divorce'],
    acceptsChildren: true,
    soughtProfessionalSituation: 'indifferent',
    otherQualities: 'Une personne sincère et attachée à sa famille.',
  };
  await db
    .update(members)
    .set({ onboarding: activeRecord(id, person.email, person.gender, now), profile, questionnaire })
    .where(eq(members.id, id));
  const match = await upsertMatchProfile(db, id, now);
  if (!match?.available) throw new Error(`${person.firstName} n’est pas proposable`);
  return id;
}

/** A member's own browser context on a spec's product, signed in through the API (writes carry the site's Origin). */
export async function signedInMemberPage(browser: Browser, base: string, email: string, password: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
  await skipConsentBanner(context);
  const page = await context.newPage();
  const signin = await page.request.post(`${base}/api/v1/auth/signin`, { data: { email, password }, headers: { origin: base } });
  if (signin.status() !== 200) throw new Error(`connexion de ${email} : ${signin.status()} ${await signin.text()}`);
  return page;
}
