import { type Browser, expect, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { Secret, TOTP } from 'otpauth';
import { E2E_STAFF_DISPLAY_NAMES, E2E_STAFF_PASSWORD, e2eStaffEmail } from '#tests/e2e/support/staff-accounts.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * The staff dashboard, as staff use it: sign-in with password then TOTP (enrolled on this first
 * sign-in from the secret shown on screen), a member found by search, their chart with the current
 * state highlighted, the onboarding meeting marked done (the member's wizard moves on), then the
 * member's account disabled (their open session stops working).
 */

const step = (id: string) => new RegExp(`/mon-compte/inscription/${id}(\\?|$)`);

/**
 * A new member who booked the onboarding meeting (step 6), walked through the API (nothing is paid
 * before the contract: decision 105). The shared server's clock never moves, so the meeting is a
 * few seconds ahead: staff may only mark it held once it has started (`meetingAt`).
 */
async function memberAtMeetingWait(browser: Browser, baseURL: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = `tableau.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';
  await createAccount(page, { gender: 'femme', email: email, password: password });
  await expect(page).toHaveURL(step('profil'));

  const headers = { origin: baseURL };
  const post = (data: Record<string, unknown>) =>
    page.request.post('/api/v1/user/update', { data, headers }).then(async (r) => expect(r.status(), await r.text()).toBe(200));
  const { id } = (await (await page.request.get('/api/v1/user/settings')).json()) as { id: string };
  await post({
    context: 'profil',
    firstName: 'Nadia',
    lastName: 'Tableau',
    birthDate: '1991-05-12',
    phone: '06 12 34 56 70',
    postcode: '13001',
    city: 'Marseille',
    maritalStatus: 'celibataire',
    childrenCount: 0,
    profession: 'Enseignante',
    prayerPractice: 'cinq-prieres',
    practiceDetails: '',
    sensitiveDataConsent: true,
  });
  await post({
    context: 'questionnaire',
    soughtPractice: 'cinq-prieres',
    soughtAgeMin: 30,
    soughtAgeMax: 42,
    soughtRegions: ['provence-alpes-cote-d-azur'],
    soughtFamilySituations: ['celibataire'],
    acceptsChildren: true,
    soughtProfessionalSituation: 'emploi-stable',
    wantsChildren: 'oui',
    readyToRelocate: true,
    requiredCriteria: ['age'],
    otherQualities: 'Une personne douce et sérieuse.',
  });
  await post({ context: 'form_per_inf', completed: true });
  await post({ context: 'sel_plan', id: 'plan_serenity_month', renounce: false });
  await post({ context: 'pre_contract_ok', acknowledged: true });
  const meetingAt = Date.now() + 5000;
  await post({ context: 'onb_meet', date: new Date(meetingAt).toISOString() });
  await post({ context: 'onb_meet_resa', status: true, uid: id });
  await page.goto('/mon-compte');
  await expect(page).toHaveURL(step('attente-entretien-personnalise'));
  await expect(page.getByRole('heading', { level: 1, name: 'Votre entretien personnalisé' })).toBeVisible();
  return { context, page, email, id, meetingAt };
}

test('staff sign in with TOTP, find a member, mark the onboarding meeting done, then disable the account', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const member = await memberAtMeetingWait(browser, baseURL ?? '');

  const staffContext = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await staffContext.newPage();
  const consoleErrors = watchConsole(page, [400, 403]);

  // The guard sends a visitor to the staff sign-in page; from a member's file, without fetching
  // its staff-only answers first (no 401 in the console, decision 160).
  await page.goto(`/dashboard/member/${member.id}`);
  await expect(page).toHaveURL(/\/dashboard\/connexion/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard\/connexion/);
  await page.getByLabel('Adresse e-mail').fill(e2eStaffEmail('dashboard'));
  await page.getByLabel('Mot de passe').fill(E2E_STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Continuer' }).click();

  // First sign-in: enrolment, with the QR code and the secret for manual entry.
  await expect(page.getByRole('heading', { name: 'Enregistrez votre second facteur' })).toBeVisible();
  const qr = page.getByRole('img', { name: 'QR code du second facteur' });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByLabel('Code à 6 chiffres')).toHaveValue('');
  const secret = (await page.getByLabel('Clé secrète (saisie manuelle)').inputValue()).trim();
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await page.getByLabel('Code à 6 chiffres').fill('000000');
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page.getByText(/Code incorrect/)).toBeVisible();
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  await page.getByLabel('Code à 6 chiffres').fill(code);
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page).toHaveURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Membres par étape' })).toBeVisible();
  // The list is fetched once for the URL it shows, not again on every render (it once looped). It
  // loads after the first paint (decision 210): counted once it is shown.
  await expect(page.getByTestId('members-table')).toBeVisible();
  const listCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v1/dashboard/members') listCalls.push(request.url());
  });
  await page.waitForTimeout(1500);
  expect(listCalls).toEqual([]);

  // Search: nothing for an unknown text, then the member by e-mail.
  const search = page.getByPlaceholder('Rechercher un membre…');
  await search.fill('personne-introuvable');
  await expect(page.getByText('Aucun membre ne correspond à « personne-introuvable ».')).toBeVisible();
  await search.fill(member.email);
  await expect(page.getByRole('row')).toHaveCount(2);
  // The filters, in the URL: another step hides the member, theirs shows them again; the sort too.
  await page.getByLabel(/^Étape/).selectOption({ label: '1. Mon profil' });
  await expect(page).toHaveURL(/step=profil/);
  await expect(page.getByText(`Aucun membre ne correspond à « ${member.email} ».`)).toBeVisible();
  await page.getByLabel(/^Étape/).selectOption({ label: '6. Entretien personnalisé' });
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Trier par').selectOption({ label: 'Dernière activité' });
  await expect(page).toHaveURL(/sort=updated/);
  await expect(page.getByRole('row')).toHaveCount(2);
  // The list names the member (decision 210), the e-mail under the name.
  await expect(page.getByRole('row').nth(1)).toContainText(member.email);
  await page.getByRole('link', { name: 'Nadia Tableau' }).click();

  // The member page: chart drawn with the current state highlighted.
  await expect(page).toHaveURL(new RegExp(`/dashboard/member/${member.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Nadia Tableau' })).toBeVisible();
  // The chart is in the « Historique » tab, folded (decision 209).
  const tabs = page.getByRole('navigation', { name: 'Onglets de la fiche' });
  await tabs.getByRole('link', { name: 'Historique' }).click();
  const current = page.locator('li[aria-current="step"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveAttribute('data-state', 'attente-entretien-personnalise');
  await tabs.getByRole('link', { name: 'Profil' }).click();

  // Copy the member id: the flag resets after 1500 ms.
  await page.getByRole('button', { name: 'Copier l’identifiant' }).click();
  await expect(page.getByRole('button', { name: 'Copié !' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(member.id);
  await expect(page.getByRole('button', { name: 'Copier l’identifiant' })).toBeVisible({ timeout: 3000 });
  // The back office shows no cookie banner (no optional cookie, no tag there).
  await expect(page.getByRole('heading', { name: 'Vos choix sur les cookies' })).toHaveCount(0);
  // This very read is in the file's access log, under the staff member's name (decision 107); the
  // page's other sections, read at the same time, have their own rows (decision 206).
  await tabs.getByRole('link', { name: 'Accès' }).click();
  const accessLog = page.getByRole('region', { name: 'Consultations du dossier' });
  const fileRead = accessLog.getByRole('row').filter({ hasText: 'Dossier du membre' }).first();
  await expect(fileRead).toContainText(E2E_STAFF_DISPLAY_NAMES.dashboard);
  await screenshots(page, 'fiche-membre');
  await tabs.getByRole('link', { name: 'Profil' }).click();

  // Mark the onboarding meeting done (once it has started), confirmed in a dialog.
  await expect(page.getByRole('button', { name: 'Entretien de rapprochement effectué' })).toHaveCount(0);
  // The page was loaded before the meeting's start when the action shows its reason: wait for the
  // start, then reload (the server decides, as of the time of each request).
  const reason = page.getByTestId('reason-onb_meet_done');
  if ((await reason.count()) > 0) {
    await expect(reason).toContainText('qu’à partir de son heure de début');
    await page.waitForTimeout(Math.max(0, member.meetingAt - Date.now()) + 500);
    await page.reload();
  }
  await page.getByRole('button', { name: 'Entretien personnalisé effectué' }).click();
  const dialog = page.getByRole('dialog', { name: 'Entretien personnalisé effectué' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirmer' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('member-facts')).toContainText('Contrat — Formulaire du contrat');
  await tabs.getByRole('link', { name: 'Historique' }).click();
  await expect(current).toHaveAttribute('data-state', 'attente-contrat');
  const log = page.getByRole('list', { name: 'Historique des événements' });
  // The history reads as a sentence with actor and date, the step change as French step names.
  const latest = log.getByRole('listitem').first();
  await expect(latest).toContainText(/^Entretien personnalisé validé par \S.*, \d{1,2}(?:er)? \S+ \d{4} à \d{1,2}\sh\s\d{2}/);
  await expect(latest).toContainText('De « Entretien personnalisé » à « Contrat — Formulaire du contrat »');
  await expect(log).not.toContainText(/RECORD_ONBOARDING_MEETING|onb_meet_ok|attente-contrat|→/);

  // The member's wizard moves on by itself, without a click (polling with back-off, decision 123).
  await expect(member.page.getByRole('button', { name: 'Actualiser' })).toHaveCount(0);
  await expect(member.page).toHaveURL(step('attente-contrat'), { timeout: 75_000 });
  await expect(member.page.getByRole('heading', { level: 1, name: 'Votre contrat' })).toBeVisible();

  // Disable the account (a staff action, in « Profil »): the member's open session stops working.
  await tabs.getByRole('link', { name: 'Profil' }).click();
  await page.getByRole('button', { name: 'Désactiver le compte' }).click();
  const disableDialog = page.getByRole('dialog', { name: 'Désactiver le compte' });
  // A destructive action: the dialog says what happens to the member and opens on the safe choice.
  await expect(disableDialog).toContainText('Le membre perd l’accès à son espace immédiatement');
  await expect(disableDialog.getByRole('button', { name: 'Ne rien changer' })).toBeFocused();
  await disableDialog.getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText('Compte désactivé', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Réactiver le compte' })).toBeVisible();
  const refused = await member.page.request.get('/api/v1/user/settings');
  expect(refused.status()).toBe(401); // signed out like any ended session (decision 100)
  await member.page.goto('/mon-compte');
  await expect(member.page).not.toHaveURL(/\/mon-compte/);

  expect(consoleErrors).toEqual([]);
  await member.context.close();
  await staffContext.close();
});
