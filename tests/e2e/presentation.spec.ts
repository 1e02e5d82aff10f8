import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { seedPair } from '#tests/e2e/support/pair-answers.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { SHOTS, screenshots } from '#tests/e2e/support/screenshots.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * The member's presentation and the badges that keep up (issue 22, decision 128), as people would:
 * Youssef writes his presentation on « Mon profil » (a phone number and an Instagram handle
 * refused in French, then saved, waiting for staff); staff approve it from the dashboard's home
 * (decision 200), read it beside Amina's candidates and on his file, and propose him; Amina reads it
 * in the proposal's summary. Then staff write to Amina while her page is open: her « Messages »
 * badge shows it without a reload.
 *
 * Runs its own product (as introductions.spec.ts), on a port of its own.
 */
let base = '';
const PASSWORD = 'bismillah-2026';
let product: Product;

const tag = Date.now();
const people = {
  amina: { email: `amina.pres.${tag}@example.fr`, gender: 'femme' as Gender, id: '' },
  youssef: { email: `youssef.pres.${tag}@example.fr`, gender: 'homme' as Gender, id: '' },
};

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'presentation');
  await seedPair(product, people, PASSWORD, Date.now());
});
test.afterAll(async () => {
  await product?.close();
});

/** A member's own browser context, signed in through the API (writes carry the site's Origin). */
const memberPage = (browser: Browser, email: string): Promise<Page> => signedInMemberPage(browser, base, email, PASSWORD);

/** The part of the page that matters, at 390 and 1440 px (`<name>-<width>.png` in the test's output folder). */
async function sectionShots(page: Page, locator: Locator, name: string): Promise<void> {
  const size = page.viewportSize();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await locator.scrollIntoViewIfNeeded();
    if (SHOTS) await locator.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

const PRESENTATION = 'Ingénieur à Paris, j’aime la randonnée et les longues lectures. Je cherche une épouse sincère.';

test('Youssef writes his presentation; staff read it and propose him; Amina reads it in the summary; her badge keeps up', async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(240_000);
  const errors = watchConsole(page);

  // Youssef, on « Mon profil »: a phone number is refused in French, then his text is saved.
  const youssefPage = await memberPage(browser, people.youssef.email);
  await youssefPage.goto(`${base}/mon-compte/mon-profil`);
  const mine = youssefPage.getByTestId('my-presentation');
  await expect(mine.getByRole('heading', { level: 2, name: 'Ma présentation' })).toBeVisible();
  const field = mine.getByLabel('Votre présentation (facultative)');
  await field.fill(`${PRESENTATION} Appelez-moi au 06 98 76 54 32.`);
  await mine.getByRole('button', { name: 'Enregistrer ma présentation' }).click();
  await expect(mine.getByText(/ne doit pas contenir de coordonnées.*un numéro de téléphone/)).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await sectionShots(youssefPage, mine, 'ma-presentation-refusee');
  // A network's name and a handle (decision 200): refused, saying what was found.
  await field.fill(`${PRESENTATION} Insta\u00a0: @youssef.amr`);
  await mine.getByRole('button', { name: 'Enregistrer ma présentation' }).click();
  await expect(mine.getByText(/un compte de réseau social \(«\u00a0Insta\u00a0: @youssef\.amr\u00a0»\)/)).toBeVisible();
  await field.fill(PRESENTATION);
  await expect(mine.getByText(`${PRESENTATION.length} caractères sur 600`)).toBeVisible();
  const saved = youssefPage.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/v1/user/presentation'));
  await mine.getByRole('button', { name: 'Enregistrer ma présentation' }).click();
  expect((await saved).status()).toBe(200);
  await expect(mine.getByText(/ne doit pas contenir/)).toHaveCount(0);
  await youssefPage.reload();
  await expect(youssefPage.getByTestId('my-presentation').getByLabel('Votre présentation (facultative)')).toHaveValue(PRESENTATION);
  await expect(youssefPage.getByTestId('presentation-status')).toContainText('En attente de validation');
  await sectionShots(youssefPage, youssefPage.getByTestId('my-presentation'), 'ma-presentation');

  // Staff: beside Amina's candidates, Youssef's presentation is read on request.
  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
  await page.context().addCookies((await staff.storageState()).cookies);
  // The dashboard's home lists it to examine (decision 200); staff approve it.
  await page.goto(`${base}/dashboard`);
  const queue = page.getByTestId('presentation-review');
  const waiting = queue.getByTestId('presentation-waiting').filter({ hasText: PRESENTATION });
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText('personne d’autre ne la lit');
  await sectionShots(page, queue, 'presentations-a-valider');
  const reviewed = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/presentation/review'));
  await waiting.getByRole('button', { name: 'Valider' }).click();
  expect((await reviewed).status()).toBe(200);
  await expect(waiting).toHaveCount(0);
  // The candidates are in the file's « Mises en relation » tab (decision 209).
  await page.goto(`${base}/dashboard/member/${people.amina.id}?onglet=mises-en-relation`);
  const section = page.getByRole('region', { name: 'Candidats' });
  const youssef = section.getByTestId('candidate').filter({ hasText: 'Youssef' });
  await expect(youssef).toHaveCount(1);
  await expect(youssef.getByTestId('candidate-presentation')).toHaveCount(0);
  await youssef.getByRole('button', { name: 'Lire sa présentation' }).click();
  await expect(youssef.getByTestId('candidate-presentation')).toHaveText(PRESENTATION);
  await sectionShots(page, youssef, 'candidat-presentation');
  // The candidates' filters and shortlist (decision 201): a filter that keeps him, one that does not.
  await expect(section.getByTestId('candidates-rule')).toContainText('déjà 2 mises en relation en cours (le maximum)');
  const filters = section.getByTestId('candidate-filters');
  await filters.getByLabel('Enfants').selectOption('avec');
  await expect(section.getByText('Aucun candidat pour l’instant.')).toBeVisible();
  await filters.getByLabel('Enfants').selectOption('sans');
  await expect(youssef).toHaveCount(1);
  await youssef.getByRole('button', { name: 'Garder dans la sélection' }).click();
  await expect(section.getByTestId('shortlist').getByRole('link', { name: /^Youssef/ })).toBeVisible();
  await expect(youssef.getByRole('button', { name: 'Dans la sélection' })).toHaveAttribute('aria-pressed', 'true');
  await sectionShots(page, section, 'candidats-filtres');
  await youssef.getByRole('button', { name: /^Proposer Youssef à Amina/ }).click();
  const posted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/dashboard/introductions'));
  await page.getByRole('dialog').getByRole('button', { name: 'Envoyer la proposition' }).click();
  expect((await posted).status()).toBe(201);
  // His file shows it too.
  await page.goto(`${base}/dashboard/member/${people.youssef.id}`);
  await expect(page.getByTestId('member-presentation')).toHaveText(PRESENTATION);

  // Amina reads it inside the proposal's anonymised summary.
  const aminaPage = await memberPage(browser, people.amina.email);
  await aminaPage.goto(`${base}/mon-compte/propositions`);
  const forAmina = aminaPage.getByTestId('proposal');
  await expect(forAmina.getByRole('heading', { level: 3, name: 'Youssef se présente' })).toBeVisible();
  await expect(forAmina.getByTestId('other-presentation')).toHaveText(PRESENTATION);
  await screenshots(aminaPage, 'proposition-presentation');

  // Her « Messages » badge: nothing unread; staff write to her; it shows without a reload.
  const nav = aminaPage.getByRole('navigation', { name: 'Mon espace' });
  await expect(nav.getByTestId('unread-badge')).toHaveCount(0);
  const sent = await staff.post(`/api/v1/dashboard/members/${people.amina.id}/messages`, {
    data: { subject: 'Votre proposition', body: 'Bonjour Amina, n’hésitez pas à nous écrire.' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  await staff.dispose();
  // Coming back to the tab asks at once (the 30 s poll would too, later).
  await aminaPage.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(nav.getByTestId('unread-badge')).toContainText('1');
  await expect(nav.getByText('(1 message non lu)')).toBeAttached();
  expect(errors).toEqual([]);
});
