import { type APIRequestContext, expect, type Page } from '@playwright/test';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

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
    wantsChildren: 'oui',
    readyToRelocate: true,
    requiredCriteria: ['age'],
    otherQualities: 'Une personne sincère, douce et attachée à sa famille.',
  });
  await post({ context: 'form_per_inf', completed: true });
  await post({ context: 'sel_plan', id: 'plan_horizon_month', renounce: options.renounce });
  await post({ context: 'pre_contract_ok', acknowledged: true });
  await post({ context: 'onb_meet', date: options.meetingAt.toISOString() });
  await post({ context: 'onb_meet_resa', status: true, uid: id });
  return { id };
}

/**
 * The onboarding meeting held (staff): refused before it starts (409), accepted once the clock,
 * moved by `travel`, is two days and an hour later (the meeting booked by `answerStepsByApi`).
 */
export async function holdMeeting(staff: APIRequestContext, id: string, travel: (ms: number) => Promise<void>): Promise<void> {
  const early = await staff.post('/api/v1/user/update', { data: { context: 'onb_meet_ok', status: true, uid: id } });
  expect(early.status()).toBe(409);
  await travel(2 * DAY + HOUR);
  const held = await staff.post('/api/v1/user/update', { data: { context: 'onb_meet_ok', status: true, uid: id } });
  expect(held.status(), await held.text()).toBe(200);
}

/**
 * Step 7 on screen: name, postcode and city come from step 1; the street address, the reading,
 * then the one-time code read in the local mailbox (decision 109); ends on « Contrat signé ».
 */
export async function signContractOnScreen(page: Page, base: string, email: string): Promise<void> {
  await page.goto(`${base}/mon-compte`);
  await expect(page).toHaveURL(/attente-contrat/);
  await expect(page.getByLabel('Nom complet')).toHaveValue('Youssef Haddad');
  await page.getByLabel('Adresse postale').fill('3 rue Oberkampf');
  await page.getByRole('checkbox', { name: /J’ai lu et j’accepte le contrat/ }).check();
  await page.getByRole('button', { name: 'Afficher mon contrat' }).click();
  await page.getByRole('button', { name: /recevoir mon code de signature/ }).click();
  await expect(page.getByText(`Un code a été envoyé à ${email}.`, { exact: false })).toBeVisible();
  const codePattern = /signer votre contrat de courtage matrimonial avec .+\s: (\d{6})/;
  let code = '';
  await expect
    .poll(async () => {
      const mails = (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as { to: string; text: string }[];
      code =
        mails
          .filter((m) => m.to === email)
          .find((m) => codePattern.test(m.text))
          ?.text.match(codePattern)?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await page.getByLabel('Code reçu par e-mail').fill(code);
  await page.getByRole('button', { name: 'Signer le contrat' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Contrat signé' })).toBeVisible();
}
