import { type Browser, expect, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { seedPair } from '#tests/e2e/support/pair-answers.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * Introductions (issue 22), as people would: staff open Amina's file, find Youssef among her
 * candidates and propose him with a note to each; both find the proposal in « Mes propositions »;
 * Youssef accepts, then Amina; the contact details appear only once both have accepted.
 *
 * Two active members are needed, so this spec runs its own product (as active-member.spec.ts) and
 * writes two finished onboardings straight into its database (the screens of onboarding are
 * walked elsewhere).
 */
const DAY = 24 * 60 * 60 * 1000;
let base = '';
const PASSWORD = 'bismillah-2026';
let product: Product;

const tag = Date.now();
const people = {
  amina: { email: `amina.${tag}@example.fr`, gender: 'femme' as Gender, id: '' },
  youssef: { email: `youssef.${tag}@example.fr`, gender: 'homme' as Gender, id: '' },
};

const GUARDIAN_EMAIL = 'karim.benali.pere@example.fr';

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'introductions');
  await seedPair(product, people, PASSWORD, Date.now());
});
test.afterAll(async () => {
  await product?.close();
});

/** A member's own browser context, signed in through the API (writes carry the site's Origin). */
const memberPage = (browser: Browser, email: string): Promise<Page> => signedInMemberPage(browser, base, email, PASSWORD);

test('staff propose Youssef to Amina; both accept in turn; contact details appear only then', async ({ page, browser, playwright }) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);

  // Staff: password and second factor through the API, then the cookies go to the page.
  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();

  // Amina names her father as her guardian, on her own page, to receive a copy of each proposal.
  const aminaFirst = await memberPage(browser, people.amina.email);
  await aminaFirst.goto(`${base}/mon-compte/mon-profil`);
  const guardian = aminaFirst.getByTestId('my-guardian');
  await guardian.getByLabel('Nom').fill('Karim Benali');
  await guardian.getByRole('radio', { name: 'Père' }).check();
  await guardian.getByLabel('E-mail (facultatif)').fill(GUARDIAN_EMAIL);
  await guardian.getByRole('radio', { name: 'Une copie de chaque proposition' }).check();
  await guardian.getByLabel(/Mon proche est informé/).check();
  await guardian.getByRole('button', { name: 'Associer ce proche' }).click();
  await expect(guardian.getByText(/Actuellement\s: Karim Benali/)).toBeVisible();
  await aminaFirst.context().close();

  // Amina's file: her candidates, Youssef among them with his reasons.
  await page.goto(`${base}/dashboard/member/${people.amina.id}?onglet=mises-en-relation`);
  await expect(page.getByRole('heading', { level: 1, name: 'Amina Benali' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Candidats' });
  await expect(section.getByRole('heading', { level: 2, name: 'Candidats' })).toBeVisible();
  const youssef = section.getByTestId('candidate').filter({ hasText: 'Youssef' });
  await expect(youssef).toHaveCount(1);
  await expect(youssef.getByText(/^Score \d+ \/ \d+$/)).toBeVisible();
  await youssef.getByText('Critère par critère').click();
  await expect(youssef.getByTestId('candidate-criteria').getByRole('rowheader', { name: 'Âge' })).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await screenshots(page, 'candidats');

  // Propose, with a note to each side.
  await youssef.getByRole('button', { name: /^Proposer Youssef à Amina/ }).click();
  const propose = page.getByRole('dialog');
  await propose.getByLabel(/^Note pour Amina/).fill('Youssef partage votre attachement à la famille et vit à Paris.');
  await propose.getByLabel(/^Note pour Youssef/).fill('Amina est infirmière à Paris, pratiquante et posée.');
  await screenshots(page, 'proposer', false);
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/dashboard/introductions'));
  await propose.getByRole('button', { name: 'Envoyer la proposition' }).click();
  expect((await posted).status()).toBe(201);
  // The guardian's copy goes out with the proposal (decision 117), without any contact detail.
  await expect
    .poll(async () => {
      const mails = (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as { to: string; subject: string }[];
      return mails.filter((m) => m.to.includes(GUARDIAN_EMAIL)).map((m) => m.subject);
    })
    .toEqual(['Copie d’une proposition de mise en relation']);
  await expect(page).toHaveURL(/\/dashboard\/mises-en-relation\/[0-9a-f-]{36}$/);
  const introductionUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: 'Amina et Youssef' })).toBeVisible();
  await expect(page.getByText('L’équipe a proposé la mise en relation')).toBeVisible();

  // Youssef finds the proposal, anonymised, and accepts.
  const youssefPage = await memberPage(browser, people.youssef.email);
  await youssefPage.goto(`${base}/mon-compte`);
  await youssefPage.getByRole('navigation', { name: 'Mon espace' }).getByRole('link', { name: 'Mes propositions' }).click();
  await expect(youssefPage).toHaveURL(/\/mon-compte\/propositions$/);
  const forYoussef = youssefPage.getByTestId('proposal');
  await expect(forYoussef.getByRole('heading', { level: 2, name: /^Amina, \d+ ans$/ })).toBeVisible();
  await expect(forYoussef.getByText('Amina est infirmière à Paris, pratiquante et posée.')).toBeVisible();
  await expect(forYoussef.getByText(/^À répondre avant le .* \(encore 6 jours\)$/)).toBeVisible();
  await expect(forYoussef.getByTestId('proposal-reasons')).toContainText(/Elle correspond à vos critères indispensables\s: âge/);
  await expect(youssefPage.getByText('Benali')).toHaveCount(0);
  await expect(youssefPage.getByText(people.amina.email)).toHaveCount(0);
  await screenshots(youssefPage, 'propositions');
  await forYoussef.getByRole('button', { name: 'Accepter la proposition' }).click();
  await expect(forYoussef.getByText(/^Vous avez accepté le /)).toBeVisible();
  await expect(youssefPage.getByText(people.amina.email)).toHaveCount(0);

  // Amina: her proposal, the decline dialog looked at and left, then she accepts.
  const aminaPage = await memberPage(browser, people.amina.email);
  await aminaPage.goto(`${base}/mon-compte/propositions`);
  const forAmina = aminaPage.getByTestId('proposal');
  await expect(forAmina.getByRole('heading', { level: 2, name: /^Youssef, \d+ ans$/ })).toBeVisible();
  await expect(aminaPage.getByText(people.youssef.email)).toHaveCount(0);
  await forAmina.getByRole('button', { name: 'Décliner…' }).click();
  const decline = aminaPage.getByRole('dialog', { name: 'Décliner la proposition' });
  await expect(decline.getByRole('radio', { name: 'Pas d’affinité' })).toBeVisible();
  await screenshots(aminaPage, 'decliner', false);
  await decline.getByRole('button', { name: 'Annuler' }).click();
  await expect(decline).toBeHidden();
  await forAmina.getByRole('button', { name: 'Accepter la proposition' }).click();
  await expect(forAmina.getByRole('heading', { name: 'Vous avez accepté tous les deux' })).toBeVisible();
  await expect(forAmina.getByRole('link', { name: people.youssef.email })).toBeVisible();
  // Written as a person writes it (machines/onboarding/phone-format.ts), never E.164.
  await expect(forAmina.getByText('06 98 76 54 32')).toBeVisible();
  await aminaPage.reload();
  await expect(aminaPage.getByTestId('proposal').getByRole('link', { name: people.youssef.email })).toBeVisible();
  await screenshots(aminaPage, 'propositions-acceptee');

  // Youssef now sees Amina's contact details.
  await youssefPage.reload();
  await expect(youssefPage.getByTestId('proposal').getByRole('link', { name: people.amina.email })).toBeVisible();

  // Staff: the list shows it accepted by both; the detail page plans the first meeting.
  await page.getByRole('navigation', { name: 'Navigation de l’équipe' }).getByRole('link', { name: 'Mises en relation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mises en relation' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Amina' });
  await expect(row.getByText('Acceptée par les deux : coordonnées transmises')).toBeVisible();
  await screenshots(page, 'mises-en-relation');
  await row.getByRole('link', { name: 'Ouvrir la mise en relation Amina et Youssef' }).click();
  await expect(page).toHaveURL(introductionUrl);
  await expect(page.getByText('Youssef a accepté la proposition')).toBeVisible();
  await expect(page.getByText('Amina a accepté la proposition')).toBeVisible();
  await page.getByRole('button', { name: 'Planifier la rencontre' }).click();
  const plan = page.getByRole('dialog');
  const inThreeDays = new Date(Date.now() + 3 * DAY);
  const local = `${inThreeDays.toLocaleDateString('sv-SE', { timeZone: 'Europe/Paris' })}T15:00`;
  await plan.getByLabel('Date et heure').fill(local);
  await plan.getByLabel('Lieu').fill('À l’agence, salon du rez-de-chaussée');
  await plan.getByRole('button', { name: 'Planifier la rencontre' }).click();
  await expect(plan).toBeHidden();
  await expect(page.getByText(/L’équipe a planifié la première rencontre le /)).toBeVisible();
  await expect(page.getByText(/à 15\sh\s00, À l’agence, salon du rez-de-chaussée$/)).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Amina et Youssef' })).toBeVisible();
  await screenshots(page, 'mise-en-relation');

  await aminaPage.reload();
  await expect(aminaPage.getByText(/Première rencontre\s: le .* à 15\sh\s00, À l’agence, salon du rez-de-chaussée/)).toBeVisible();

  // Staff close the pair with a message to both (decision 205) and a note, then re-open it: both notes stay on the page for the team.
  await page.getByRole('button', { name: 'Clore' }).click();
  const close = page.getByRole('dialog');
  await close.getByLabel(/^Message à Amina et Youssef/).fill('Vos familles ont demandé une pause : nous vous rappelons bientôt.');
  await close.getByLabel('Note pour l’équipe (obligatoire)').fill('Les familles demandent une pause.');
  await close.getByRole('button', { name: 'Clore et envoyer le message' }).click();
  await expect(close).toBeHidden();
  await expect(page.getByText('L’équipe a clos la mise en relation')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Les familles demandent une pause.' })).toBeVisible();
  await page.getByRole('button', { name: 'Rouvrir' }).click();
  const reopen = page.getByRole('dialog');
  await reopen.getByLabel('Note (obligatoire)').fill('Les deux familles souhaitent reprendre.');
  await reopen.getByRole('button', { name: 'Rouvrir' }).click();
  await expect(reopen).toBeHidden();
  await expect(page.getByText('L’équipe a rouvert la mise en relation')).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Les deux familles souhaitent reprendre.' })).toBeVisible();
  const earlier = page.getByRole('list', { name: 'Propositions précédentes' });
  await expect(earlier.getByText(/Note de clôture\s: Les familles demandent une pause\./)).toBeVisible();
  await screenshots(page, 'mise-en-relation-rouverte');
  await aminaPage.context().close();
  await youssefPage.context().close();
  expect(errors).toEqual([]);
});
