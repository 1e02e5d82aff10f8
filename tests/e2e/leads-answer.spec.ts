import { expect, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { mailMatch } from '#tests/e2e/support/mailbox.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * Answering a lead by mail (issue 63 point 3, decision 211), as staff do it: the inbox shows each
 * lead's subject; the follow-up dialog answers with a template written for prospects, shows the
 * preview (from the agency, Reply-To the agency), sends it; the answer and its line appear in the
 * lead's history, the lead becomes « Contacté », and the mail reaches the local mailbox. Its own
 * product (it writes leads), checked at 390 and 1440 px.
 */
let base = '';
let product: Product;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'reponse-prospect');
});
test.afterAll(async () => {
  await product?.close();
});

test('staff see a lead’s subject, answer it with a template, and find the answer in its history', async ({ page, playwright }) => {
  test.setTimeout(120_000);
  await skipConsentBanner(page.context());
  const errors = watchConsole(page);
  const email = `khadija.${Date.now()}@example.fr`;

  // A visitor writes through the contact form's API.
  const visitor = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  const posted = await visitor.post('/api/v1/contact', {
    data: {
      name: 'Khadija',
      email,
      subject: 'Les formules et les prix',
      message: 'Bonjour, je voudrais connaître vos formules avant de m’inscrire.',
      consent: true,
    },
  });
  expect(posted.status()).toBe(201);
  await visitor.dispose();

  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();

  // The inbox: the subject in its own column, in words.
  await page.goto(`${base}/dashboard/prospects`);
  await expect(page.getByRole('heading', { level: 1, name: 'Prospects' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell', { name: 'Les formules et les prix' })).toBeVisible();
  await page.getByLabel('Objet').selectOption('Mon inscription');
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);
  await page.getByLabel('Objet').selectOption('Les formules et les prix');
  await expect(row).toHaveCount(1);
  await screenshots(page, 'prospects-objet');

  // The dialog: the subject, then « Répondre par e-mail » with a template for prospects.
  await row.getByRole('button', { name: `Suivre Khadija (${email})` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Objet\u00a0: Les formules et les prix').first()).toBeVisible();
  const form = dialog.getByRole('form', { name: 'Réponse par e-mail' });
  await form.getByLabel('Modèle').selectOption({ label: 'Prospect — formules et prix' });
  await expect(form.getByLabel('Objet')).toHaveValue('Nos formules d’accompagnement');
  await expect(form.getByRole('textbox', { name: 'Message', exact: true })).toHaveValue(/^Bonjour \{prenom\},/);
  await form.getByRole('button', { name: 'Voir l’aperçu' }).click();
  const preview = dialog.getByRole('region', { name: 'Aperçu de la réponse' });
  await expect(preview.getByText(`À\u00a0: ${email}`)).toBeVisible();
  await expect(preview.getByText('Réponse à\u00a0: contact@union-sincere.localhost')).toBeVisible();
  await expect(preview.getByText(/^Bonjour Khadija,/)).toBeVisible();
  await preview.scrollIntoViewIfNeeded();
  await screenshots(page, 'prospect-reponse-apercu', false);
  const sent = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/answers'));
  await preview.getByRole('button', { name: 'Envoyer la réponse' }).click();
  expect((await sent).status()).toBe(201);

  // The answer in the lead's history, its mail on its way or sent; the lead is « Contacté ».
  const answers = dialog.getByRole('list', { name: 'Réponses envoyées' });
  await expect(answers.getByText('Objet\u00a0: Nos formules d’accompagnement')).toBeVisible();
  await expect(answers.getByText(/Merci de votre intérêt pour/)).toBeVisible();
  await expect(dialog.getByText(/a répondu par e-mail\u00a0: «\u00a0Nos formules d’accompagnement\u00a0»/)).toBeVisible();
  await expect(dialog.getByText(/a changé le statut\u00a0: Nouveau → Contacté/)).toBeVisible();
  await expect(dialog.getByLabel('Statut')).toHaveValue('contacte');
  await mailMatch(page, email, /Bonjour Khadija,/, base);
  // Reopened, the delivery reads « Envoyé ».
  // Escape closes the topmost layer first: the notification still shown, then the dialog.
  await expect(async () => {
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden({ timeout: 500 });
  }).toPass({ timeout: 10_000 });
  await expect(row.getByRole('cell', { name: 'Contacté' })).toBeVisible();
  await row.getByRole('button', { name: `Suivre Khadija (${email})` }).click();
  await expect(answers.getByText('Envoyé', { exact: true })).toBeVisible();
  await answers.scrollIntoViewIfNeeded();
  await screenshots(page, 'prospect-reponse-historique', false);
  expect(errors).toEqual([]);
});
