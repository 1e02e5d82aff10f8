import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
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
 * Decision 118, as a member does it: the contract read and signed with the mailed code, then
 * renounced on day 3 from « Mes droits » (a Radix dialog states the consequence and the
 * deadline); nothing can be paid afterwards and the confirmation is in the mailbox. Own product
 * with a movable clock, as active-member.spec.ts.
 */
const DAY = 24 * 60 * 60 * 1000;
let product: Product;
let staff: APIRequestContext;
let base = '';

test.beforeAll(async ({ playwright }) => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'rights');
  // The embedded auth service keeps real time (decision 170): the code and the session hold across clock moves.
  staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
});
test.afterAll(async () => {
  await staff?.dispose();
  await product?.close();
});

/** Time moves through the product's own clock route, as a person moves it on `/_local/clock`. */
async function travel(page: Page, ms: number) {
  await moveAgencyClock(page.request, base, ms, [page]);
}

test.describe.configure({ mode: 'serial' });

/** Account, steps 1 to 6 through the API, the meeting held, then the contract read and signed on screen with the mailed code. */
async function signedMember(page: Page, prefix: string, earlyStart = false) {
  await page.clock.install();
  const email = `${prefix}.${Date.now()}@example.fr`;
  await createAccount(page, { gender: 'homme', email: email, password: 'bismillah-2026', base });
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/profil/);

  // Steps 1 to 6 through the API (the screens are walked by onboarding.spec.ts).
  const { id } = await answerStepsByApi(page, base, {
    renounce: earlyStart,
    meetingAt: new Date((await agencyNow(page.request, base)) + 2 * DAY),
  });
  // The meeting held (staff), then step 7: contract and signature on screen.
  await holdMeeting(staff, id, (ms) => travel(page, ms));
  await signContractOnScreen(page, base, email);
  return { email, id };
}

test('a member signs with the mailed code and renounces on day 3: no money is ever taken', async ({ page }) => {
  test.setTimeout(120_000);
  const { email } = await signedMember(page, 'renonce');
  // « Mes droits » on the contract page during the 7 days.
  await expect(page.getByRole('heading', { level: 2, name: 'Mes droits' })).toBeVisible();
  await travel(page, 3 * DAY);
  await page.reload();
  await page.getByRole('button', { name: 'Renoncer au contrat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Renoncer au contrat ?' });
  await expect(dialog).toContainText('Aucune somme ne vous sera demandée');
  await expect(dialog).toContainText('Vous pouvez renoncer jusqu’au');
  await screenshots(page, 'renonciation');
  await dialog.getByRole('button', { name: 'Oui, je renonce au contrat' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
  await expect(page.getByTestId('rights-state')).toContainText('Contrat annulé (renonciation)');
  await expect(page.getByRole('button', { name: 'Choisir une nouvelle formule' })).toBeVisible();
  const settings = (await (await page.request.get(`${base}/api/v1/user/settings`)).json()) as { state: string };
  expect(settings.state).toBe('renonce');

  // Day 8: still no payment, ever.
  await travel(page, 5 * DAY);
  for (const offer of ['file_fee', 'plan_horizon_month']) {
    expect((await page.request.get(`${base}/api/v1/user/payment-link?offer=${offer}`)).status()).toBe(409);
  }
  await expect
    .poll(async () => {
      const mails = (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as { to: string; subject: string }[];
      return mails.filter((m) => m.to === email && m.subject === 'Confirmation de votre renonciation').length;
    })
    .toBe(1);
});

test('a member pays as payment opens and withdraws three days later: refund of everything paid, mailed with the amount', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { email } = await signedMember(page, 'retracte');
  // An hour after the payment opens (00:00 Paris after the renunciation period's last day: decision 165).
  await travel(page, (await deadlinesOf(page, base)).paymentOpensAtMs + 60 * 60 * 1000 - (await agencyNow(page.request, base)));
  await page.reload();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/frais-de-dossier/);
  await page.getByRole('button', { name: 'Payer', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Paiement sécurisé' })).toBeVisible();
  await page.getByRole('button', { name: /^Payer 169,00/ }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/frais-de-dossier$/);
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Paiement sécurisé' })).toBeVisible();
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/attente/);

  await travel(page, 3 * DAY);
  await page.reload();
  await page.getByRole('button', { name: 'Me rétracter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Vous rétracter ?' });
  await expect(dialog).toContainText('remboursé dans un délai de 14 jours');
  await expect(dialog).toContainText('Vous pouvez vous rétracter jusqu’au');
  await dialog.getByRole('button', { name: 'Oui, je me rétracte' }).click();
  await expect(page).toHaveURL(/\/mon-compte$/);
  await expect(page.getByTestId('rights-state')).toContainText('Contrat résilié (rétractation)');
  await expect
    .poll(async () => {
      const mails = (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as {
        to: string;
        subject: string;
        text: string;
      }[];
      return mails.find((m) => m.to === email && m.subject === 'Confirmation de votre rétractation')?.text.replace(/\s/g, ' ') ?? '';
    })
    .toContain('Nous vous remboursons 264,00 €');
  // The refund's credit note (decision 119), listed beside the invoices, its PDF one click away.
  await page.reload();
  const notes = page.getByTestId('my-credit-notes');
  await expect(notes).toContainText('Remboursement — rétractation');
  // One per refunded payment: the file fee and the plan.
  const links = notes.getByRole('link', { name: /^Avoir AV-\d{4}-\d{6} \(PDF\)$/ });
  await expect(links).toHaveCount(2);
  const pdf = await page.request.get(`${base}${await links.first().getAttribute('href')}`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
});

test('a member who asked to start early pays as payment opens and withdraws three days later: the days elapsed stay due, the rest is refunded', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { email } = await signedMember(page, 'retracte-tot', true);
  // An hour after the payment opens (00:00 Paris after the renunciation period's last day: decision 165).
  await travel(page, (await deadlinesOf(page, base)).paymentOpensAtMs + 60 * 60 * 1000 - (await agencyNow(page.request, base)));
  await page.reload();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/frais-de-dossier/);
  await page.getByRole('button', { name: 'Payer', exact: true }).click();
  await page.getByRole('button', { name: /^Payer 169,00/ }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/frais-de-dossier$/);
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/attente/);

  await travel(page, 3 * DAY);
  await page.reload();
  await page.getByRole('button', { name: 'Me rétracter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Vous rétracter ?' });
  await expect(dialog).toContainText('le prix des jours écoulés reste dû (article L221\u201125)');
  await dialog.getByRole('button', { name: 'Oui, je me rétracte' }).click();
  await expect(page.getByTestId('rights-state')).toContainText('Contrat résilié (rétractation)');
  const text = async () => {
    const mails = (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as {
      to: string;
      subject: string;
      text: string;
    }[];
    return mails.find((m) => m.to === email && m.subject === 'Confirmation de votre rétractation')?.text.replace(/\s/g, ' ') ?? '';
  };
  await expect.poll(text).toContain('correspondant aux jours écoulés restent dus (article L221\u201125');
  // Refunded + kept = the 264,00 € paid; something is kept, something refunded.
  const mail = await text();
  const refunded = Number(/Nous vous remboursons (\d+),(\d{2})/.exec(mail)?.slice(1).join('.'));
  const kept = Number(/\s: (\d+),(\d{2}) € correspondant aux jours écoulés/.exec(mail)?.slice(1).join('.'));
  expect(kept).toBeGreaterThan(0);
  expect(refunded).toBeGreaterThan(0);
  expect(Math.round((refunded + kept) * 100)).toBe(26_400);
});
