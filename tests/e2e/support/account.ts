import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { mailMatch } from '#tests/e2e/support/mailbox.ts';

/** The link of the newest registration confirmation mailed to `email`, as a path on the site. */
export async function confirmationPath(page: Page, email: string, base = ''): Promise<string> {
  const link = await mailMatch(page, email, /https?:\/\/\S+\/connexion\/confirmation\?\S+/, base);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/**
 * Creates an account through the sign-up page, as a visitor would: the form, the page asking to
 * confirm the address, then the confirmation mail's link opened in the same browser (decision
 * 187), which lands in /mon-compte.
 */
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
  await expect(page.getByRole('heading', { level: 1, name: 'Confirmez votre adresse e-mail' })).toBeVisible();
  await page.goto(`${base}${await confirmationPath(page, email, base)}`);
  await expect(page).toHaveURL(/\/mon-compte/);
}

/**
 * Registers through the API in a request context and opens the confirmation mail's link from it
 * (the same "browser": its registration cookie), as `createAccount` does through the pages. Returns
 * the confirmation's status (201: the member exists and the context is signed in).
 */
export async function registerByApi(
  api: APIRequestContext,
  body: { email: string; role: 'femme' | 'homme'; password: string },
): Promise<number> {
  const registered = await api.post('/api/v1/dashboard/subscription', { data: { context: 'init', ...body } });
  expect(registered.status(), await registered.text()).toBe(202);
  let tokenHash: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await api.get('/_local/mailbox?format=json')).json()) as { to: string; text: string }[];
        tokenHash = mails
          .filter((m) => m.to === body.email)
          .map((m) => /\/connexion\/confirmation\?token_hash=([0-9a-f]+)/.exec(m.text)?.[1])
          .find((token) => token !== undefined);
        return tokenHash;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  const confirmed = await api.post('/api/v1/auth/confirmation', { data: { tokenHash } });
  return confirmed.status();
}
