import { expect, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { draftHolds } from '#tests/e2e/support/drafts.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import type { Product } from '#bff/start.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

// Its own product: the shared server's registrations from one address are limited to ten an hour
// (bff/http/rate-limit.ts), which the other walks use up.
let base = '';
let product: Product | undefined;

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'brouillon');
});
test.afterAll(async () => {
  await product?.close();
});

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * Issue 21, the member's side: on a phone the 9-step progress is one line with a bar and a
 * disclosure to the full list; the step-1 answers typed and not saved survive a reload, and are
 * gone once saved.
 */
test('a phone shows the progress in one line; unsaved answers survive a reload', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleErrors = watchConsole(page, [400, 409]);
  await page.setViewportSize({ width: 390, height: 844 });
  await createAccount(page, { gender: 'femme', email: `brouillon.${Date.now()}@example.fr`, password: 'bismillah-2026', base });
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/profil/);

  const nav = page.getByRole('navigation', { name: /Étape 1 sur 9 — / });
  await expect(nav).toBeVisible();
  const box = await nav.boundingBox();
  expect(box?.height ?? 999).toBeLessThanOrEqual(70);
  const toggle = nav.getByRole('button', { name: 'Toutes les étapes' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.locator('li').first()).toBeHidden();
  await screenshots(page, 'progression-telephone', false);
  await toggle.click();
  await expect(nav.getByRole('button', { name: 'Masquer les étapes' })).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.locator('li')).toHaveCount(9);
  await expect(nav.locator('li').nth(8)).toBeVisible();

  // Desktop: the list as before, no button.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(nav.getByRole('button')).toBeHidden();
  await expect(nav.locator('li').first()).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });

  // A draft: typed, not saved, reloaded.
  await page.getByLabel('Prénom').fill('Amina');
  await page.getByLabel('Ville').fill('Roubaix');
  await page.getByLabel('Célibataire').check();
  await draftHolds(page, ['Amina', 'Roubaix', await page.getByLabel('Célibataire').inputValue()]);
  await page.reload();
  await expect(page.getByLabel('Prénom')).toHaveValue('Amina');
  await expect(page.getByLabel('Ville')).toHaveValue('Roubaix');
  await expect(page.getByLabel('Célibataire')).toBeChecked();
  // The consent is never kept.
  await expect(page.getByRole('checkbox', { name: /J’accepte que l’agence traite/ })).not.toBeChecked();
  expect(consoleErrors).toEqual([]);
});
