import { expect, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { createAccount } from '#tests/e2e/support/account.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * Nothing is asked twice (issue 21, decision 127), in the browser: the pre-registration's mail
 * opens the sign-up with the address filled in and the gender not asked again; step 1 starts with
 * the postcode and city. And the reset link asks only the new password and signs the member in.
 */

// A product of its own: its two sign-ups do not count against the shared server's limit of ten
// sign-ups an hour per address, which the other walks use up.
// One worker for both walks: one product on that port.
test.describe.configure({ mode: 'serial' });
let product: Product;
let base = '';
test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'e2e-nothing-twice');
});
test.afterAll(async () => {
  await product?.close();
});
// biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from its first argument's pattern.
test.use({ baseURL: async ({}, use) => use(base) });

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/** The first link of the local mailbox's mails to `to` that matches `pattern`. */
async function mailedLink(page: Page, to: string, pattern: RegExp): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await page.request.get('/_local/mailbox?format=json')).json()) as { to: string; text: string }[];
        link = mails
          .filter((m) => m.to === to)
          .map((m) => m.text.match(pattern)?.[0])
          .find((match) => match !== undefined);
        return link;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  const url = new URL(link as string);
  return url.pathname + url.search;
}

test('pre-registration → mail → sign-up pre-filled → step 1 pre-filled', async ({ page }) => {
  // The spent link's lookup answers 404 on purpose, at the end.
  const consoleErrors = watchConsole(page, [404]);
  const email = `prospect.${Date.now()}@example.fr`;

  // With a query string the prerendered copy is replaced by a fresh render: until then its fields
  // are disabled, so that nothing typed in them is lost. The page's code is held to see it.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/formulaire-inscription-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/formulaire-inscription?genre=homme');
  await expect(page.getByLabel('Adresse e-mail')).toBeDisabled();
  release();
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Âge').fill('31');
  await page.getByLabel('Code postal').fill('13001');
  await page.getByLabel('Ville').fill('Marseille');
  await page.getByRole('checkbox', { name: /J’accepte que mes informations/ }).check();
  await page.getByRole('button', { name: 'Je me pré-inscris' }).click();
  await expect(page).toHaveURL(/\/pre-inscription\/merci$/);

  // The confirmation mail carries an opaque link: no personal data in it.
  const link = await mailedLink(page, email, /https?:\/\/\S+nouveau-compte\?invitation=\S+/);
  expect(link).toMatch(/^\/connexion\/nouveau-compte\?invitation=[A-Za-z0-9_-]{43}$/);
  expect(link).not.toContain('13001');
  expect(link).not.toContain(email.split('@')[0]);
  await page.goto('/_local/mailbox');
  await expect(page.getByRole('heading', { name: 'Votre pré-inscription est bien reçue' }).first()).toBeVisible();

  // The sign-up: the address is there, the gender is not asked again.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Créer un compte' })).toBeVisible();
  await expect(page.getByLabel('Adresse e-mail')).toHaveValue(email);
  await expect(page.getByRole('radio')).toHaveCount(0);
  await expect(page.getByText('Vous êtes un homme (indiqué lors de votre pré-inscription).')).toBeVisible();
  await screenshots(page, 'signup-prefilled');
  await page.getByLabel('Mot de passe', { exact: true }).fill('bismillah-2026');
  await page.getByLabel('Confirmation du mot de passe').fill('bismillah-2026');
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  // The link proves the mailbox it was mailed to: no confirmation mail, signed in at once (decision 187).
  await expect(page).toHaveURL(/\/mon-compte/);

  // Step 1 starts with the postcode and the city.
  await page.goto('/mon-compte/inscription/profil');
  await expect(page.getByRole('heading', { level: 1, name: 'Vos informations personnelles' })).toBeVisible();
  await expect(page.getByLabel('Code postal')).toHaveValue('13001');
  await expect(page.getByLabel('Ville')).toHaveValue('Marseille');
  await screenshots(page, 'step1-prefilled');

  // The link is spent: opened again, the page says so and asks everything.
  await page.getByRole('button', { name: 'Se déconnecter' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(link);
  await expect(page.getByText(/Ce lien d’inscription n’est plus valable/)).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Un homme' })).toBeVisible();

  expect(consoleErrors).toEqual([]);
});

test('reset link → new password only → signed in on /mon-compte; a spent link says so', async ({ page }) => {
  const consoleErrors = watchConsole(page, [400]);
  const email = `oubli.${Date.now()}@example.fr`;
  await createAccount(page, { gender: 'femme', email, password: 'ancien-jardin-2026' });
  await page.getByRole('button', { name: 'Se déconnecter' }).first().click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/connexion/recovery');
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByRole('button', { name: 'Recevoir le lien' }).click();
  await expect(page.getByText(/Si un compte existe pour cette adresse/)).toBeVisible();
  const link = await mailedLink(page, email, /https?:\/\/\S+update-password\S+/);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Nouveau mot de passe' })).toBeVisible();
  await expect(page.getByLabel('Adresse e-mail')).toHaveCount(0);
  await screenshots(page, 'reset-new-password');
  await page.getByLabel('Nouveau mot de passe').fill('nouveau-jardin-2026');
  await page.getByLabel('Confirmation du mot de passe').fill('nouveau-jardin-2026');
  await page.getByRole('button', { name: 'Enregistrer et me connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte/);
  await expect(page.getByRole('button', { name: 'Se déconnecter' }).first()).toBeVisible();

  // The same link again: a clear French message and « Demander un nouveau lien ».
  await page.getByRole('button', { name: 'Se déconnecter' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(link);
  await page.getByLabel('Nouveau mot de passe').fill('encore-jardin-2026');
  await page.getByLabel('Confirmation du mot de passe').fill('encore-jardin-2026');
  await page.getByRole('button', { name: 'Enregistrer et me connecter' }).click();
  await expect(page.getByText('Ce lien de réinitialisation est invalide ou a expiré. Demandez-en un nouveau.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Demander un nouveau lien' })).toBeVisible();
  await expect(page.getByLabel('Nouveau mot de passe')).toHaveCount(0);
  await screenshots(page, 'reset-link-expired');

  expect(consoleErrors).toEqual([]);
});
