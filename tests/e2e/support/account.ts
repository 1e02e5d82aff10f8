import type { Page } from '@playwright/test';

/** Creates an account through the sign-up page, as a visitor would (lands in /mon-compte). */
export async function createAccount(
  page: Page,
  { gender, email, password, base = '' }: { gender: 'femme' | 'homme'; email: string; password: string; base?: string },
): Promise<void> {
  await page.goto(`${base}/connexion/nouveau-compte`);
  await page.getByLabel(gender === 'femme' ? 'Une femme' : 'Un homme').check();
  await page.getByLabel('Adresse e-mail').fill(email);
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByLabel('Confirmation du mot de passe').fill(password);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
}
