import { expect, type Page, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * A new member's onboarding, as they would walk it: account creation, personal information (with
 * the sensitive-data consent), questionnaire, plan, file fee paid on the local checkout stand-in,
 * pre-contract information, and the booking on the local scheduling stand-in. A reload in the
 * middle resumes on the same step; a later step opened by URL redirects to the current one.
 *
 * Out of scope here: staff steps (onb_meet_ok, meeting_mm, through the staff API with a second
 * factor) and the 7-day / 14-day time jumps of the contract and waiting steps.
 */

const step = (id: string) => new RegExp(`/mon-compte/inscription/${id}(\\?|$)`);

async function expectStep(page: Page, id: string, n: number, title: string) {
  await expect(page).toHaveURL(step(id));
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText(`Étape ${n} sur 9`)).toBeVisible();
  await expect(page.locator('li[aria-current="step"]')).toHaveCount(1);
}

test('a new member walks the onboarding from account creation to the booking of the meeting', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleErrors = watchConsole(page, [400, 402, 409]);
  const email = `parcours.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';

  // Account creation lands on step 1.
  await createAccount(page, { gender: 'femme', email: email, password: password });
  await expectStep(page, 'profil', 1, 'Vos informations personnelles');

  // Step 1: empty form → field-level errors, focus on the first one; consent unticked.
  const consent = page.getByRole('checkbox', { name: /J’accepte que l’agence traite mes informations sur ma pratique religieuse/ });
  await expect(consent).not.toBeChecked();
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();
  await expect(page.getByText('Prénom requis')).toBeVisible();
  await expect(page.getByLabel('Prénom')).toBeFocused();
  await expect(page.getByText('Votre consentement explicite est nécessaire')).toBeVisible();

  await page.getByLabel('Prénom').fill('Amina');
  await page.getByLabel('Nom', { exact: true }).fill('Benali');
  await page.getByLabel('Date de naissance').fill('1992-04-17');
  await page.getByLabel('Téléphone').fill('06 12 34 56 78');
  await page.getByLabel('Code postal').fill('69003');
  await page.getByLabel('Ville').fill('Lyon');
  await page.getByRole('radio', { name: 'Célibataire' }).check();
  await page.getByLabel('Profession').fill('Infirmière');
  await page.getByRole('radio', { name: 'Les cinq prières quotidiennes' }).check();
  await consent.check();
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();

  // Step 2: the questionnaire.
  await expectStep(page, 'questionnaire-profil', 2, 'Questionnaire de rencontre');
  // A later step opened by URL redirects to the current one.
  await page.goto('/mon-compte/inscription/attente-contrat');
  await expectStep(page, 'questionnaire-profil', 2, 'Questionnaire de rencontre');
  await page.goto('/mon-compte');
  await expectStep(page, 'questionnaire-profil', 2, 'Questionnaire de rencontre');

  await page.getByRole('radio', { name: 'Les cinq prières quotidiennes' }).check();
  await page.getByLabel('Âge minimum').fill('30');
  await page.getByLabel('Âge maximum').fill('25');
  await page.getByRole('checkbox', { name: 'Île-de-France' }).check();
  await page.getByRole('checkbox', { name: 'Auvergne-Rhône-Alpes' }).check();
  await page.getByRole('checkbox', { name: 'Célibataire' }).check();
  await page.getByRole('radio', { name: 'Oui' }).check();
  await page.getByRole('radio', { name: 'Un emploi stable' }).check();
  await page.getByLabel('Autres qualités essentielles').fill('Une personne bienveillante, patiente et attachée à la famille.');
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();
  await expect(page.getByText("L'âge maximum doit être supérieur ou égal à l'âge minimum")).toBeVisible();
  await expect(page.getByLabel('Âge maximum')).toBeFocused();
  await page.getByLabel('Âge maximum').fill('40');
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();

  // Step 3: plans. A reload resumes on the same step.
  await expectStep(page, 'formules', 3, 'Choisissez votre formule');
  await page.reload();
  await expectStep(page, 'formules', 3, 'Choisissez votre formule');
  await expect(
    page
      .getByRole('list', { name: 'Formules' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { level: 2 }) }),
  ).toHaveCount(4);
  await expect(page.getByText('Recommandée')).toHaveCount(1);
  await expect(page.getByRole('checkbox', { name: /Je demande expressément/ })).not.toBeChecked();
  await page.getByRole('button', { name: 'Choisir Sérénité mensuel' }).click();

  // Step 4: file fee, 228 € struck and 169 €, paid on the checkout stand-in.
  await expectStep(page, 'frais-de-dossier', 4, 'Frais de dossier');
  await expect(page.locator('del').filter({ hasText: '228,00' })).toBeVisible();
  await expect(page.getByText(/169,00\s€/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Appliquer mon code avantage' })).toBeVisible();
  await page.getByRole('button', { name: 'Payer', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Paiement sécurisé' })).toBeVisible();
  await page.getByRole('button', { name: /^Payer 169,00/ }).click();

  // Back with ?csid=: the server confirms the payment; step 5.
  await expectStep(page, 'informations-et-tarifs', 5, 'Informations précontractuelles');
  await expect(page.getByText(/Pas de reconduction tacite/)).toBeVisible();
  await page.getByRole('button', { name: 'Continuer vers la prise de rendez-vous' }).click();
  await expect(page.getByText('Veuillez confirmer avoir pris connaissance des informations précontractuelles')).toBeVisible();
  await page.getByRole('checkbox', { name: /J’ai pris connaissance des informations précontractuelles/ }).check();
  await page.getByRole('button', { name: 'Continuer vers la prise de rendez-vous' }).click();

  // Step 6: booking on the embedded scheduling stand-in.
  await expectStep(page, 'prendre-un-rendez-vous', 6, 'Prenez rendez-vous');
  await page.reload();
  await expectStep(page, 'prendre-un-rendez-vous', 6, 'Prenez rendez-vous');
  const agenda = page.frameLocator('iframe[title="Agenda de prise de rendez-vous"]');
  await agenda.locator('input[name="start"]').first().check();
  await expect(agenda.getByLabel('Adresse e-mail')).toHaveValue(email);
  await agenda.getByRole('button', { name: 'Confirmer le rendez-vous' }).click();

  // The scheduling page's message makes the SPA reload the session: step 7.
  await expectStep(page, 'attente-entretien-personnalise', 7, 'Votre entretien personnalisé');
  await expect(page.getByText(/Votre entretien avec une conseillère aura lieu le/)).toContainText(/\d{4} à \d{2}:\d{2}/);
  await page.goto('/mon-compte/inscription/profil');
  await expectStep(page, 'attente-entretien-personnalise', 7, 'Votre entretien personnalisé');

  expect(consoleErrors).toEqual([]);
});

test('the file-fee coupon applies once, waives the fee, and "Changer de formule" goes back to the plans', async ({ page, baseURL }) => {
  const email = `coupon.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';
  await createAccount(page, { gender: 'homme', email: email, password: password });
  await expectStep(page, 'profil', 1, 'Vos informations personnelles');

  // Steps 1-2 through the API (the first test walks their screens).
  const post = (data: Record<string, unknown>) =>
    page.request.post('/api/v1/user/update', { data, headers: { origin: baseURL ?? '' } }).then((r) => expect(r.status()).toBe(200));
  await post({
    context: 'profil',
    firstName: 'Yacine',
    lastName: 'Haddad',
    birthDate: '1990-02-03',
    phone: '06 12 34 56 79',
    postcode: '75011',
    city: 'Paris',
    maritalStatus: 'celibataire',
    childrenCount: 0,
    profession: 'Ingénieur',
    prayerPractice: 'reguliere',
    practiceDetails: '',
    sensitiveDataConsent: true,
  });
  await post({
    context: 'questionnaire',
    soughtPractice: 'indifferent',
    soughtAgeMin: 25,
    soughtAgeMax: 35,
    soughtRegions: ['ile-de-france'],
    soughtFamilySituations: ['celibataire'],
    acceptsChildren: false,
    soughtProfessionalSituation: 'indifferent',
    otherQualities: 'Une personne sincère et souriante.',
  });
  await post({ context: 'form_per_inf', completed: true });

  await page.goto('/mon-compte');
  await expectStep(page, 'formules', 3, 'Choisissez votre formule');
  await page.getByRole('button', { name: 'Choisir Horizon mensuel' }).click();
  await expectStep(page, 'frais-de-dossier', 4, 'Frais de dossier');

  // "Changer de formule" goes back to step 3; choose again.
  await page.getByRole('button', { name: 'Changer de formule' }).click();
  await expectStep(page, 'formules', 3, 'Choisissez votre formule');
  await page.getByRole('button', { name: 'Choisir Horizon mensuel' }).click();
  await expectStep(page, 'frais-de-dossier', 4, 'Frais de dossier');

  // The coupon: once; the plan description changes; the fee is waived.
  await page.getByRole('button', { name: 'Appliquer mon code avantage' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Votre code avantage est appliqué' })).toBeVisible();
  await expect(page.getByText('Un accompagnement de 6 mois sans frais supplémentaires')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Appliquer mon code avantage' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Un accompagnement de 6 mois sans frais supplémentaires')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Appliquer mon code avantage' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Payer', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Paiement sécurisé' })).toBeVisible();
  await page.getByRole('button', { name: /^Payer 0,00/ }).click();
  await expectStep(page, 'informations-et-tarifs', 5, 'Informations précontractuelles');
});

test('after the onboarding meeting (staff), the member fills in, signs and downloads the contract, then waits 7 days', async ({
  page,
  baseURL,
  playwright,
}) => {
  test.setTimeout(150_000);
  const email = `contrat.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';
  await createAccount(page, { gender: 'femme', email: email, password: password });
  await expectStep(page, 'profil', 1, 'Vos informations personnelles');

  const headers = { origin: baseURL ?? '' };
  const post = (data: Record<string, unknown>) =>
    page.request.post('/api/v1/user/update', { data, headers }).then(async (r) => expect(r.status(), await r.text()).toBe(200));
  const settings = (await (await page.request.get('/api/v1/user/settings')).json()) as { id: string };
  await post({
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
    practiceDetails: '',
    sensitiveDataConsent: true,
  });
  await post({
    context: 'questionnaire',
    soughtPractice: 'cinq-prieres',
    soughtAgeMin: 30,
    soughtAgeMax: 40,
    soughtRegions: ['ile-de-france'],
    soughtFamilySituations: ['celibataire', 'divorce'],
    acceptsChildren: true,
    soughtProfessionalSituation: 'emploi-stable',
    otherQualities: 'Une personne bienveillante et patiente.',
  });
  await post({ context: 'form_per_inf', completed: true });
  await post({ context: 'sel_plan', id: 'plan_serenity_month', renounce: false });
  await page.goto('/mon-compte');
  await expectStep(page, 'frais-de-dossier', 4, 'Frais de dossier');
  await page.getByRole('button', { name: 'Payer', exact: true }).click();
  await page.getByRole('button', { name: /^Payer 169,00/ }).click();
  await expectStep(page, 'informations-et-tarifs', 5, 'Informations précontractuelles');
  await post({ context: 'pre_contract_ok', acknowledged: true });
  await post({ context: 'onb_meet', date: new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString() });
  await post({ context: 'onb_meet_resa', status: true, uid: settings.id });

  // Staff (a seeded account of this spec, second factor) record the meeting as done.
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: headers });
  await signInE2EStaff(staff, 'onboarding');
  const done = await staff.post('/api/v1/user/update', { data: { context: 'onb_meet_ok', status: true, uid: settings.id } });
  expect(done.status(), await done.text()).toBe(200);
  await staff.dispose();

  // Step 8: the contract form, with field-level errors.
  await page.goto('/mon-compte');
  await expectStep(page, 'attente-contrat', 8, 'Votre contrat');
  await page.getByLabel('Nom complet').fill('Amina Benali');
  await page.getByLabel('Adresse', { exact: true }).fill('12 rue de la République');
  await page.getByLabel('Code postal').fill('69003');
  await page.getByLabel('Ville').fill('Lyon');
  await page.getByLabel('Signature').fill('Amina Benalie');
  await page.getByRole('button', { name: 'Valider le contrat' }).click();
  await expect(page.getByText('La signature doit reprendre exactement votre nom complet')).toBeVisible();
  await expect(page.getByLabel('Signature')).toBeFocused();
  await page.getByLabel('Signature').fill('Amina Benali');
  await page.getByRole('checkbox', { name: /J’ai lu et j’accepte le contrat/ }).check();
  await page.getByRole('button', { name: 'Valider le contrat' }).click();

  // Signature, then the 7-day countdown and the PDF copy.
  await page.getByRole('button', { name: 'Signer', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Contrat signé' })).toBeVisible();
  await expect(page.getByText(/Encore 6 jours 23 heures|Encore 7 jours/)).toBeVisible();
  const pdfLink = page.getByRole('link', { name: 'Télécharger mon contrat (PDF)' });
  await expect(pdfLink).toHaveAttribute('href', '/api/v1/user/contract.pdf');
  const pdf = await page.request.get('/api/v1/user/contract.pdf');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Contrat signé' })).toBeVisible();
});
