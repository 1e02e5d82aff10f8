import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { CAST, DEMO_AGENCY_ACCOUNTS, emailOf } from '#bff/demo/cast.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { demoMemberId, signInDemoAdministrator, startDemoAgencyProduct } from '#tests/e2e/support/demo-agency.ts';
import { storedCodes } from '#tests/e2e/support/french-words.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * A member's file on one screen (issue 63 point 2, decision 209), on the demo agency as a newcomer
 * finds it, signed in as the demo administrator: a header in words (no identifier as the title, no
 * stored code), tabs that each open and show their content, by mouse, by keyboard and by address,
 * and the statechart folded. At 390 px and 1440 px.
 */

// Its own product: the demo agency, which the shared server leaves out.
let base = '';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
let product: Product;
let salma: string;
let cookies: Awaited<ReturnType<APIRequestContext['storageState']>>['cookies'];

test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startDemoAgencyProduct(port, 'member-file');
  salma = await demoMemberId(product, DEMO_AGENCY_ACCOUNTS[0].email);
  // One session of the demo administrator (its second factor enrolled once), handed to each page.
  const api = await playwright.request.newContext({ baseURL: base });
  await signInDemoAdministrator(api, base);
  cookies = (await api.storageState()).cookies;
  await api.dispose();
});
test.afterAll(async () => {
  await product?.close();
});

async function signedInPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ baseURL: base, viewport: { width, height: width === 390 ? 844 : 900 } });
  await skipConsentBanner(context);
  await context.addCookies(cookies);
  return context.newPage();
}

/** What each tab shows: a heading or a region of its own. */
const TABS: [string, string, (page: Page) => ReturnType<Page['getByRole']>][] = [
  ['Profil', 'profil', (page) => page.getByRole('heading', { level: 2, name: 'Actions de l’équipe' })],
  ['Mises en relation', 'mises-en-relation', (page) => page.getByRole('link', { name: 'Avec Karim' })],
  ['Messages', 'messages', (page) => page.getByRole('link', { name: 'Écrire un message ou répondre' })],
  ['Contrat et paiements', 'contrat', (page) => page.getByRole('heading', { level: 2, name: 'Paiements', exact: true })],
  ['Notes', 'notes', (page) => page.getByRole('region', { name: 'Suivi interne' })],
  ['Historique', 'historique', (page) => page.getByRole('list', { name: 'Historique des événements' })],
  ['Accès', 'acces', (page) => page.getByRole('heading', { level: 2, name: 'Consultations du dossier' })],
];

for (const width of [1440, 390]) {
  test(`the file’s header says who the member is in words, and each tab opens (${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await signedInPage(browser, width);
    const errors = watchConsole(page);
    await page.goto(`/dashboard/member/${salma}`);

    // The header: the name as the title, then age, city and stage, counsellor, contract and walī, in words.
    const header = page.getByTestId('member-header');
    const title = header.getByRole('heading', { level: 1 });
    await expect(title).toHaveText(/^Salma \S+/);
    expect(await title.innerText()).not.toMatch(UUID);
    await expect(header.getByTestId('member-facts')).toHaveText(/^28 ans · \S.* · Membre actif$/);
    await expect(header).toContainText('Conseiller·ère');
    await expect(header).toContainText('Nora, conseillère');
    await expect(header).toContainText(/Sérénité, 12 mois en 12 mensualités · signé le \d{1,2}(er)? \S+ \d{4} · fin le .* · En cours/);
    await expect(header).toContainText('Aucun walī indiqué · contact : ses propres coordonnées');
    const headerText = await header.innerText();
    expect(storedCodes(headerText)).toEqual([]);
    expect(headerText).not.toMatch(UUID);

    // The tabs: « Profil » open first; each opens by a click, with its address, and shows its content.
    const tabs = page.getByRole('navigation', { name: 'Onglets de la fiche' });
    await expect(tabs.getByRole('link', { name: 'Profil' })).toHaveAttribute('aria-current', 'page');
    for (const [label, id, content] of TABS) {
      await tabs.getByRole('link', { name: label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`onglet=${id}$`));
      await expect(tabs.getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('region', { name: `Onglet ${label}`, exact: true })).toBeVisible();
      await expect(content(page), label).toBeVisible();
    }

    // The statechart is folded in « Historique »; opened, it shows every step.
    await tabs.getByRole('link', { name: 'Historique' }).click();
    const chart = page.getByTestId('member-chart');
    await expect(chart).not.toHaveAttribute('open');
    await expect(page.getByRole('list', { name: 'Étapes du parcours (statechart)' })).toBeHidden();
    await chart.getByText('Voir toutes les étapes du parcours (statechart)').click();
    await expect(page.getByRole('list', { name: 'Étapes du parcours (statechart)' })).toBeVisible();
    expect(errors).toEqual([]);
    await page.context().close();
  });
}

test('the tabs work from the keyboard, and a link opens a tab', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInPage(browser, 1440);
  const errors = watchConsole(page);
  await page.goto(`/dashboard/member/${salma}?onglet=notes`);
  await expect(page.getByRole('region', { name: 'Suivi interne' })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Onglets de la fiche' });
  await expect(tabs.getByRole('link', { name: 'Notes' })).toHaveAttribute('aria-current', 'page');

  // Arrows move along the tabs (and wrap), Home and End go to the ends, Enter opens the tab.
  await tabs.getByRole('link', { name: 'Profil' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('link', { name: 'Mises en relation' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(tabs.getByRole('link', { name: 'Accès' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tabs.getByRole('link', { name: 'Profil' })).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await expect(tabs.getByRole('link', { name: 'Historique' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/onglet=historique$/);
  await expect(page.getByRole('list', { name: 'Historique des événements' })).toBeVisible();
  // Tab leaves the bar for the open tab's content.
  await expect(tabs.getByRole('link', { name: 'Historique' })).toBeFocused();

  // An older link to a card (« Aujourd’hui ») opens the tab that holds it.
  await page.goto(`/dashboard/member/${salma}#rights-title`);
  await expect(tabs.getByRole('link', { name: 'Contrat et paiements' })).toHaveAttribute('aria-current', 'page');
  await expect(
    page.getByRole('heading', { level: 2, name: 'Droits et échéances du contrat' }).or(page.locator('#rights-title')),
  ).toBeVisible();

  // The pictures: the header and « Profil », then « Mises en relation ».
  await page.goto(`/dashboard/member/${salma}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Actions de l’équipe' })).toBeVisible();
  await screenshots(page, 'fiche-membre-profil');
  await page.goto(`/dashboard/member/${salma}?onglet=mises-en-relation`);
  await expect(page.getByRole('link', { name: 'Avec Karim' })).toBeVisible();
  await screenshots(page, 'fiche-membre-mises-en-relation');
  expect(errors).toEqual([]);
  await page.context().close();
});

/** A demo member's file by first name (the cast's address). */
async function castMemberId(firstName: string): Promise<string> {
  const member = CAST.find((m) => m.firstName === firstName);
  if (!member) throw new Error(`membre de la distribution introuvable : ${firstName}`);
  return demoMemberId(product, emailOf(member));
}

// « Manqué » keeps its word (issue 63 point 6): before the meeting the file says why it is not
// offered, with no button; once the meeting's time has passed it is offered, and done.
// (The pictures are taken at 390 and 1440 px.)
test('« Entretien manqué » is refused before the meeting, with its reason', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInPage(browser, 390);
  const errors = watchConsole(page);
  // Ismaël's onboarding meeting is in three hours.
  await page.goto(`/dashboard/member/${await castMemberId('Ismaël')}`);
  const reason = page.getByTestId('reason-onb_meet_missed');
  await expect(reason).toHaveText(
    /^Entretien manqué\u00a0: pas encore possible\. L’entretien est prévu le .+\u00a0: il ne pourra être noté comme manqué qu’à partir de son heure de début\.$/,
  );
  await expect(page.getByRole('button', { name: 'Entretien manqué' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Annuler le rendez-vous' })).toBeVisible();
  await screenshots(page, 'fiche-membre-entretien-a-venir');
  expect(errors).toEqual([]);
  await page.context().close();
});

test('« Entretien manqué » once the meeting has passed: confirmed, the member back to booking', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedInPage(browser, 1440);
  const errors = watchConsole(page);
  // Rania's onboarding meeting was twenty hours ago.
  await page.goto(`/dashboard/member/${await castMemberId('Rania')}`);
  await expect(page.getByTestId('reason-onb_meet_missed')).toHaveCount(0);
  await page.getByRole('button', { name: 'Entretien manqué' }).click();
  const dialog = page.getByRole('dialog', { name: 'Entretien manqué' });
  await expect(dialog).toContainText('le créneau est libéré, le membre reçoit un e-mail');
  // A destructive action starts on the safe choice.
  await expect(dialog.getByRole('button', { name: 'Ne rien changer' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Confirmer' }).click();
  await expect(page.getByText('Entretien manqué\u00a0: c’est fait.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Entretien manqué' })).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Onglets de la fiche' }).getByRole('link', { name: 'Historique' }).click();
  await expect(page.getByRole('list', { name: 'Historique des événements' })).toContainText('Entretien personnalisé noté comme manqué');
  expect(errors).toEqual([]);
  await page.context().close();
});
