import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { answerStepsByApi, holdMeeting, signContractOnScreen } from '#tests/e2e/support/steps-by-api.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { agencyNow, moveAgencyClock } from '#tests/e2e/support/agency-clock.ts';
import type { Product } from '#bff/start.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { deadlinesOf } from '#tests/e2e/support/deadlines.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * The end of onboarding crosses the legal periods (7 days before any payment after signature,
 * 14 days of withdrawal), so this walk runs its own product and moves its clock through
 * `POST /_local/clock` (every job due on the way runs) — the shared e2e server's time never
 * moves — and moves the browser's clock to the same instant.
 */
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
let product: Product;
let base = '';

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'active');
});
test.afterAll(async () => {
  await product?.close();
});

// One product on one port: the walk, then its clock's page.
test.describe.configure({ mode: 'serial' });

/** Time moves through the product's own clock route, as a person moves it on `/_local/clock`. */
async function travel(page: Page, ms: number) {
  await moveAgencyClock(page.request, base, ms, [page]);
}

test('a member goes from the signed contract to active member across the 7- and 14-day periods', async ({ page, playwright, browser }) => {
  test.setTimeout(120_000);
  await page.clock.install();
  const email = `active.${Date.now()}@example.fr`;
  await createAccount(page, { gender: 'homme', email: email, password: 'bismillah-2026', base });
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/profil/);

  // Steps 1 to 6 through the API (the screens are walked by onboarding.spec.ts).
  const { id } = await answerStepsByApi(page, base, {
    renounce: false,
    meetingAt: new Date((await agencyNow(page.request, base)) + 2 * DAY),
  });
  // The embedded auth service keeps real time (decision 170): the code and the session hold across clock moves.
  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
  const staffPost = async (data: Record<string, unknown>) => {
    const response = await staff.post('/api/v1/user/update', { data });
    expect(response.status(), await response.text()).toBe(200);
  };
  // The meeting held, then step 7: contract and signature on screen.
  await holdMeeting(staff, id, (ms) => travel(page, ms));
  await signContractOnScreen(page, base, email);
  await expect(page.getByRole('button', { name: /^Payer/ })).toHaveCount(0);
  // The server refuses any payment before the 7 days: payment links, and the checkout page itself.
  for (const offer of ['file_fee', 'plan_horizon_month']) {
    const refused = await page.request.get(`${base}/api/v1/user/payment-link?offer=${offer}`);
    expect(refused.status()).toBe(409);
  }
  const checkout = await page.request.get(
    `${base}/_local/checkout/file_fee?client_reference_id=${id}&prefilled_email=${encodeURIComponent(email)}`,
  );
  expect(checkout.status()).toBe(409);
  expect(await checkout.text()).toContain('Paiement impossible pour le moment');

  // An hour after the renunciation period ends (00:00 Paris after its last day, civil days: decision
  // 165): the payment step, file fee and first instalment, one total.
  const deadlines = await deadlinesOf(page, base);
  await travel(page, deadlines.paymentOpensAtMs + HOUR - (await agencyNow(page.request, base)));
  await page.reload();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/frais-de-dossier/);
  await expect(page.getByRole('heading', { level: 1, name: 'Paiement' })).toBeVisible();
  await expect(page.getByText('Étape 8 sur 9')).toBeVisible();
  await expect(page.getByTestId('line-file-fee')).toContainText('169,00');
  await expect(page.getByTestId('line-subscription')).toContainText('95,00');
  await expect(page.getByTestId('payment-total')).toContainText('264,00');
  await screenshots(page, 'paiement');
  // A code staff created (decision 195), typed by the member: it waives the file fee, settled
  // without any checkout (no « Payer 0,00 € »).
  const code = `OFFERT${Date.now()}`;
  const created = await staff.post('/api/v1/dashboard/coupons', {
    data: { code, discount: { kind: 'waiver' }, validFrom: '2020-01-01', validUntil: '2099-12-31', maxUses: 1 },
  });
  expect(created.status()).toBe(201);
  await page.getByLabel('Code avantage (facultatif)').fill('INCONNU');
  await page.getByRole('button', { name: 'Appliquer le code' }).click();
  await expect(page.getByText('Ce code n’existe pas')).toBeVisible();
  await expect(page.getByTestId('payment-total')).toContainText('264,00');
  await page.getByLabel('Code avantage (facultatif)').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Appliquer le code' }).click();
  await expect(page.getByText('Un accompagnement de 6 mois sans frais supplémentaires')).toBeVisible();
  await expect(page.getByTestId('line-file-fee')).toContainText('offerts par votre code avantage');
  await expect(page.getByTestId('payment-total')).toContainText('95,00');
  await expect(page.getByRole('button', { name: 'Appliquer le code' })).toHaveCount(0);
  await expect(page.getByText(/Frais de dossier offerts\. Reste à régler\s: 95,00/)).toBeVisible();
  // One payment left, and the page says so (not « en deux passages »).
  await expect(page.getByText(/pour l’abonnement seul/)).toBeVisible();
  await expect(page.getByText(/en deux passages/)).toHaveCount(0);
  await screenshots(page, 'paiement-code-avantage');
  // One "Payer": the first instalment alone, on the secure page.
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Paiement sécurisé' })).toBeVisible();
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/attente/);
  await expect(page.getByRole('heading', { level: 1, name: 'Bientôt votre première mise en relation' })).toBeVisible();

  // Before the 14-day withdrawal period ends, staff cannot record the matchmaking meeting.
  const tooEarly = await staff.post('/api/v1/user/update', { data: { context: 'meeting_mm', uid: id } });
  expect(tooEarly.status()).toBe(409);
  await travel(page, deadlines.withdrawal.endsAtMs + HOUR - (await agencyNow(page.request, base)));
  await staffPost({ context: 'meeting_mm', uid: id });

  // Staff read the member's payments on « Facturation »: on a phone each line is a card whose
  // cells name their columns.
  const staffContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await skipConsentBanner(staffContext);
  await staffContext.addCookies((await staff.storageState()).cookies);
  await staff.dispose();
  const staffPage = await staffContext.newPage();
  await staffPage.goto(`${base}/dashboard/facturation`);
  const rows = staffPage.getByTestId('billing-entries').locator('tbody tr');
  // The six instalments, the first one paid; the waived file fee took no money and has no line.
  await expect(rows.filter({ hasText: 'Youssef Haddad' })).toHaveCount(6);
  await expect(rows.filter({ hasText: 'mensualité 1 sur 6' })).toContainText('Payée');
  const firstRow = rows.first();
  await expect(firstRow.locator('td[data-label="Montant"]')).toBeVisible();
  const labels = await firstRow.locator('td').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
  expect(labels).toEqual(['"Date"', '"Type"', '"Membre"', '"Libellé"', '"Montant"', '"Statut"', '"Facture"']);
  await screenshots(staffPage, 'facturation-lignes');
  await staffContext.close();

  await page.goto(`${base}/mon-compte`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mon compte' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Votre accompagnement' })).toBeVisible();
  const settings = (await (await page.request.get(`${base}/api/v1/user/settings`)).json()) as {
    state: string;
    subscription: { subscriptionFeesPaid: boolean };
  };
  expect(settings.state).toBe('membre-actif');
  expect(settings.subscription.subscriptionFeesPaid).toBe(true);
  // Her schedule: six lines, the first paid; at 390 px each line a card whose words and amounts
  // stay whole (the screenshot helper fails on a word or number cut in a table).
  const schedule = page.getByTestId('instalment-schedule');
  await expect(schedule.locator('tbody tr')).toHaveCount(6);
  await expect(schedule.locator('tbody tr').first()).toContainText('Payée');
  await screenshots(page, 'mon-compte-echeancier');
});

test('the clock’s page moves the agency’s date from the keyboard, in French, accessible', async ({ page }) => {
  await page.goto(`${base}/_local/clock`);
  await expect(page.getByRole('heading', { level: 1, name: 'Horloge de l’agence' })).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  const before = await agencyNow(page.request, base);
  await page.getByLabel('Nombre de jours').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText('L’horloge est au');
  expect(await agencyNow(page.request, base)).toBeGreaterThanOrEqual(before + 2 * DAY);
  await screenshots(page, 'horloge-agence');
  // Backwards is refused with a French message, the date unchanged.
  await page.getByLabel('Nombre de jours').fill('-1');
  await page.getByLabel('Nombre de jours').evaluate((input) => input.removeAttribute('min'));
  await page.getByRole('button', { name: 'Avancer l’horloge' }).click();
  await expect(page.getByRole('alert')).toContainText('L’horloge de l’agence ne recule pas');
});
