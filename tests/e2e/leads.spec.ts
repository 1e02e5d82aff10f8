import { expect, test } from '@playwright/test';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { E2E_STAFF_DISPLAY_NAMES, signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * The leads inbox (issue 21, decision 112): a visitor writes through the contact form, a member of
 * staff finds the message in `/dashboard/prospects`, takes it on, sets a follow-up date, marks it
 * contacted and adds a note; the history says who did what.
 */
test('a contact message reaches the leads inbox, where staff follow it up', async ({ page, browser, baseURL, playwright }) => {
  test.setTimeout(90_000);
  const tag = `prospect.${Date.now()}`;
  const email = `${tag}@example.fr`;

  // The visitor, in their own browser context.
  const visitor = await browser.newContext();
  await skipConsentBanner(visitor);
  const visitorPage = await visitor.newPage();
  await visitorPage.goto('/contactez-agence-matrimoniale-musulmane');
  const form = visitorPage.getByRole('complementary', { name: 'Formulaire' });
  await form.getByLabel('Nom ou prénom').fill('Khadija Prospect');
  await form.getByLabel('Adresse e-mail').fill(email);
  await form.getByLabel('Objet').selectOption('Les formules et les prix');
  await form.getByLabel('Message', { exact: true }).fill('Bonjour, je voudrais connaître les formules pour un premier entretien.');
  await form.getByRole('checkbox').check();
  const posted = visitorPage.waitForResponse((r) => r.url().endsWith('/api/v1/contact'));
  await form.getByRole('button', { name: 'Envoyer mon message' }).click();
  expect((await posted).status()).toBe(201);
  await visitor.close();

  // Staff: password and second factor through the API (writes carry the site's Origin), then the
  // session's cookies go to the page's context.
  const errors = watchConsole(page);
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  await signInE2EStaff(staff, 'leads');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Des prospects aux membres' })).toBeVisible();
  await page.getByRole('navigation').getByRole('link', { name: 'Prospects' }).click();
  await expect(page).toHaveURL(/\/dashboard\/prospects$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Prospects' })).toBeVisible();

  await page.getByLabel('Rechercher (nom, e-mail, ville, message)').fill(tag);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell', { name: 'Message de contact' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Nouveau' })).toBeVisible();
  await screenshots(page, 'prospects');
  // On a phone the rows are stacked, each cell naming its column: nothing scrolls sideways.
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const table = page.getByRole('table');
  expect(await table.evaluate((el) => (el.parentElement as HTMLElement).scrollWidth <= (el.parentElement as HTMLElement).clientWidth)).toBe(
    true,
  );
  expect(
    await row
      .locator('td')
      .nth(4)
      .evaluate((td) => getComputedStyle(td, '::before').content),
  ).toBe('"Statut"');
  const address = await row.getByText(email).boundingBox();
  expect(address && address.x >= 0 && address.x + address.width <= 390).toBe(true);
  if (size) await page.setViewportSize(size);

  // The follow-up dialog, by keyboard where it matters.
  await row.getByRole('button', { name: `Suivre Khadija Prospect (${email})` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: `Message de contact : Khadija Prospect (${email})` })).toBeVisible();
  await expect(dialog.getByText('je voudrais connaître les formules')).toBeVisible();
  await dialog.getByLabel('Statut').selectOption('contacte');
  await dialog.getByRole('button', { name: 'M’en charger' }).click();
  await dialog.getByLabel('Date de relance').fill('2030-01-15');
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/api/v1/dashboard/leads/'));
  await dialog.getByRole('button', { name: 'Enregistrer le suivi' }).click();
  expect((await saved).status()).toBe(200);
  await dialog.getByLabel('Nouvelle note').fill('Appelée ce matin : rappeler après ses vacances.');
  await dialog.getByRole('button', { name: 'Ajouter la note' }).click();
  await expect(dialog.getByText('Appelée ce matin : rappeler après ses vacances.')).toBeVisible();
  const name = E2E_STAFF_DISPLAY_NAMES.leads;
  await expect(dialog.getByText(`${name} a changé le statut : Nouveau → Contacté`)).toBeVisible();
  await expect(dialog.getByText(`${name} a ajouté une note`)).toBeVisible();
  await screenshots(page, 'prospects-suivi', false);
  // Escape closes the topmost layer first: the notifications still shown, then the dialog.
  await expect(async () => {
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden({ timeout: 500 });
  }).toPass({ timeout: 10_000 });

  // The list shows the change; the status and assignee filters find it.
  await expect(row.getByRole('cell', { name: 'Contacté' })).toBeVisible();
  await expect(row.getByRole('cell', { name })).toBeVisible();
  await expect(row.getByText('15 janv. 2030')).toBeVisible();
  await page.getByLabel('Statut').selectOption('sans_suite');
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);
  await page.getByLabel('Statut').selectOption('contacte');
  await page.getByLabel('En charge').selectOption({ label: `Moi (${name})` });
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(1);

  // She asks for her data to be erased (decision 157): from the same dialog, after a confirmation.
  await row.getByRole('button', { name: `Suivre Khadija Prospect (${email})` }).click();
  await expect(dialog.getByRole('heading', { name: 'Demande d’effacement' })).toBeVisible();
  const erase = dialog.getByRole('button', { name: `Effacer les données de ${email}` });
  await erase.click();
  const confirm = page.getByRole('dialog', { name: `Effacer les données de ${email}\u00a0?` });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByText('sont supprimés définitivement')).toBeVisible();
  // « Annuler » has the focus first; cancelling goes back to the button.
  await expect(confirm.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(erase).toBeFocused();
  await erase.click();
  await screenshots(page, 'prospects-effacement', false);
  const erased = page.waitForResponse((r) => r.url().endsWith('/erase'));
  await confirm.getByRole('button', { name: 'Effacer définitivement' }).click();
  expect((await erased).status()).toBe(200);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText(`Données de ${email} effacées.`, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Boîte des prospects' })).toBeFocused();
  await page.getByLabel('Statut').selectOption('');
  await page.getByLabel('En charge').selectOption('');
  await expect(page.getByText('Aucun prospect ne correspond à ces critères.')).toBeVisible();
  expect(errors).toEqual([]);
});
