import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { expect, type Page, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { mailMatch } from '#tests/e2e/support/mailbox.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { draftHolds } from '#tests/e2e/support/drafts.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { pdfPageTexts } from '#tests/support/pdf-text.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * A new member's onboarding, as they would walk it: account creation, personal information (with
 * the sensitive-data consent), questionnaire, plan, pre-contract information (nothing is paid
 * before the contract: decision 105), and the booking on the local scheduling stand-in. A reload
 * in the middle resumes on the same step; a later step opened by URL redirects to the current one.
 *
 * Out of scope here: the 7-day / 14-day time jumps, the payment step and the matchmaking meeting
 * (active-member.spec.ts runs its own product with a clock it can move).
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
  await page.getByRole('group', { name: 'Acceptez-vous une personne ayant des enfants ?' }).getByRole('radio', { name: 'Oui' }).check();
  await page
    .getByRole('group', { name: /Souhaitez-vous avoir des enfants/ })
    .getByRole('radio', { name: 'Oui' })
    .check();
  await page
    .getByRole('group', { name: /prêt\(e\) à déménager/ })
    .getByRole('radio', { name: 'Non' })
    .check();
  // Decision 193: the age range is indispensable to her, the rest only wished.
  await page.getByRole('checkbox', { name: /aucune proposition hors de cette tranche d’âge/ }).check();
  await page.getByRole('radio', { name: 'Un emploi stable' }).check();
  await page.getByLabel('Autres qualités essentielles').fill('Une personne bienveillante, patiente et attachée à la famille.');
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();
  await expect(page.getByText('L’âge maximum doit être supérieur ou égal à l’âge minimum')).toBeVisible();
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
  await expect(page.getByText('La plus choisie')).toHaveCount(1);
  await expect(page.getByRole('checkbox', { name: /Je demande expressément/ })).not.toBeChecked();
  await page.getByRole('button', { name: 'Choisir Sérénité mensuel' }).click();

  // Step 4: pre-contract information. Nothing is paid before the contract (L224-91).
  await expectStep(page, 'informations-et-tarifs', 4, 'Informations précontractuelles');
  await expect(page.getByText(/Pas de reconduction tacite/)).toBeVisible();
  await expect(page.getByText(/Rien n’est à payer aujourd’hui/)).toBeVisible();
  // Everything the law asks before signing, from the contract's sources (decision 198): the agency,
  // its consumer mediator, renunciation, withdrawal and the cost of an early start.
  await expect(page.getByTestId('pre-contract-identity')).toContainText(/SIRET .+ téléphone .+ e-mail/);
  await expect(page.getByTestId('pre-contract-mediator')).toContainText(/médiateur de la consommation[\s\S]+https:\/\//);
  await expect(page.getByTestId('pre-contract-early-start')).toContainText(
    /une rétractation le dernier jour des 14 jours coûterait au plus \d+,\d{2}\s€/,
  );
  await expect(page.getByText(/Délai de renonciation\s: aucun paiement/)).toBeVisible();
  await screenshots(page, 'informations-precontractuelles');
  await expect(page.getByText(/déjà réglés/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Payer/ })).toHaveCount(0);
  await page.goto('/mon-compte/inscription/frais-de-dossier');
  await expectStep(page, 'informations-et-tarifs', 4, 'Informations précontractuelles');
  await page.getByRole('button', { name: 'Continuer vers la prise de rendez-vous' }).click();
  await expect(page.getByText('Veuillez confirmer avoir pris connaissance des informations précontractuelles')).toBeVisible();
  await page.getByRole('checkbox', { name: /J’ai pris connaissance des informations précontractuelles/ }).check();
  await page.getByRole('button', { name: 'Continuer vers la prise de rendez-vous' }).click();

  // Step 5: booking on the embedded scheduling stand-in.
  await expectStep(page, 'prendre-un-rendez-vous', 5, 'Prenez rendez-vous');
  await page.reload();
  await expectStep(page, 'prendre-un-rendez-vous', 5, 'Prenez rendez-vous');
  const agenda = page.frameLocator('iframe[title="Agenda de prise de rendez-vous"]');
  await agenda.locator('input[name="start"]').first().check();
  await expect(agenda.getByLabel('Adresse e-mail')).toHaveValue(email);
  await agenda.getByRole('button', { name: 'Confirmer le rendez-vous' }).click();

  // The scheduling page's message makes the SPA reload the session: step 6.
  await expectStep(page, 'attente-entretien-personnalise', 6, 'Votre entretien personnalisé');
  await expect(page.getByText(/Votre entretien avec une conseillère aura lieu le/)).toContainText(
    /\d{4} à \d{1,2}\sh\s\d{2} \(heure de Paris\)/,
  );
  await page.goto('/mon-compte/inscription/profil');
  await expectStep(page, 'attente-entretien-personnalise', 6, 'Votre entretien personnalisé');

  expect(consoleErrors).toEqual([]);
});

test('"Changer de formule" on the pre-contract information goes back to the plans; no payment nor coupon before the contract', async ({
  page,
  baseURL,
}) => {
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
    wantsChildren: 'oui',
    readyToRelocate: true,
    requiredCriteria: [],
    otherQualities: 'Une personne sincère et souriante.',
  });
  await post({ context: 'form_per_inf', completed: true });

  await page.goto('/mon-compte');
  await expectStep(page, 'formules', 3, 'Choisissez votre formule');
  await page.getByRole('button', { name: 'Choisir Horizon mensuel' }).click();
  await expectStep(page, 'informations-et-tarifs', 4, 'Informations précontractuelles');

  // "Changer de formule" goes back to step 3; choose again.
  await page.getByRole('button', { name: 'Changer de formule' }).click();
  await expectStep(page, 'formules', 3, 'Choisissez votre formule');
  await page.getByRole('button', { name: 'Choisir Horizon mensuel' }).click();
  await expectStep(page, 'informations-et-tarifs', 4, 'Informations précontractuelles');

  // The server takes no money and no coupon before the contract is signed and 7 days have passed.
  const link = await page.request.get('/api/v1/user/payment-link?offer=file_fee');
  expect(link.status()).toBe(409);
  expect(((await link.json()) as { error: { message: string } }).error.message).toContain('L224\u201191');
  const coupon = await page.request.post('/api/v1/user/update', {
    data: { context: 'coupon', code: 'BIENVENUE' },
    headers: { origin: baseURL ?? '' },
  });
  expect(coupon.status()).toBe(409);
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
    wantsChildren: 'peut-etre',
    readyToRelocate: false,
    requiredCriteria: ['age', 'region'],
    otherQualities: 'Une personne bienveillante et patiente.',
  });
  await post({ context: 'form_per_inf', completed: true });
  await post({ context: 'sel_plan', id: 'plan_serenity_month', renounce: false });
  await post({ context: 'pre_contract_ok', acknowledged: true });
  // The shared server's clock never moves: a meeting a few seconds ahead, so that it has started
  // when staff mark it held (never before its start).
  const meetingAt = Date.now() + 4000;
  await post({ context: 'onb_meet', date: new Date(meetingAt).toISOString() });
  await post({ context: 'onb_meet_resa', status: true, uid: settings.id });

  // Staff (a seeded account of this spec, second factor) record the meeting as done, once it has started.
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: headers });
  await signInE2EStaff(staff, 'onboarding');
  const held = { data: { context: 'onb_meet_ok', status: true, uid: settings.id } };
  if (Date.now() < meetingAt - 500) {
    const early = await staff.post('/api/v1/user/update', held);
    expect(early.status(), await early.text()).toBe(409);
  }
  await page.waitForTimeout(Math.max(0, meetingAt - Date.now() + 500));
  const done = await staff.post('/api/v1/user/update', held);
  expect(done.status(), await done.text()).toBe(200);
  await staff.dispose();

  // Step 7: the contract's details, prefilled from step 1 (name, postcode, city): only the street
  // address is new, and nothing is typed twice (decision 109).
  await page.goto('/mon-compte');
  await expectStep(page, 'attente-contrat', 7, 'Votre contrat');
  await expect(page.getByLabel('Nom complet')).toHaveValue('Amina Benali');
  await expect(page.getByLabel('Code postal')).toHaveValue('69003');
  await expect(page.getByLabel('Ville')).toHaveValue('Lyon');
  await expect(page.getByLabel('Signature', { exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Afficher mon contrat' }).click();
  await expect(page.getByText('Certaines informations sont à corriger.')).toBeVisible();
  await page.getByLabel('Adresse postale').fill('12 rue de la République');
  // What was typed survives a reload (a draft on this device); the acceptance is ticked each time.
  await draftHolds(page, ['12 rue de la République']);
  await page.reload();
  await expect(page.getByLabel('Adresse postale')).toHaveValue('12 rue de la République');
  await page.getByRole('checkbox', { name: /J’ai lu et j’accepte le contrat/ }).check();
  await page.getByRole('button', { name: 'Afficher mon contrat' }).click();

  // The whole contract before signing, filled in, with the PDF exactly as it will be signed.
  await expect(page.getByRole('heading', { level: 2, name: 'Contrat de courtage matrimonial' })).toBeVisible();
  await expect(page.getByText(/demeurant 12 rue de la République, 69003 Lyon/)).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: /Modèle de formulaire de rétractation/ })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Annexe — Qualités de la personne recherchée' })).toBeVisible();
  // The contract on screen has the PDF's structure (decision 198): articles apart, under their headings.
  const articles = page.getByTestId('contract-document').locator(':scope > section');
  expect(await articles.count()).toBeGreaterThanOrEqual(8);
  const apart = await articles
    .nth(1)
    .evaluate((section) => parseFloat(getComputedStyle(section).paddingTop) + parseFloat(getComputedStyle(section).borderTopWidth));
  expect(apart).toBeGreaterThan(16);
  await screenshots(page, 'contrat-a-lecran');
  await expect(page.getByRole('link', { name: /Voir le contrat en PDF/ })).toHaveAttribute('href', '/api/v1/user/contract-preview.pdf');
  const preview = await page.request.get('/api/v1/user/contract-preview.pdf');
  expect(preview.status()).toBe(200);
  const previewBytes = await preview.body();

  // Signature by a one-time code sent by e-mail: a wrong code is refused, the right one signs.
  await page.getByRole('button', { name: /recevoir mon code de signature/ }).click();
  await expect(page.getByText(`Un code a été envoyé à ${email}.`, { exact: false })).toBeVisible();
  const code = (await mailMatch(page, email, /signer votre contrat de courtage matrimonial avec .+\s: (\d{6})/)).slice(-6);
  // A reload keeps the code field: the code in the mailbox still signs (no new code is asked).
  await page.reload();
  await expect(page.getByLabel('Code reçu par e-mail')).toBeVisible();
  await expect(page.getByRole('button', { name: /recevoir mon code de signature/ })).toHaveCount(0);
  await page.getByLabel('Code reçu par e-mail').fill(code === '000000' ? '000001' : '000000');
  await page.getByRole('button', { name: 'Signer le contrat' }).click();
  await expect(page.getByText(/Code incorrect\. Il vous reste 4 essais\./)).toBeVisible();
  await page.getByLabel('Code reçu par e-mail').fill(code);
  await page.getByRole('button', { name: 'Signer le contrat' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Contrat signé' })).toBeVisible();
  // Payment opens at 00:00 Paris after the 7th civil day (decision 165): 7 days and some hours away.
  await expect(page.getByText(/^Encore 7 jours( et \d+ heures?)?$/)).toBeVisible();
  const pdfLink = page.getByRole('link', { name: 'Télécharger mon contrat (PDF)' });
  await expect(pdfLink).toHaveAttribute('href', '/api/v1/user/contract.pdf');
  const pdf = await page.request.get('/api/v1/user/contract.pdf');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  // The preview was a draft; the copy signed is its text with an evidence page (decision 185).
  const previewPages = await pdfPageTexts(previewBytes);
  expect(previewPages.every((text) => text.replace(/\s+/g, ' ').includes('Projet — document non signé'))).toBe(true);
  const signedPages = (await pdfPageTexts(await pdf.body())).map((text) => text.replace(/\s+/g, ' '));
  expect(signedPages).toHaveLength(previewPages.length + 1);
  expect(signedPages.at(-1)).toContain('Page de preuve de signature');
  expect(signedPages.at(-1)).toContain(`Adresse e-mail : ${email}`);
  await mailMatch(page, email, /Vous avez signé votre contrat de courtage matrimonial/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Contrat signé' })).toBeVisible();
  // No payment of any kind during the 7 days: no button, the payment step redirects here, the server refuses.
  await expect(page.getByRole('button', { name: /^Payer/ })).toHaveCount(0);
  await expect(page.getByText(/vous n’avez rien réglé/)).toBeVisible();
  await page.goto('/mon-compte/inscription/frais-de-dossier');
  await expectStep(page, 'attente-contrat', 7, 'Votre contrat');
  expect((await page.request.get('/api/v1/user/payment-link?offer=file_fee')).status()).toBe(409);
});
