import { expect, type Page } from '@playwright/test';

/**
 * Steps 1 to 6 of the onboarding through the API, as the signed-in member of `page` (the screens
 * are walked by onboarding.spec.ts): Youssef's answers, the Horizon monthly plan, the pre-contract
 * information, the meeting at `meetingAt`, booked. Used by the walks that run their own product
 * with a movable clock (active-member.spec.ts, contract-rights.spec.ts). Answers the member's id.
 */
export async function answerStepsByApi(page: Page, base: string, options: { renounce: boolean; meetingAt: Date }): Promise<{ id: string }> {
  const headers = { origin: base };
  const post = async (data: Record<string, unknown>) => {
    const response = await page.request.post(`${base}/api/v1/user/update`, { data, headers });
    expect(response.status(), await response.text()).toBe(200);
  };
  const { id } = (await (await page.request.get(`${base}/api/v1/user/settings`)).json()) as { id: string };
  await post({
    context: 'profil',
    firstName: 'Youssef',
    lastName: 'Haddad',
    birthDate: '1990-02-11',
    phone: '06 98 76 54 32',
    postcode: '75011',
    city: 'Paris',
    maritalStatus: 'celibataire',
    childrenCount: 0,
    profession: 'Ingénieur',
    prayerPractice: 'cinq-prieres',
    practiceDetails: '',
    sensitiveDataConsent: true,
  });
  await post({
    context: 'questionnaire',
    soughtPractice: 'cinq-prieres',
    soughtAgeMin: 26,
    soughtAgeMax: 34,
    soughtRegions: ['ile-de-france'],
    soughtFamilySituations: ['celibataire'],
    acceptsChildren: true,
    soughtProfessionalSituation: 'indifferent',
    otherQualities: 'Une personne sincère, douce et attachée à sa famille.',
  });
  await post({ context: 'form_per_inf', completed: true });
  await post({ context: 'sel_plan', id: 'plan_horizon_month', renounce: options.renounce });
  await post({ context: 'pre_contract_ok', acknowledged: true });
  await post({ context: 'onb_meet', date: options.meetingAt.toISOString() });
  await post({ context: 'onb_meet_resa', status: true, uid: id });
  return { id };
}
