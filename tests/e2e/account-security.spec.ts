import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { mailMatch } from '#tests/e2e/support/mailbox.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';

/**
 * Changing an address or a password is safe (issue 19, decision 102): from Mon profil a member
 * changes the password (with the current one), then the address, which applies only once the
 * link mailed to the new address is followed; the member then signs in with the new address.
 */

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

test('a member changes the password, then the address confirmed from the new mailbox, and signs in with it', async ({ page }) => {
  const consoleErrors = watchConsole(page, [400]);
  const email = `avant.${Date.now()}@example.fr`;
  const next = `apres.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';
  const newPassword = 'nouveau-depart-2026';

  await createAccount(page, { gender: 'femme', email, password });
  await expect(page).toHaveURL(/\/mon-compte/);
  await page.goto('/mon-compte/mon-profil');
  await expect(page.getByRole('heading', { level: 1, name: 'Mon profil' })).toBeVisible();

  // « Mot de passe »: an empty form puts the focus on the first field in error, described by its message.
  const passwordSection = page.getByRole('region', { name: 'Mot de passe' });
  await passwordSection.getByRole('button', { name: 'Changer de mot de passe' }).click();
  const current = passwordSection.getByLabel('Mot de passe actuel');
  await expect(current).toBeFocused();
  await expect(current).toHaveAttribute('aria-invalid', 'true');
  await expect(current).toHaveAccessibleDescription('Saisissez votre mot de passe actuel');

  // A wrong current password is refused by the server, on that field.
  await current.fill('pas-le-bon');
  await passwordSection.getByLabel('Nouveau mot de passe', { exact: true }).fill(newPassword);
  await passwordSection.getByLabel('Confirmation du nouveau mot de passe').fill(newPassword);
  await passwordSection.getByRole('button', { name: 'Changer de mot de passe' }).click();
  await expect(current).toHaveAccessibleDescription('Mot de passe actuel incorrect.');
  await expect(current).toBeFocused();

  await current.fill(password);
  await passwordSection.getByLabel('Nouveau mot de passe', { exact: true }).fill(newPassword);
  await passwordSection.getByLabel('Confirmation du nouveau mot de passe').fill(newPassword);
  await passwordSection.getByRole('button', { name: 'Changer de mot de passe' }).click();
  await expect(passwordSection.getByRole('status')).toContainText('Votre mot de passe a été modifié');

  // « Adresse e-mail »: the request leaves the address as it is until confirmed.
  const emailSection = page.getByRole('region', { name: 'Adresse e-mail' });
  await expect(emailSection.getByTestId('current-email')).toHaveText(email);
  await emailSection.getByLabel('Nouvelle adresse e-mail').fill(next);
  await emailSection.getByLabel('Mot de passe actuel').fill(newPassword);
  await emailSection.getByRole('button', { name: 'Changer d’adresse' }).click();
  await expect(emailSection.getByRole('status').first()).toContainText(`Un lien de confirmation a été envoyé à ${next}`);
  await expect(emailSection.getByTestId('pending-email')).toHaveText(next);
  await expect(emailSection.getByTestId('current-email')).toHaveText(email);
  await screenshots(page, 'mon-profil-pending');
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The old address is told; the new one gets the link, which lands on the site's page.
  expect(await mailMatch(page, email, /vers \S+@\S+ vient d’être faite/)).toContain(next);
  const confirmation = new URL(await mailMatch(page, next, /https?:\/\/\S+confirmer-email\S+/));
  expect(confirmation.searchParams.get('type')).toBe('email_change');
  await page.goto(confirmation.pathname + confirmation.search);
  await expect(page.getByRole('heading', { level: 1, name: 'Adresse e-mail confirmée' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText(`l’adresse de votre compte est désormais ${next}`);
  await screenshots(page, 'confirmer-email');
  const axeConfirm = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axeConfirm.violations.map((v) => v.id)).toEqual([]);

  await page.getByRole('link', { name: 'Retour à Mon profil' }).click();
  await expect(page.getByRole('region', { name: 'Adresse e-mail' }).getByTestId('current-email')).toHaveText(next);
  await expect(page.getByTestId('pending-email')).toHaveCount(0);

  // Signed out, the new address and the new password open the account; the old address no longer does.
  await page.getByRole('button', { name: 'Se déconnecter' }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/connexion');
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByText('Email ou mot de passe invalide')).toBeVisible();
  await page.getByLabel('Adresse e-mail').fill(next);
  await page.getByLabel('Mot de passe', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/mon-compte/);

  expect(consoleErrors).toEqual([]);
});
