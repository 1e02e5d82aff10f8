import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { seedActiveMember, signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { moveAgencyClock } from '#tests/e2e/support/agency-clock.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * Introductions after the proposal (issue 22), as people would, time moved through
 * `/_local/clock`, which runs the reminders and expiries due (as contract-rights.spec.ts): a
 * member declines with a reason and a comment, and the other side and staff see it ended; an
 * unanswered proposal gets the day-5 reminder by mail and expires at day 7, and staff see it
 * « Expirée sans réponse ». Its own product.
 */
const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'bismillah-2026';
let base = '';
const tag = Date.now();
let product: Product;
let staff: APIRequestContext;
const people = {
  amina: { email: `amina.${tag}@example.fr`, id: '' },
  youssef: { email: `youssef.${tag}@example.fr`, id: '' },
  sarah: { email: `sarah.${tag}@example.fr`, id: '' },
  karim: { email: `karim.${tag}@example.fr`, id: '' },
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  // Four accounts and the product's start: slow on a shared machine.
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'walks');
  const now = product.clock.now().getTime();
  const seed = (key: keyof typeof people, gender: 'femme' | 'homme', firstName: string, lastName: string, birthDate: string) =>
    seedActiveMember(product, { email: people[key].email, password: PASSWORD, gender, firstName, lastName, birthDate }, now).then((id) => {
      people[key].id = id;
    });
  await seed('amina', 'femme', 'Amina', 'Benali', '1995-04-18');
  await seed('youssef', 'homme', 'Youssef', 'Haddad', '1990-02-11');
  await seed('sarah', 'femme', 'Sarah', 'Mansour', '1994-09-02');
  await seed('karim', 'homme', 'Karim', 'Ziani', '1989-06-30');
  // The embedded auth service keeps real time (decision 170): the code and the session hold across clock moves.
  staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
});
test.afterAll(async () => {
  await staff?.dispose();
  await product?.close();
});

async function propose(a: string, b: string): Promise<string> {
  const response = await staff.post('/api/v1/dashboard/introductions', { data: { a, b } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { introduction: { id: string } }).introduction.id;
}

async function staffPage(page: Page): Promise<Page> {
  await skipConsentBanner(page.context());
  await page.context().addCookies((await staff.storageState()).cookies);
  return page;
}

/** Time moves through the product's clock route: the introductions' reminders and expiries due run on the way. */
async function travel(pages: Page[], ms: number) {
  await moveAgencyClock(staff, base, ms, pages);
}

test('Amina declines with a reason and a comment; Youssef and staff see it ended', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const id = await propose(people.amina.id, people.youssef.id);

  const amina = await signedInMemberPage(browser, base, people.amina.email, PASSWORD);
  await amina.goto(`${base}/mon-compte/propositions`);
  const card = amina.getByTestId('proposal');
  await expect(card.getByRole('heading', { level: 2, name: /^Youssef, \d+ ans$/ })).toBeVisible();
  await card.getByRole('button', { name: 'Décliner…' }).click();
  const dialog = amina.getByRole('dialog', { name: 'Décliner la proposition' });
  // No reason: a French error, nothing sent.
  await dialog.getByRole('button', { name: 'Confirmer le refus' }).click();
  await expect(dialog.getByText('Veuillez choisir un motif dans la liste.')).toBeVisible();
  // Closed and opened again, the dialog starts afresh (ActionDialog, decision 152).
  await amina.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await card.getByRole('button', { name: 'Décliner…' }).click();
  await expect(dialog.getByText('Veuillez choisir un motif dans la liste.')).toHaveCount(0);
  await dialog.getByRole('radio', { name: 'La région est trop éloignée' }).check();
  await dialog.getByLabel('Commentaire (facultatif)').fill('Je souhaite rester près de ma famille à Paris.');
  await screenshots(amina, 'decliner', false);
  await dialog.getByRole('button', { name: 'Confirmer le refus' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('Sans suite')).toBeVisible();
  await expect(card.getByText(/\(motif\s: la région est trop éloignée\)/)).toBeVisible();

  // Youssef: the proposal is over for him too (without Amina's reason or comment).
  const youssef = await signedInMemberPage(browser, base, people.youssef.email, PASSWORD);
  await youssef.goto(`${base}/mon-compte/propositions`);
  await expect(youssef.getByTestId('proposal').getByText('Sans suite')).toBeVisible();
  await expect(youssef.getByText(/région est trop éloignée/i)).toHaveCount(0);
  await expect(youssef.getByText('Je souhaite rester près de ma famille à Paris.')).toHaveCount(0);

  // Staff: the introduction is « Déclinée », Amina's reason and comment in its file.
  const desk = await staffPage(page);
  await desk.goto(`${base}/dashboard/mises-en-relation/${id}`);
  await expect(desk.getByText('Déclinée').first()).toBeVisible();
  await expect(desk.getByRole('definition').filter({ hasText: 'La région est trop éloignée' })).toBeVisible();
  await expect(desk.getByText(/Je souhaite rester près de ma famille à Paris\./).first()).toBeVisible();
  await screenshots(desk, 'declinee');
  await amina.context().close();
  await youssef.context().close();
});

test('an unanswered proposal: the day-5 reminder by mail to both, then expired at day 7, « Expirée sans réponse » for staff', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const id = await propose(people.sarah.id, people.karim.id);
  const mails = async () =>
    (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as { to: string; subject: string }[];
  const reminders = async () =>
    (await mails())
      .filter((m) => m.subject === 'Rappel : une proposition attend votre réponse')
      .map((m) => m.to)
      .sort();

  // Day 4: nothing is due.
  await travel([page], 4 * DAY);
  expect(await reminders()).toEqual([]);

  // Day 5: one reminder to each, once.
  await travel([page], DAY + 60 * 60 * 1000);
  // Run the due jobs once more (0 days): nothing is sent twice.
  await travel([page], 0);
  await expect.poll(reminders, { timeout: 30_000 }).toEqual([people.karim.email, people.sarah.email].sort());

  // Sarah's page on day 5: still to answer, the deadline close.
  const sarah = await signedInMemberPage(browser, base, people.sarah.email, PASSWORD);
  await sarah.clock.setSystemTime(product.clock.now());
  await sarah.goto(`${base}/mon-compte/propositions`);
  await expect(sarah.getByTestId('proposal').getByText('Réponse attendue')).toBeVisible();

  // Day 7: expired.
  await travel([page, sarah], 2 * DAY);
  await sarah.reload();
  await expect(sarah.getByTestId('proposal').getByText('Délai passé')).toBeVisible();
  await expect(sarah.getByRole('button', { name: 'Accepter la proposition' })).toHaveCount(0);
  // Still exactly one reminder each.
  expect(await reminders()).toEqual([people.karim.email, people.sarah.email].sort());

  const desk = await staffPage(page);
  await desk.goto(`${base}/dashboard/mises-en-relation/${id}`);
  await expect(desk.getByText('Expirée sans réponse').first()).toBeVisible();
  await screenshots(desk, 'expiree');
  await sarah.context().close();
});

/**
 * Both accept through the API (walked on screen by introductions.spec.ts); staff plan the meeting
 * tomorrow — on the introduction's page when `desk` is given, else through the API — then record it held.
 */
async function metAfterProposal(
  browser: Browser,
  a: { email: string; id: string },
  b: { email: string; id: string },
  pages: Page[],
  desk?: Page,
) {
  const id = await propose(a.id, b.id);
  for (const person of [a, b]) {
    const member = await signedInMemberPage(browser, base, person.email, PASSWORD);
    const response = await member.request.post(`${base}/api/v1/user/introductions/${id}/events`, {
      data: { type: 'ACCEPT' },
      headers: { origin: base },
    });
    expect(response.status(), await response.text()).toBe(200);
    await member.context().close();
  }
  const meetingAt = new Date(product.clock.now().getTime() + DAY);
  if (desk) {
    await desk.goto(`${base}/dashboard/mises-en-relation/${id}`);
    await desk.getByRole('button', { name: 'Planifier la rencontre' }).click();
    const dialog = desk.getByRole('dialog');
    // The field is in the staff's time (Europe/Paris): the same instant, written as a person types it.
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
        .formatToParts(meetingAt)
        .map((part) => [part.type, part.value]),
    );
    await dialog.getByLabel('Date et heure').fill(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`);
    await dialog.getByLabel('Lieu').fill('À l’agence, 12 rue de la Paix');
    const sent = desk.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith(`/api/v1/dashboard/introductions/${id}/events`),
    );
    await dialog.getByRole('button', { name: 'Planifier la rencontre' }).click();
    expect((await sent).status()).toBe(200);
    await expect(desk.getByText('À l’agence, 12 rue de la Paix').first()).toBeVisible();
  } else {
    const planned = await staff.post(`/api/v1/dashboard/introductions/${id}/events`, {
      data: { type: 'PLAN_MEETING', meetingAt: meetingAt.toISOString(), place: 'À l’agence, 12 rue de la Paix' },
    });
    expect(planned.status(), await planned.text()).toBe(200);
  }
  await travel(pages, DAY + 2 * 60 * 60 * 1000);
  const held = await staff.post(`/api/v1/dashboard/introductions/${id}/events`, { data: { type: 'RECORD_MEETING_HELD' } });
  expect(held.status(), await held.text()).toBe(200);
  return id;
}

/** The member's feedback on screen: the outcome (and a reason to stop), sent and accepted by the server. */
async function giveFeedback(page: Page, outcome: string, reason?: string) {
  await page.goto(`${base}/mon-compte/propositions`);
  const form = page.getByRole('form', { name: 'Votre retour après la rencontre' });
  await form.getByRole('radio', { name: outcome }).check();
  if (reason) await form.getByLabel('Motif').selectOption({ label: reason });
  const sent = page.waitForResponse(
    (r) => r.request().method() === 'POST' && /\/api\/v1\/user\/introductions\/[^/]+\/events$/.test(r.url()),
  );
  await form.getByRole('button', { name: 'Envoyer mon retour' }).click();
  expect((await sent).status()).toBe(200);
}

test('after the first meeting: continue, then both engaged (search paused, congratulations); another stops with a reason', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const amina = await signedInMemberPage(browser, base, people.amina.email, PASSWORD);
  const karim = await signedInMemberPage(browser, base, people.karim.email, PASSWORD);
  const sarah = await signedInMemberPage(browser, base, people.sarah.email, PASSWORD);
  const pages = [page, amina, karim, sarah];
  for (const p of pages) await p.clock.setSystemTime(product.clock.now());

  const engaged = await metAfterProposal(browser, people.amina, people.karim, pages, await staffPage(page));
  // Both want to continue: the introduction goes on.
  await giveFeedback(amina, 'Continuer à se connaître');
  await giveFeedback(karim, 'Continuer à se connaître');
  // Then both announce their engagement.
  await giveFeedback(amina, 'Nous sommes fiancés');
  await amina.goto(`${base}/mon-compte/propositions`);
  await expect(amina.getByText('l’autre personne ne l’a pas encore confirmé')).toBeVisible();
  await giveFeedback(karim, 'Nous sommes fiancés');
  await amina.goto(`${base}/mon-compte/propositions`);
  await expect(amina.getByText('Félicitations !')).toBeVisible();
  await expect(amina.getByText('Vos recherches sont mises en pause.')).toBeVisible();
  await screenshots(amina, 'fiancailles');
  // Sarah and Youssef meet; Sarah stops, with a reason from the list.
  const youssef = await signedInMemberPage(browser, base, people.youssef.email, PASSWORD);
  pages.push(youssef);
  const stopped = await metAfterProposal(browser, people.sarah, people.youssef, pages);
  await sarah.goto(`${base}/mon-compte/propositions`);
  const form = sarah.getByRole('form', { name: 'Votre retour après la rencontre' });
  await form.getByRole('radio', { name: 'Arrêter' }).check();
  await form.getByRole('button', { name: 'Envoyer mon retour' }).click();
  await expect(form.getByText('Veuillez choisir un motif dans la liste.')).toBeVisible();
  await giveFeedback(sarah, 'Arrêter', 'Pas d’affinité');
  await sarah.goto(`${base}/mon-compte/propositions`);
  await expect(sarah.getByRole('form', { name: 'Votre retour après la rencontre' })).toHaveCount(0);

  // Staff see both outcomes.
  const desk = await staffPage(page);
  await desk.goto(`${base}/dashboard/mises-en-relation/${engaged}`);
  await expect(desk.getByText('Fiançailles : recherches en pause', { exact: true }).first()).toBeVisible();
  await desk.goto(`${base}/dashboard/mises-en-relation/${stopped}`);
  await expect(desk.getByText('Close', { exact: true }).first()).toBeVisible();
  for (const p of [amina, karim, sarah, youssef]) await p.context().close();
});
