import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { dayAfterText, untilText } from '#machines/onboarding/deadline-texts.ts';
import { instantMs } from '#machines/onboarding/instant.ts';
import { instalmentDueAt } from '#machines/onboarding/instalments.ts';
import { addCalendarDays, isWorkingDay } from '#machines/onboarding/legal-deadlines.ts';
import { contractEndsAtMs, terminationRefundCents } from '#machines/onboarding/periods.ts';
import { FILE_FEE_CENTS, formatEuros, planById } from '#machines/onboarding/plans.ts';
import { parisDayOf, parisDayStartMs } from '#machines/paris-time.ts';
import { createAccount } from '#tests/e2e/support/account.ts';
import { agencyNow, moveAgencyClock } from '#tests/e2e/support/agency-clock.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { deadlinesOf } from '#tests/e2e/support/deadlines.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { answerStepsByApi, holdMeeting, signContractOnScreen } from '#tests/e2e/support/steps-by-api.ts';
import { samplePdf } from '#tests/support/termination.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * A contract's life with the agency's clock moved through `/_local/clock` (issue 59, « Shown by »),
 * as a member and staff would, on its own product (real time otherwise; the clock only moves ahead):
 * - (c) signed on a Saturday: payment opens at 00:00 Paris the day after the 7 whole civil days,
 *   the last one moved past the weekend (or a holiday) as `machines/`' civil-day function says;
 * - (a) the same member, active on a monthly plan, asks to terminate; the instalment due during the
 *   review is taken; staff accept: the refund counts every payment, and nothing is charged after;
 * - (b) another member renounces on day 3: no mail asks her to pay on day 7, none speaks of the next
 *   step on day 14.
 * Screens shot at 390 and 1440 px with SCREENSHOTS=1.
 */
let base = '';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PASSWORD = 'bismillah-2026';
const PLAN = planById('plan_horizon_month');
let product: Product;
let staff: APIRequestContext;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'life');
  staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
});
test.afterAll(async () => {
  await staff?.dispose();
  await product?.close();
});
test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/** Moves the agency's clock (and the page's) to `at`, running every job due on the way. */
async function moveTo(page: Page, at: number) {
  await moveAgencyClock(page.request, base, at - (await agencyNow(page.request, base)), [page]);
}

interface Mail {
  to: string;
  subject: string;
  text: string;
}
const mailsTo = async (page: Page, email: string) =>
  ((await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as Mail[]).filter((m) => m.to === email);
/** The subjects, their non-breaking spaces as plain ones. */
const subjectsTo = async (page: Page, email: string) => (await mailsTo(page, email)).map((m) => m.subject.replace(/[\u00a0\u202f]/g, ' '));

const PAYMENT_OPEN = 'Votre délai de 7 jours est écoulé : le paiement est ouvert';
const WITHDRAWAL_OVER = 'Votre délai de rétractation de 14 jours est écoulé';
const paymentReceived = (subjects: string[]) => subjects.filter((s) => s.startsWith('Paiement reçu')).length;

/** An account, steps 1 to 6 through the API (Horizon monthly), the onboarding meeting held. */
async function readyToSign(page: Page, prefix: string) {
  await page.clock.install();
  const email = `${prefix}.${Date.now()}@example.fr`;
  await createAccount(page, { gender: 'homme', email, password: PASSWORD, base });
  const { id } = await answerStepsByApi(page, base, {
    renounce: false,
    meetingAt: new Date((await agencyNow(page.request, base)) + 2 * DAY),
  });
  await holdMeeting(staff, id, (ms) => moveAgencyClock(page.request, base, ms, [page]).then(() => undefined));
  return { email, id };
}

/** The next Saturday (Paris) after the agency's today, at 10:00 Paris. */
async function nextSaturdayAt10(page: Page): Promise<{ day: string; at: number }> {
  let day = addCalendarDays(parisDayOf(await agencyNow(page.request, base)), 1);
  while (new Date(`${day}T12:00:00Z`).getUTCDay() !== 6) day = addCalendarDays(day, 1);
  return { day, at: parisDayStartMs(day) + 10 * HOUR };
}

const life = { email: '', id: '', firstPaidAt: 0, signedAt: '' };

test('(c) signed on a Saturday: payment opens at 00:00 after the 7 whole civil days, moved past the weekend', async ({ page }) => {
  test.setTimeout(90_000);
  const { email, id } = await readyToSign(page, 'samedi');
  Object.assign(life, { email, id });
  const saturday = await nextSaturdayAt10(page);
  await moveTo(page, saturday.at);
  await signContractOnScreen(page, base, email);

  const deadlines = await deadlinesOf(page, base);
  expect(deadlines.signedOnDay).toBe(saturday.day);
  // Day 7 is a Saturday: the period runs to the next working day (Monday, or later after a holiday).
  const seventh = addCalendarDays(saturday.day, 7);
  expect(deadlines.renunciation.lastDay >= addCalendarDays(saturday.day, 9)).toBe(true);
  for (let d = seventh; d < deadlines.renunciation.lastDay; d = addCalendarDays(d, 1)) expect(isWorkingDay(d), d).toBe(false);
  expect(isWorkingDay(deadlines.renunciation.lastDay)).toBe(true);
  expect(deadlines.paymentOpensAtMs).toBe(parisDayStartMs(addCalendarDays(deadlines.renunciation.lastDay, 1)));
  // The screen says both days in words.
  const signed = page.getByRole('region', { name: 'Contrat signé' });
  await expect(signed).toContainText(untilText(deadlines.renunciation));
  await expect(signed).toContainText(dayAfterText(deadlines.renunciation));
  await screenshots(page, 'vie-signe-un-samedi');

  // One minute before: nothing can be paid, and no mail says otherwise.
  await moveTo(page, deadlines.paymentOpensAtMs - 60_000);
  expect((await page.request.get(`${base}/api/v1/user/payment-link?offer=file_fee`)).status()).toBe(409);
  await page.goto(`${base}/mon-compte`);
  await expect(page).toHaveURL(/attente-contrat/);
  await expect(page.getByRole('button', { name: /^Payer/ })).toHaveCount(0);
  expect(await subjectsTo(page, email)).not.toContain(PAYMENT_OPEN);

  // At 00:00 Paris the next day it opens: the step, the mail.
  await moveTo(page, deadlines.paymentOpensAtMs + HOUR);
  await expect.poll(() => subjectsTo(page, email)).toContain(PAYMENT_OPEN);
  await page.goto(`${base}/mon-compte`);
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/frais-de-dossier/);
  await screenshots(page, 'vie-paiement-ouvert');
  await page.getByRole('button', { name: 'Payer', exact: true }).click();
  await page.getByRole('button', { name: /^Payer 169,00/ }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/frais-de-dossier$/);
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await page.getByRole('button', { name: /^Payer 95,00/ }).click();
  await expect(page).toHaveURL(/\/mon-compte\/inscription\/attente/);
  life.firstPaidAt = await agencyNow(page.request, base);
  life.signedAt = new Date(deadlines.signedAtMs).toISOString();

  // The withdrawal period over, staff hold the matchmaking meeting: active.
  await moveTo(page, deadlines.withdrawal.endsAtMs + HOUR);
  const active = await staff.post('/api/v1/user/update', { data: { context: 'meeting_mm', uid: id } });
  expect(active.status(), await active.text()).toBe(200);
});

test('(a) terminated mid-instalments: the instalment of the review counts in the refund, nothing is charged after', async ({ page }) => {
  test.setTimeout(90_000);
  expect(life.firstPaidAt, 'needs (c)').toBeGreaterThan(0);
  await page.clock.install();
  const signin = await page.request.post(`${base}/api/v1/auth/signin`, {
    data: { email: life.email, password: PASSWORD },
    headers: { origin: base },
  });
  expect(signin.status(), await signin.text()).toBe(200);

  // The request, three days before instalment 2 is due.
  await moveTo(page, instalmentDueAt(life.firstPaidAt, 2) - 3 * DAY);
  const requestedAtMs = await agencyNow(page.request, base);
  await page.goto(`${base}/mon-compte`);
  await page.getByRole('region', { name: 'Mes droits' }).getByRole('button', { name: 'Résilier pour un motif légitime' }).click();
  const dialog = page.getByRole('dialog', { name: 'Résilier pour un motif légitime ?' });
  await dialog.getByRole('radio', { name: 'Déménagement' }).check();
  await dialog.getByLabel('Votre situation, en quelques mots').fill('Je pars vivre à Montréal pour mon travail dès le mois prochain.');
  await dialog.getByLabel('Justificatif (obligatoire)').setInputFiles({
    name: 'contrat-de-travail.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(samplePdf('Contrat de travail a Montreal')),
  });
  await dialog.getByRole('button', { name: 'Envoyer ma demande' }).click();
  await expect(page.getByTestId('rights-state')).toContainText('Vous avez demandé la résiliation');

  // While staff review, the contract stands: instalment 2 is taken on its day (the clock's jobs).
  await moveTo(page, instalmentDueAt(life.firstPaidAt, 2) + 2 * HOUR);
  await expect.poll(async () => paymentReceived(await subjectsTo(page, life.email))).toBe(3);
  const accepted = await staff.post('/api/v1/user/update', { data: { context: 'terminate_ok', uid: life.id } });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // The pro rata counts the file fee and instalments 1 and 2.
  const expected = terminationRefundCents({
    paidCents: FILE_FEE_CENTS + 2 * PLAN.priceCents,
    contractPriceCents: FILE_FEE_CENTS + PLAN.totalCents,
    signedAtMs: instantMs(life.signedAt),
    endsAtMs: contractEndsAtMs(life.signedAt, PLAN.durationMonths) ?? 0,
    requestedAtMs,
  }).refundCents;
  expect(expected).toBeGreaterThan(PLAN.priceCents);
  const progress = (await (await page.request.get(`${base}/api/v1/user/progress`)).json()) as {
    term: { ended: { reason: string; refundedCents: number } | null };
  };
  expect(progress.term.ended).toMatchObject({ reason: 'résiliation pour motif légitime', refundedCents: expected });
  await page.goto(`${base}/mon-compte`);
  await expect(page.getByTestId('rights-state')).toContainText('Contrat résilié pour motif légitime le');
  await expect(page.getByTestId('rights-refund')).toContainText(formatEuros(expected));
  await expect(page.getByRole('button', { name: 'Résilier pour un motif légitime' })).toHaveCount(0);

  // Two more months: nothing is taken, nothing « À venir »; the refund unchanged.
  await moveTo(page, instalmentDueAt(life.firstPaidAt, 4) + 2 * HOUR);
  expect(paymentReceived(await subjectsTo(page, life.email))).toBe(3);
  const { schedule } = (await (await page.request.get(`${base}/api/v1/user/instalments`)).json()) as {
    schedule: { paidCount: number; leftCents: number; next: unknown; rows: { status: string }[] };
  };
  expect(schedule).toMatchObject({ paidCount: 2, leftCents: 0, next: null });
  expect(schedule.rows.filter((r) => r.status === 'a-venir')).toEqual([]);
  await page.goto(`${base}/mon-compte`);
  await expect(page.getByTestId('instalment-schedule')).not.toContainText('À venir');
  await screenshots(page, 'vie-resilie-mon-compte');
  await page.goto(`${base}/mon-compte/progression`);
  await expect(page.getByText('a pris fin le', { exact: false })).toBeVisible();
  await screenshots(page, 'vie-resilie-accompagnement');
  await page.goto(`${base}/mon-compte/propositions`);
  await expect(page.getByTestId('accompaniment-ended')).toContainText('Votre accompagnement a pris fin');
  await expect(page.getByText('proposera bientôt une date')).toHaveCount(0);
  await screenshots(page, 'vie-resilie-propositions');
});

test('(b) renounced on day 3: no mail asks to pay on day 7, none speaks of the next step on day 14', async ({ page }) => {
  test.setTimeout(90_000);
  const { email } = await readyToSign(page, 'renonce-j3');
  await signContractOnScreen(page, base, email);
  const deadlines = await deadlinesOf(page, base);
  await moveTo(page, deadlines.signedAtMs + 3 * DAY);
  await page.goto(`${base}/mon-compte`);
  await page.getByRole('button', { name: 'Renoncer au contrat' }).click();
  await page.getByRole('dialog', { name: 'Renoncer au contrat ?' }).getByRole('button', { name: 'Oui, je renonce au contrat' }).click();
  await expect(page.getByTestId('rights-state')).toContainText('Contrat annulé (renonciation)');
  await expect(page.getByTestId('rights-refund')).toContainText('Aucune somme ne vous a été ni ne vous sera demandée');

  // Days 7 and 14 pass (each move runs the agency's mails on the way).
  await moveTo(page, deadlines.paymentOpensAtMs + HOUR);
  await moveTo(page, deadlines.withdrawal.endsAtMs + HOUR);
  await expect.poll(() => subjectsTo(page, email)).toContain('Confirmation de votre renonciation');
  const subjects = await subjectsTo(page, email);
  expect(subjects).not.toContain(PAYMENT_OPEN);
  expect(subjects).not.toContain(WITHDRAWAL_OVER);
  for (const mail of await mailsTo(page, email)) expect(mail.text, mail.subject).not.toMatch(/Régler mon inscription|prochaine étape/);
  expect((await page.request.get(`${base}/api/v1/user/payment-link?offer=file_fee`)).status()).toBe(409);

  await page.goto(`${base}/mon-compte`);
  await expect(page.getByTestId('rights-state')).toContainText('Contrat annulé (renonciation)');
  await expect(page.getByRole('button', { name: 'Choisir une nouvelle formule' })).toBeVisible();
  await screenshots(page, 'vie-renonce-j14');
  await page.goto(`${base}/mon-compte/propositions`);
  await expect(page.getByTestId('accompaniment-ended')).toContainText('Aucune proposition ne vous a été faite pendant ce contrat');
  await screenshots(page, 'vie-renonce-propositions');
});
