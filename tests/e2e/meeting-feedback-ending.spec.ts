import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { moveAgencyClock } from '#tests/e2e/support/agency-clock.ts';
import { seedActiveMember, signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * The first meeting organised and what follows it (issue 62 point 5, decisions 197 and 205), as
 * people would: staff plan the meeting on the introduction's page, both members and Amina's walī
 * get the mail (read in the SMTP stand-in's mailbox), then the reminder the day before; once held,
 * Amina reads the deadline of her feedback, staff record Youssef's feedback heard by phone (and he
 * sees it as given), Amina alone is reminded 2 days before her deadline, then staff close at
 * Amina's request with a message from a template, edited, which Youssef receives by mail and reads
 * on his screen. Its own product; screenshots at 390 and 1440 px with SCREENSHOTS=1.
 */
const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'bismillah-2026';
let base = '';
const tag = Date.now();
const WALI = `ahmed.wali.${tag}@example.fr`;
let product: Product;
let staff: APIRequestContext;
const people = {
  amina: { email: `amina.m.${tag}@example.fr`, id: '' },
  youssef: { email: `youssef.m.${tag}@example.fr`, id: '' },
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'meeting');
  const now = product.clock.now().getTime();
  people.amina.id = await seedActiveMember(
    product,
    { email: people.amina.email, password: PASSWORD, gender: 'femme', firstName: 'Amina', lastName: 'Benali', birthDate: '1995-04-18' },
    now,
  );
  people.youssef.id = await seedActiveMember(
    product,
    { email: people.youssef.email, password: PASSWORD, gender: 'homme', firstName: 'Youssef', lastName: 'Haddad', birthDate: '1990-02-11' },
    now,
  );
  staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
});
test.afterAll(async () => {
  await staff?.dispose();
  await product?.close();
});

type Mail = { to: string; subject: string; text: string };
async function mailbox(page: Page): Promise<Mail[]> {
  return (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as Mail[];
}
const recipientsOf = async (page: Page, subject: string) =>
  (await mailbox(page))
    .filter((m) => m.subject === subject)
    .map((m) => m.to)
    .sort();

/** An instant as the staff's datetime field takes it (Europe/Paris). */
function parisInput(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('fr-FR', {
      timeZone: 'Europe/Paris',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

test('plan the meeting (members and walī mailed), phone feedback, close with a message the other member reads', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const amina = await signedInMemberPage(browser, base, people.amina.email, PASSWORD);
  const youssef = await signedInMemberPage(browser, base, people.youssef.email, PASSWORD);
  // Amina is to be contacted through her father, her walī, who has an e-mail.
  const guardian = await amina.request.put(`${base}/api/v1/user/guardian`, {
    data: {
      name: 'Ahmed Benali',
      relation: 'pere',
      email: WALI,
      phone: '06 55 44 33 22',
      receives: 'rien',
      contactVia: 'wali',
      informed: true,
    },
    headers: { origin: base },
  });
  expect(guardian.status(), await guardian.text()).toBe(200);
  const proposed = await staff.post('/api/v1/dashboard/introductions', { data: { a: people.amina.id, b: people.youssef.id } });
  expect(proposed.status(), await proposed.text()).toBe(201);
  const id = ((await proposed.json()) as { introduction: { id: string } }).introduction.id;
  for (const member of [amina, youssef]) {
    const accepted = await member.request.post(`${base}/api/v1/user/introductions/${id}/events`, {
      data: { type: 'ACCEPT' },
      headers: { origin: base },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
  }
  // A template of the back office, for the close.
  const template = await staff.post('/api/v1/dashboard/message-templates', {
    data: {
      title: 'Fin à la demande de l’autre membre',
      subject: 'Votre mise en relation',
      body: 'Bonjour {prenom},\n\nL’autre personne a souhaité ne pas poursuivre.',
    },
  });
  expect(template.status(), await template.text()).toBe(201);

  // Staff plan the meeting on the introduction's page.
  await skipConsentBanner(page.context());
  await page.context().addCookies((await staff.storageState()).cookies);
  const pages = [page, amina, youssef];
  for (const p of pages) await p.clock.setSystemTime(product.clock.now());
  await page.goto(`${base}/dashboard/mises-en-relation/${id}`);
  await page.getByRole('button', { name: 'Planifier la rencontre' }).click();
  const plan = page.getByRole('dialog');
  const meetingAt = new Date(product.clock.now().getTime() + 2 * DAY);
  await plan.getByLabel('Date et heure').fill(parisInput(meetingAt));
  await plan.getByLabel('Lieu').fill('À l’agence, 12 rue de la Paix');
  await plan.getByLabel('Accompagnée par').fill('Mme Karima Haddad, conseillère');
  await plan.getByRole('button', { name: 'Planifier la rencontre' }).click();
  await expect(plan).toBeHidden();
  await expect(page.getByText('À l’agence, 12 rue de la Paix').first()).toBeVisible();
  // Both members and the walī get the mail, with the place and who accompanies.
  await expect
    .poll(() => recipientsOf(page, 'Votre première rencontre est planifiée'), { timeout: 30_000 })
    .toEqual([people.amina.email, people.youssef.email, WALI].sort());
  const toWali = (await mailbox(page)).find((m) => m.to === WALI && m.subject === 'Votre première rencontre est planifiée');
  expect(toWali?.text).toContain('Mme Karima Haddad, conseillère');
  expect(toWali?.text).toContain('comme walī de Amina');

  // The day before, the reminder goes to the three of them (the clock's move runs the jobs due).
  await moveAgencyClock(staff, base, DAY + 4 * 60 * 60 * 1000, pages);
  await expect
    .poll(() => recipientsOf(page, 'Rappel\u00a0: votre première rencontre, demain'), { timeout: 30_000 })
    .toEqual([people.amina.email, people.youssef.email, WALI].sort());
  // The meeting takes place; staff record it held.
  await moveAgencyClock(staff, base, DAY - 2 * 60 * 60 * 1000, pages);
  const held = await staff.post(`/api/v1/dashboard/introductions/${id}/events`, { data: { type: 'RECORD_MEETING_HELD' } });
  expect(held.status(), await held.text()).toBe(200);

  // Amina reads until when her feedback is awaited, above the form.
  await amina.goto(`${base}/mon-compte/propositions`);
  await expect(amina.getByTestId('feedback-deadline')).toContainText(/Votre retour est attendu jusqu’au \S+ \d+ \S+ \d{4} inclus\./);
  await screenshots(amina, 'retour-delai');

  // Staff record Youssef's feedback, heard by phone.
  await page.goto(`${base}/dashboard/mises-en-relation/${id}`);
  await page.getByRole('button', { name: 'Noter un retour reçu par téléphone' }).click();
  const phone = page.getByRole('dialog', { name: 'Retour reçu par téléphone' });
  await phone.getByRole('radio', { name: 'Youssef' }).check();
  await phone.getByRole('radio', { name: 'Continuer à se connaître' }).check();
  await screenshots(page, 'retour-telephone-dialogue', false);
  await phone.getByRole('button', { name: 'Enregistrer le retour' }).click();
  await expect(phone).toBeHidden();
  await expect(page.getByTestId('feedback-b')).toContainText(/recueilli par téléphone par .+ le /);
  await screenshots(page, 'retour-telephone');
  await youssef.goto(`${base}/mon-compte/propositions`);
  await expect(youssef.getByText(/recueilli par téléphone par votre conseillère\s: continuer à se connaître\./)).toBeVisible();
  await expect(youssef.getByRole('form', { name: 'Votre retour après la rencontre' })).toHaveCount(0);

  // Two days before the end of her period, Amina (who has not answered) is reminded; Youssef is not.
  await moveAgencyClock(staff, base, 6 * DAY, pages);
  await expect
    .poll(() => recipientsOf(page, 'Rappel\u00a0: votre retour après la première rencontre'), { timeout: 30_000 })
    .toEqual([people.amina.email]);
  await page.reload();

  // Amina phones to stop: staff close at her request, with the template filled for Youssef, edited.
  await page.getByRole('button', { name: 'Clore' }).click();
  const close = page.getByRole('dialog', { name: 'Clore la mise en relation' });
  await close.getByRole('radio', { name: 'Amina' }).check();
  await close.getByLabel('Modèle de message').selectOption({ label: 'Fin à la demande de l’autre membre' });
  const message = close.getByLabel(/Message à Youssef/);
  await expect(message).toHaveValue(/^Bonjour Youssef,/);
  await message.fill(`${await message.inputValue()} Je vous appelle cette semaine pour en parler.`);
  await close.getByLabel('Note pour l’équipe (obligatoire)').fill('Amina a appelé ce matin.');
  await screenshots(page, 'clore-message', false);
  await close.getByRole('button', { name: 'Clore et envoyer le message' }).click();
  await expect(close).toBeHidden();
  await expect(page.getByTestId('close-message')).toContainText('Je vous appelle cette semaine pour en parler.');

  // Youssef receives it by mail, and reads it on his screen instead of a bare « Close ».
  await expect.poll(() => recipientsOf(page, 'Votre mise en relation a pris fin'), { timeout: 30_000 }).toEqual([people.youssef.email]);
  const ended = (await mailbox(page)).find((m) => m.subject === 'Votre mise en relation a pris fin');
  expect(ended?.text).toContain('Je vous appelle cette semaine pour en parler.');
  expect(ended?.text).not.toContain('Amina a appelé ce matin.');
  // Amina's walī hears of the end too, in a short word without the counsellor's message.
  await expect.poll(() => recipientsOf(page, 'Une mise en relation a pris fin'), { timeout: 30_000 }).toEqual([WALI]);
  const toWaliEnded = (await mailbox(page)).find((m) => m.to === WALI && m.subject === 'Une mise en relation a pris fin');
  expect(toWaliEnded?.text).toContain('La mise en relation proposée à Amina a pris fin.');
  expect(toWaliEnded?.text).not.toContain('Je vous appelle cette semaine');
  await youssef.goto(`${base}/mon-compte/propositions`);
  await expect(youssef.getByTestId('proposal-ended')).toContainText('l’autre personne a souhaité ne pas poursuivre');
  await expect(youssef.getByTestId('proposal-end-message')).toContainText('Je vous appelle cette semaine pour en parler.');
  await screenshots(youssef, 'fin-message');
  await amina.goto(`${base}/mon-compte/propositions`);
  await expect(amina.getByTestId('proposal-ended')).toContainText('vous avez demandé à arrêter');
  await expect(amina.getByTestId('proposal-end-message')).toHaveCount(0);
  await amina.context().close();
  await youssef.context().close();
});
