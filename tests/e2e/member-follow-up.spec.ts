import { expect, test } from '@playwright/test';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { E2E_STAFF_DISPLAY_NAMES, signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { registerByApi } from '#tests/e2e/support/account.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * Staff's follow-up of a member (issue 21, decision 124): on the member's page a staff member takes
 * the file on (counsellor), tags it, writes a note, corrects it, deletes it behind a dialog; the
 * change of counsellor reads as a sentence in the history; the member list filters by tag and by
 * counsellor. The member's own space shows none of it.
 */
test('staff add a counsellor, a tag and a note on a member; the list filters by them', async ({ page, baseURL, playwright }) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const email = `suivi.${stamp}@example.fr`;
  const tag = `Prioritaire ${stamp}`;

  // The member signs up through the API, in their own request context.
  const memberApi = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  expect(await registerByApi(memberApi, { email, role: 'femme', password: 'bismillah-2026' })).toBe(201);
  const { id } = (await (await memberApi.get('/api/v1/user/settings')).json()) as { id: string };

  const errors = watchConsole(page);
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  await signInE2EStaff(staff, 'follow-up');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();
  const name = E2E_STAFF_DISPLAY_NAMES['follow-up'];

  // Layout shifts of the page as it loads, summed (the follow-up card once pushed the file down).
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!entry.hadRecentInput) w.__shift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // The file's header and the file are fetched with the page (Link header, decisions 135, 209): one
  // request each; the « Notes » tab asks for the follow-up once, beside them.
  const asked: string[] = [];
  const preloaded = [`/api/v1/dashboard/members/${id}/summary`, `/api/v1/dashboard/members/${id}`];
  const counted = [...preloaded, `/api/v1/dashboard/members/${id}/follow-up`];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (counted.includes(path)) asked.push(path);
  });
  const shell = await page.goto(`/dashboard/member/${id}?onglet=notes`);
  expect(shell?.headers().link).toBe(preloaded.map((path) => `<${path}>; rel=preload; as=fetch; crossorigin`).join(', '));
  const card = page.getByRole('region', { name: 'Suivi interne' });
  await expect(card).toBeVisible();
  await expect(card.getByText('Aucune note.')).toBeVisible();
  const header = page.getByTestId('member-header');
  await expect(header).toBeVisible();
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.05);
  expect(asked.sort()).toEqual([...counted].sort());

  // Counsellor: oneself; the header says it at once.
  await card.getByLabel('Conseiller ou conseillère du suivi').selectOption({ label: `Moi (${name})` });
  await card.getByRole('button', { name: 'Enregistrer le conseiller' }).click();
  await expect(card.getByText(`En charge : ${name}, depuis le`)).toBeVisible();
  await expect(header).toContainText(name);
  // The history of the file says it as a sentence.
  const tabs = page.getByRole('navigation', { name: 'Onglets de la fiche' });
  await tabs.getByRole('link', { name: 'Historique' }).click();
  await expect(page.getByText(new RegExp(`Suivi confié à ${name} par ${name}, `))).toBeVisible();
  await tabs.getByRole('link', { name: 'Notes' }).click();
  await expect(card).toBeVisible();

  // A tag, typed with a capital and extra spaces: kept as typed (issue 63), its spaces tidied.
  await card.getByLabel('Nouvelle étiquette').fill(`  Prioritaire   ${stamp} `);
  await card.getByRole('button', { name: 'Ajouter l’étiquette' }).click();
  await expect(card.getByRole('list', { name: 'Étiquettes du membre' }).getByText(tag)).toBeVisible();

  // A note, then corrected.
  await card.getByLabel('Nouvelle note').fill('Appelée ce matin : préfère un rappel le soir.');
  await card.getByRole('button', { name: 'Ajouter la note' }).click();
  const notes = card.getByRole('list', { name: 'Notes internes, les plus récentes d’abord' });
  await expect(notes.getByText('Appelée ce matin : préfère un rappel le soir.')).toBeVisible();
  await expect(notes.getByText(new RegExp(`^${name}, le `))).toBeVisible();
  await notes.getByRole('button', { name: 'Modifier' }).click();
  await notes.getByLabel('Modifier la note').fill('Appelée ce matin : la rappeler après 18 h.');
  await notes.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(notes.getByText('Appelée ce matin : la rappeler après 18 h.')).toBeVisible();
  await expect(notes.getByText(/\(modifiée le /)).toBeVisible();
  await card.getByLabel('Nouvelle note').fill('Seconde note, à supprimer.');
  await card.getByRole('button', { name: 'Ajouter la note' }).click();
  await expect(notes.getByRole('listitem')).toHaveCount(2);
  // Newest first.
  await expect(notes.getByRole('listitem').first()).toContainText('Seconde note, à supprimer.');
  await card.scrollIntoViewIfNeeded();
  await screenshots(page, 'membre-suivi');

  // Deleting one's note: a dialog says what happens, the safe answer has the focus.
  await notes.getByRole('listitem').first().getByRole('button', { name: 'Supprimer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Supprimer cette note ?' });
  await expect(dialog.getByText('disparaît du dossier pour toute l’équipe')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Supprimer la note' }).click();
  await expect(dialog).toBeHidden();
  await expect(notes.getByRole('listitem')).toHaveCount(1);

  // The member list: filtered by the tag, and by counsellor.
  await page.goto('/dashboard');
  await page.getByLabel('Étiquette').selectOption({ label: `${tag} (1)` });
  await expect(page).toHaveURL(/tag=/);
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows.filter({ hasText: email })).toHaveCount(1);
  await expect(page.getByRole('table').getByText('1 membre', { exact: true })).toBeVisible();
  await page.getByLabel('Conseiller').selectOption('aucun');
  await expect(page.getByText('Aucun membre ne correspond à ces filtres.')).toBeVisible();
  await page.getByLabel('Conseiller').selectOption({ label: `Moi (${name})` });
  await expect(rows.filter({ hasText: email })).toHaveCount(1);
  await screenshots(page, 'membres-filtre-etiquette');

  // The member's own space never shows the notes.
  const memberPage = await page.context().browser()?.newContext();
  if (memberPage) {
    await memberPage.addCookies((await memberApi.storageState()).cookies);
    const own = await memberPage.newPage();
    await own.goto('/mon-compte');
    await expect(own.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(own.getByText('la rappeler après 18 h')).toHaveCount(0);
    await memberPage.close();
  }
  await memberApi.dispose();
  expect(errors).toEqual([]);
});

/**
 * The team page (decision 124): a staff member disables a colleague behind a dialog that says what
 * happens (the colleague's open session ends at once), then re-enables them.
 */
test('staff disable and re-enable a colleague from the team page', async ({ page, baseURL, playwright }) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  const colleagueApi = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  await signInE2EStaff(colleagueApi, 'colleague');
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  await signInE2EStaff(staff, 'team-admin');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();
  const who = E2E_STAFF_DISPLAY_NAMES.colleague;

  await page.goto('/dashboard/equipe');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: who }) });
  await expect(card).toBeVisible();
  // Never oneself: the own card has no such button.
  await expect(
    page.getByRole('button', { name: new RegExp(`^Désactiver le compte de ${E2E_STAFF_DISPLAY_NAMES['team-admin']}`) }),
  ).toHaveCount(0);
  await card.getByRole('button', { name: `Désactiver le compte de ${who}` }).click();
  const dialog = page.getByRole('dialog', { name: `Désactiver le compte de ${who} ?` });
  await expect(dialog.getByText('déconnecté·e tout de suite, sur tous ses appareils')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeFocused();
  await screenshots(page, 'equipe-desactiver', false);
  await dialog.getByRole('button', { name: 'Désactiver le compte' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText('désactivé')).toBeVisible();
  // The colleague's open session is refused at once.
  expect((await colleagueApi.get('/api/v1/dashboard/staff')).status()).toBe(401);
  await screenshots(page, 'equipe');

  await card.getByRole('button', { name: `Réactiver le compte de ${who}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Réactiver le compte' }).click();
  await expect(card.getByRole('button', { name: `Désactiver le compte de ${who}` })).toBeVisible();
  await colleagueApi.dispose();
  expect(errors).toEqual([]);
});
