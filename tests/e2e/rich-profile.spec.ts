import { expect, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { createAccount } from '#tests/e2e/support/account.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

// Its own product: the shared server's ten registrations an hour from one address belong to the other walks.
let base = '';
let product: Product;
test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'profil-riche');
});
test.afterAll(async () => {
  await product?.close();
});

/**
 * Step 1 with the richer profile (issue 62 point 8, decision 208): a woman is asked the hijab and
 * never the beard, answers languages, level, height and school of thought, and the step is saved
 * under the sensitive-data consent. Seen at 390 and 1440 px.
 */
test('a woman answers languages, level, height, hijab and school of thought at step 1', async ({ page }) => {
  test.setTimeout(90_000);
  const consoleErrors = watchConsole(page, [400]);
  await createAccount(page, { gender: 'femme', email: `profil-riche.${Date.now()}@example.fr`, password: 'bismillah-2026', base });
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/profil/);

  await expect(page.getByRole('group', { name: /Portez-vous le voile/ })).toBeVisible();
  await expect(page.getByRole('group', { name: /Portez-vous la barbe/ })).toHaveCount(0);

  await page.getByLabel('Prénom').fill('Amina');
  await page.getByLabel('Nom', { exact: true }).fill('Benali');
  await page.getByLabel('Date de naissance').fill('1992-04-17');
  await page.getByLabel('Téléphone').fill('06 12 34 56 78');
  await page.getByLabel('Code postal').fill('69003');
  await page.getByLabel('Ville').fill('Lyon');
  await page.getByRole('radio', { name: 'Célibataire' }).check();
  await page.getByLabel('Profession').fill('Infirmière');
  await page.getByRole('radio', { name: 'Bac + 5 (master, école d’ingénieur…)' }).check();
  await page.getByRole('checkbox', { name: 'Français' }).check();
  await page.getByRole('checkbox', { name: 'Arabe', exact: true }).check();
  await page.getByLabel('Taille en centimètres (facultatif)').fill('300');
  await page.getByRole('radio', { name: 'Les cinq prières quotidiennes' }).check();
  await page
    .getByRole('group', { name: /Portez-vous le voile/ })
    .getByRole('radio', { name: 'Parfois' })
    .check();
  await page.getByRole('radio', { name: 'Malikite' }).check();
  await page.getByRole('checkbox', { name: /J’accepte que l’agence traite mes informations sur ma pratique religieuse/ }).check();
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();
  // A height out of bounds: said in French, on the field.
  await expect(page.getByText('Taille invalide (entre 130 et 230\u00a0cm)')).toBeVisible();
  await screenshots(page, 'profil-riche-erreur');

  await page.getByLabel('Taille en centimètres (facultatif)').fill('165');
  await page.getByRole('button', { name: 'Enregistrer et continuer' }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/questionnaire-profil/);

  const answers = await page.evaluate(async () => (await fetch('/api/v1/user/answers')).json());
  expect(answers.profile).toMatchObject({
    languages: ['francais', 'arabe'],
    educationLevel: 'bac-5',
    heightCm: 165,
    hijab: 'parfois',
    madhhab: 'malikite',
  });
  expect(answers.profile).not.toHaveProperty('beard');
  expect(consoleErrors).toEqual([]);
});
