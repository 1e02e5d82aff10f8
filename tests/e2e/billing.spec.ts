import { expect, test } from '@playwright/test';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * Decision 120, as staff use it: « Facturation » in the dashboard's navigation, the filters (period,
 * status, type) in French, the totals, and the CSV export of the same filters (Excel-ready). The
 * instalments themselves are charged and checked over HTTP in tests/integration/instalments.test.ts.
 */
test('staff open the billing view, filter it and export it as CSV', async ({ page, baseURL, playwright }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  await signInE2EStaff(staff, 'spare');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();

  await page.goto('/dashboard');
  await page.getByRole('navigation').getByRole('link', { name: 'Facturation' }).click();
  await expect(page).toHaveURL(/\/dashboard\/facturation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Facturation' })).toBeVisible();
  await expect(page.getByTestId('billing-totals')).toContainText('Reçu :');

  await page.getByLabel('Type').selectOption({ label: 'Mensualité' });
  await page.getByLabel('Statut').selectOption({ label: 'Échouée' });
  await expect(page.getByTestId('billing-export')).toHaveAttribute(
    'href',
    '/api/v1/dashboard/billing/export?kind=instalment&status=echouee',
  );
  await page.getByLabel('Du').fill('2026-01-01');
  await page.getByLabel('Au').fill('2026-12-31');
  await expect(page.getByTestId('billing-totals')).toContainText('Mensualités échouées : 0');
  const body = await page.locator('main').innerText();
  expect(body).not.toMatch(/\b(payee|a-venir|echouee|instalment|refund|plan_[a-z_]+)\b/);
  // One typeface in the staff area: a card's title as the page's text, not the public site's serif.
  const [bodyFont, cardFont] = await page.evaluate(() =>
    [document.body, document.getElementById('billing-list-title')].map((element) => getComputedStyle(element as Element).fontFamily),
  );
  expect(cardFont).toBe(bodyFont);
  await screenshots(page, 'facturation');

  const exported = await page.request.get(`${await page.getByTestId('billing-export').getAttribute('href')}`);
  expect(exported.status()).toBe(200);
  expect(exported.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const bytes = await exported.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bytes.subarray(3).toString('utf8').split('\r\n')[0]).toBe('Date;Type;Membre;E-mail;Libellé;Montant (€);Statut;Facture;Remarque');
  expect(errors).toEqual([]);
});
