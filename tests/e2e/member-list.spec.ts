import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { adminClient } from '#bff/auth/supabase.ts';
import { parseConfig } from '#bff/config.ts';
import { seedDemoAgency } from '#bff/demo/agency.ts';
import { DEMO_ACCOUNTS, seedDemo } from '#bff/demo/seed.ts';
import type { Product } from '#bff/start.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * The member list for hundreds of members (issue 63 point 3, decision 210), on the demo agency:
 * the administration filters the list (in the URL), sorts it by a column header, chooses the page
 * size, ticks ten members and entrusts them to the demo counsellor in a dialog; then exports the
 * filtered list as CSV and finds that export, with its filters in words, in « Journal des accès ».
 * Its own product (the demo agency is written into its database).
 */
let base = '';
const COUNSELLOR = DEMO_ACCOUNTS.find((a) => a.kind === 'staff' && 'staffRole' in a) as { name: string; email: string };
let product: Product;
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'liste-membres');
  const admin = adminClient(product.auth);
  await seedDemo(admin, product.database.db);
  const staff = DEMO_ACCOUNTS.filter((a) => a.kind === 'staff');
  await seedDemoAgency(admin, product.database.db, parseConfig({ NODE_ENV: 'test', PUBLIC_SITE_URL: base, DEMO_DATA: 'false' }), {
    now: product.clock.now(),
    staffEmail: staff[0]?.email ?? '',
    counsellorEmail: staff[1]?.email ?? '',
  });
});
test.afterAll(async () => {
  await product?.close();
});

test('filter, sort, page size; entrust ten members to a counsellor; export the filtered list and find it in the journal', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const api = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(api, 'spare');
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  await skipConsentBanner(context);
  await context.addCookies((await api.storageState()).cookies);
  const page = await context.newPage();
  const errors = watchConsole(page);

  await page.goto('/dashboard');
  const list = page.getByRole('region', { name: 'Membres', exact: true });
  const rows = list.getByTestId('member-row');
  await expect(rows.first()).toBeVisible();

  // Filters: members nobody follows yet, 50 a page; the URL keeps them.
  await list.getByRole('combobox', { name: 'Conseiller', exact: true }).selectOption({ label: 'Sans conseiller' });
  await list.getByLabel('Par page').selectOption('50');
  await expect(page).toHaveURL(/counsellor=aucun/);
  await expect(page).toHaveURL(/perPage=50/);
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeGreaterThanOrEqual(10);
  const total = Number((await list.locator('caption').innerText()).replace(/\D/g, ''));
  await expect(rows.filter({ hasText: COUNSELLOR.name })).toHaveCount(0);

  // Sorting by a column header: aria-sort says the order.
  const nameHeader = list.getByRole('columnheader', { name: /Nom/ });
  await expect(nameHeader).toHaveAttribute('aria-sort', 'none');
  await nameHeader.getByRole('button').click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=name/);
  await nameHeader.getByRole('button').click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');

  // Ten members ticked, one by one with the keyboard's space bar for the first.
  const boxes = rows.getByRole('checkbox');
  await boxes.first().focus();
  await page.keyboard.press('Space');
  for (let i = 1; i < 10; i += 1) await boxes.nth(i).check();
  await expect(list.getByTestId('selection-count')).toHaveText('10 membres sélectionnés');
  const chosen = await rows.evaluateAll((trs) => trs.slice(0, 10).map((tr) => tr.querySelector('a')?.getAttribute('href') ?? ''));
  await screenshots(page, 'liste-membres-selection');

  // Entrusted in a dialog.
  await list.getByRole('button', { name: 'Confier à…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confier les membres choisis' });
  await dialog.getByLabel('Conseiller·ère').selectOption({ label: COUNSELLOR.name });
  await screenshots(page, 'liste-membres-confier');
  await dialog.getByRole('button', { name: 'Confier', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(list.getByRole('status')).toHaveText(`10 membres confiés à ${COUNSELLOR.name}.`);
  // They left the « Sans conseiller » list; the counsellor's filter finds them.
  await expect(list.locator('caption')).toHaveText(new RegExp(`^${total - 10}\\s+membres$`));
  await list.getByRole('combobox', { name: 'Conseiller', exact: true }).selectOption({ label: COUNSELLOR.name });
  // The former page stays on screen while the new one loads (TanStack Query keeps it): wait for the new rows.
  const readHrefs = () => rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('a')?.getAttribute('href') ?? ''));
  await expect.poll(readHrefs).toEqual(expect.arrayContaining(chosen));
  const hrefs = await readHrefs();
  await expect(rows.filter({ hasText: COUNSELLOR.name })).toHaveCount(hrefs.length);

  // Export the filtered list: women of this counsellor.
  await list.getByLabel('Sexe').selectOption({ label: 'Femmes' });
  await expect(page).toHaveURL(/gender=femme/);
  // The section is aria-busy while the filtered page loads (the former one stays on screen meanwhile).
  await expect(list).toHaveAttribute('aria-busy', 'false');
  await expect(rows.first()).toBeVisible();
  const women = await rows.count();
  await screenshots(page, 'liste-membres-filtree');
  const [download] = await Promise.all([page.waitForEvent('download'), list.getByTestId('members-export').click()]);
  expect(download.suggestedFilename()).toMatch(/^membres-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path()) as string, 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('Nom;E-mail;Sexe;Âge;Région;Étape;Conseiller·ère;Étiquettes;Inscription;Dernière activité;Compte');
  expect(lines.length - 1).toBe(women);
  expect(lines.slice(1).every((line) => line.includes(';Femme;') && line.includes(COUNSELLOR.name))).toBe(true);

  // The export in « Journal des accès », with its filters in words.
  await page.getByRole('navigation', { name: 'Navigation de l’équipe' }).getByRole('link', { name: 'Journal des accès' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Journal des accès' })).toBeVisible();
  const entry = page.getByTestId('journal-entries').getByRole('row').filter({ hasText: 'Export de la liste des membres' }).first();
  await expect(entry).toContainText('sexe\u00a0: Femme');
  // The counsellor filter by name, never an id.
  await expect(entry).toContainText(`conseiller·ère\u00a0: ${COUNSELLOR.name}`);
  await expect(entry).toContainText('spare');
  await screenshots(page, 'journal-export-liste');
  expect(errors).toEqual([]);
  await context.close();
  await api.dispose();
});
