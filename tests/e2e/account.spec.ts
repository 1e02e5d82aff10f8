import { expect, type Page, test } from '@playwright/test';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { confirmationPath } from '#tests/e2e/support/account.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/** Fails the test on any console error, as a member would notice a broken page. */

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

test('a new member creates an account, signs out and in, and recovers the password through the mailbox', async ({ page }) => {
  // Registration, confirmation, sign-outs and a reset: a long walk on a busy machine.
  test.setTimeout(150_000);
  const consoleErrors = watchConsole(page, [400]);
  const email = `nouvelle.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';

  // Create the account.
  await page.goto('/connexion/nouveau-compte');
  await expect(page.getByRole('heading', { level: 1, name: 'Créer un compte' })).toBeVisible();
  await page.getByLabel('Une femme').check();
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByLabel('Confirmation du mot de passe').fill(password);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  // Not signed in yet: the address is confirmed from the mail first (decision 187).
  await expect(page.getByRole('heading', { level: 1, name: 'Confirmez votre adresse e-mail' })).toBeVisible();
  await expect(page.getByText(new RegExp(`un e-mail vient d’être envoyé à ${email.replaceAll('.', '\\.')}`))).toBeVisible();
  await screenshots(page, 'signup-confirm-your-address');
  const firstLink = await confirmationPath(page, email);

  // Signing in before confirming: said in French, and the mail can be sent again.
  await page.goto('/connexion');
  await signIn(page, email, password);
  await expect(page.getByText(/n’est pas encore confirmée/)).toBeVisible();
  await page.getByRole('button', { name: 'Renvoyer le mail de confirmation' }).click();
  await expect(page.getByText(/un nouveau lien vient d’y être envoyé/)).toBeVisible();
  await screenshots(page, 'signin-not-confirmed');
  await expect.poll(() => confirmationPath(page, email), { timeout: 15_000 }).not.toBe(firstLink);

  // A link that no longer works says so, with a way to get a new one.
  await page.goto(firstLink);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirmation impossible' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Renvoyer le mail de confirmation' })).toBeVisible();
  await screenshots(page, 'confirmation-link-invalid');

  // The new link, opened in the browser that registered: confirmed and signed in.
  await page.goto(await confirmationPath(page, email));
  await expect(page).toHaveURL(/\/mon-compte/);

  // Sign out from the header.
  await page.getByRole('button', { name: 'Se déconnecter' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Connexion' }).first()).toBeVisible();

  // The account area is guarded: to sign-in, and back after it.
  await page.goto('/mon-compte');
  await expect(page).toHaveURL(/\/connexion\?redirect=%2Fmon-compte/);

  // A wrong password is refused with the spec's message.
  await signIn(page, email, 'mauvais-mot-de-passe');
  await expect(page.getByText('Email ou mot de passe invalide')).toBeVisible();

  // The right one opens the account area.
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/mon-compte/);
  await page.getByRole('button', { name: 'Se déconnecter' }).first().click();
  await expect(page).toHaveURL(/\/$/);

  // Recovery: a neutral answer, then the mail in the local mailbox.
  await page.goto('/connexion/recovery');
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByRole('button', { name: 'Recevoir le lien' }).click();
  await expect(page.getByText(/Si un compte existe pour cette adresse/)).toBeVisible();

  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await page.request.get('/_local/mailbox?format=json')).json()) as { to: string; text: string }[];
        // The recovery mail, not the welcome mail of the sign-up (decision 111).
        link = mails
          .filter((m) => m.to === email)
          .map((m) => m.text.match(/https?:\/\/\S+update-password\S+/)?.[0])
          .find((match) => match !== undefined);
        return link;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  await page.goto('/_local/mailbox');
  await expect(page.getByRole('heading', { name: 'Réinitialisation de votre mot de passe' }).first()).toBeVisible();
  await page.goto(new URL(link as string).pathname + new URL(link as string).search);

  const newPassword = 'nouveau-depart-2026';
  await expect(page.getByRole('heading', { level: 1, name: 'Nouveau mot de passe' })).toBeVisible();
  // Only the new password is asked; the link signs the member in (decision 127).
  await expect(page.getByLabel('Adresse e-mail')).toHaveCount(0);
  await page.getByLabel('Nouveau mot de passe').fill(newPassword);
  await page.getByLabel('Confirmation du mot de passe').fill(newPassword);
  await page.getByRole('button', { name: /enregistrer/i }).click();
  await expect(page).toHaveURL(/\/mon-compte/);
  await page.getByRole('button', { name: 'Se déconnecter' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/connexion');

  // The old password no longer works; the new one does.
  await signIn(page, email, password);
  await expect(page.getByText('Email ou mot de passe invalide')).toBeVisible();
  await signIn(page, email, newPassword);
  await expect(page).toHaveURL(/\/mon-compte/);

  expect(consoleErrors).toEqual([]);
});

test('the confirmation link opened on another device asks for the address and password chosen at registration', async ({
  page,
  browser,
}) => {
  const consoleErrors = watchConsole(page, [400]);
  const email = `autre.appareil.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';
  await page.goto('/connexion/nouveau-compte');
  await page.getByLabel('Un homme').check();
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByLabel('Confirmation du mot de passe').fill(password);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Confirmez votre adresse e-mail' })).toBeVisible();
  const link = await confirmationPath(page, email);

  // The phone never registered: its browser holds no proof of it.
  const phone = await browser.newContext();
  await skipConsentBanner(phone);
  const other = await phone.newPage();
  const otherErrors = watchConsole(other, [400]);
  await other.goto(link);
  await expect(other.getByRole('heading', { level: 1, name: 'Confirmez votre adresse e-mail' })).toBeVisible();
  await expect(other.getByText(/saisissez l’adresse e-mail et le mot de passe choisis à l’inscription/)).toBeVisible();
  await screenshots(other, 'confirmation-other-device');
  await other.getByLabel('Adresse e-mail').fill(email);
  await other.getByLabel('Mot de passe', { exact: true }).fill('pas-le-bon-mot-de-passe');
  await other.getByRole('button', { name: 'Confirmer et accéder à mon espace' }).click();
  await expect(other.getByText(/ne correspondent pas à l’inscription à confirmer/)).toBeVisible();
  await other.getByLabel('Mot de passe', { exact: true }).fill(password);
  await other.getByRole('button', { name: 'Confirmer et accéder à mon espace' }).click();
  await expect(other).toHaveURL(/\/mon-compte/);
  await phone.close();
  expect(otherErrors).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
