import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';

/** Fails the test on any console error, as a member would notice a broken page. */

test('a member withdraws a consent, downloads their data and erases their account', async ({ page, baseURL }) => {
  const consoleErrors = watchConsole(page, [400, 401, 409]);
  const email = `droits.${Date.now()}@example.fr`;
  const password = 'bismillah-2026';

  // An account, and step 1 saved with the explicit consent to sensitive data.
  await createAccount(page, { gender: 'femme', email: email, password: password });
  await expect(page).toHaveURL(/\/mon-compte/);
  const saved = await page.request.post('/api/v1/user/update', {
    headers: { origin: baseURL as string },
    data: {
      context: 'profil',
      firstName: 'Nadiya',
      lastName: 'Effaçable',
      birthDate: '1991-06-12',
      phone: '06 55 44 33 22',
      postcode: '31000',
      city: 'Toulouse',
      maritalStatus: 'celibataire',
      childrenCount: 0,
      profession: 'Pharmacienne',
      prayerPractice: 'cinq-prieres',
      practiceDetails: '',
      sensitiveDataConsent: true,
    },
  });
  expect(saved.status()).toBe(200);

  // « Mon profil »: the consent, given, with its text; withdrawing it takes one confirmation.
  await page.goto('/mon-compte/mon-profil');
  await expect(page.getByRole('heading', { name: 'Mes consentements' })).toBeVisible();
  const consent = page.getByTestId('consent-sensitive_data');
  await expect(consent).toContainText('Donné le');
  await expect(consent).toContainText('pratique religieuse');
  await consent.getByRole('button', { name: 'Retirer ce consentement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retirer votre consentement ?' });
  await expect(dialog).toContainText('la recherche de profils compatibles est suspendue');
  await dialog.getByRole('button', { name: 'Oui, retirer mon consentement' }).click();
  await expect(dialog).toBeHidden();
  await expect(consent).toContainText('Retiré le');
  await expect(page.getByTestId('matchmaking-paused')).toContainText('Recherche de profils suspendue');

  // Export: a JSON file with the member's data.
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Télécharger mes données (JSON)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^union-sincere-mes-donnees-\d{4}-\d{2}-\d{2}\.json$/);
  // biome-ignore lint/suspicious/noExplicitAny: the export is checked field by field
  const data = JSON.parse(readFileSync((await download.path()) as string, 'utf8')) as Record<string, any>;
  expect(data.account.email).toBe(email);
  expect(data.profile.firstName).toBe('Nadiya');
  expect(data.profile.prayerPractice).toBeUndefined();
  expect(data.consents.map((c: { kind: string; given: boolean }) => `${c.kind}:${c.given}`)).toEqual([
    'sensitive_data:true',
    'sensitive_data:false',
  ]);

  // Erasure: a Radix dialog, the e-mail typed again; a wrong one is refused.
  await page.getByRole('button', { name: 'Supprimer mon compte…' }).click();
  const erase = page.getByRole('dialog', { name: 'Supprimer définitivement votre compte ?' });
  const typedEmail = erase.getByLabel('Adresse e-mail du compte');
  await typedEmail.fill('quelquun.dautre@example.fr');
  await erase.getByRole('button', { name: 'Supprimer définitivement' }).click();
  await expect(typedEmail).toHaveAccessibleDescription('Saisissez l’adresse e-mail de votre compte, exactement.');
  await expect(typedEmail).toBeFocused();
  // While the erasure runs (the request held here), the dialog cannot be closed, by Escape or
  // « Annuler »: the member sees it through.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/v1/user/erase', async (route) => {
    await held;
    await route.continue();
  });
  await typedEmail.fill(email);
  await erase.getByRole('button', { name: 'Supprimer définitivement' }).click();
  await expect(erase.getByRole('button', { name: 'Suppression…' })).toBeVisible();
  await page.keyboard.press('Escape');
  await erase.getByRole('button', { name: 'Annuler' }).click();
  await expect(erase).toBeVisible();
  release();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Votre compte a été supprimé', { exact: true })).toBeVisible();

  // Signed out everywhere; the account no longer exists.
  expect((await page.request.get('/api/v1/user/settings')).status()).toBe(401);
  await page.goto('/mon-compte');
  await expect(page).toHaveURL(/\/connexion/);
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByText('Email ou mot de passe invalide')).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
