import { expect, type Page, test } from '@playwright/test';
import { adminClient } from '#bff/auth/supabase.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import type { Product } from '#bff/start.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { E2E_STAFF_PASSWORD, e2eStaffEmail, signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { todaySeeder } from '#tests/support/today-seed.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * « Aujourd’hui » (issue 63, decision 203), as staff open the back office: /dashboard opens on the
 * day's groups, each empty one saying so in one line; once there is work, each group lists it for
 * « Mes membres » or « Toute l’agence », and each item's link leads to the right screen (the
 * member's file scrolled to the right card, the introduction, the messages, the leads). An unknown
 * back-office address says « Page introuvable » in the dashboard's layout. Its own product, the
 * rows written straight into its database (tests/support/today-seed.ts).
 */
let base = '';
let product: Product;
// One product, one port: the file's tests run one after the other in one worker.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'aujourdhui');
});
test.afterAll(async () => {
  await product?.close();
});

const GROUPS = {
  meetings: 'Aucun rendez-vous aujourd’hui ni demain.',
  toValidate: 'Aucun entretien ni aucune rencontre passés à noter.',
  answers: 'Aucune réponse ni aucun retour attendu.',
  presentations: 'Aucune présentation à relire.',
  leads: 'Aucun prospect à relancer aujourd’hui.',
  messages: 'Aucun message non lu.',
  terminations: 'Aucune demande de résiliation en attente.',
  payments: 'Aucune mensualité échouée ni aucun remboursement à faire.',
} as const;
type GroupId = keyof typeof GROUPS;

const group = (page: Page, id: GroupId) => page.getByTestId(`today-${id}`);
const firstLink = (page: Page, id: GroupId) => group(page, id).getByRole('listitem').first().getByRole('link');

test('the dashboard opens on the day: its groups, the scope toggle, and each item one click from its screen', async ({
  page,
  playwright,
}) => {
  test.setTimeout(180_000);
  await skipConsentBanner(page.context());
  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();
  const admin = adminClient(product.auth);
  const spare = await ensureAccount(admin, product.database.db, {
    email: e2eStaffEmail('spare'),
    password: E2E_STAFF_PASSWORD,
    kind: 'staff',
  });

  // Layout shifts as the page loads, summed: « Aujourd’hui » once grew from its title to its eight
  // groups when its answer came and pushed the funnel down (Lighthouse: CLS 0.41 on /dashboard).
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!entry.hadRecentInput) w.__shift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // Nothing to do yet: every group says so in one line, above the funnel and the member list.
  await page.goto(`${base}/dashboard`);
  const today = page.getByTestId('today');
  await expect(today.getByRole('heading', { level: 2, name: 'Aujourd’hui' })).toBeVisible();
  await expect(today.getByRole('button', { name: 'Mes membres' })).toHaveAttribute('aria-pressed', 'true');
  for (const [id, empty] of Object.entries(GROUPS)) await expect(group(page, id as GroupId)).toContainText(empty);
  await expect(page.getByRole('list', { name: 'Membres par étape' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Membres', exact: true })).toBeVisible();
  const todayBox = await today.boundingBox();
  const funnelBox = await page.getByRole('list', { name: 'Membres par étape' }).boundingBox();
  expect(todayBox && funnelBox && todayBox.y < funnelBox.y).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBeLessThan(0.05);

  // Work for the signed-in counsellor's member, and for a colleague's.
  const colleague = await ensureAccount(admin, product.database.db, {
    email: `collegue.aujourdhui.${Date.now()}@example.fr`,
    password: E2E_STAFF_PASSWORD,
    kind: 'staff',
    name: 'Collègue',
  });
  const seeder = todaySeeder(product, Date.now());
  const mine = await seeder.seedAll('Mienne', spare.id);
  await seeder.seedAll('Autre', colleague.id);

  await page.reload();
  for (const id of Object.keys(GROUPS) as GroupId[]) {
    await expect(group(page, id)).toContainText(id === 'leads' ? 'Prospect Mienne' : 'Mienne Test');
    await expect(group(page, id)).not.toContainText(id === 'leads' ? 'Prospect Autre' : 'Autre Test');
  }
  await expect(group(page, 'answers')).toContainText('en retard');
  await screenshots(page, 'aujourdhui-mes-membres');

  // The whole agency: the colleague's member too; the choice is kept for the next visit.
  await today.getByRole('button', { name: 'Toute l’agence' }).click();
  await expect(today.getByRole('button', { name: 'Toute l’agence' })).toHaveAttribute('aria-pressed', 'true');
  for (const id of Object.keys(GROUPS) as GroupId[])
    await expect(group(page, id)).toContainText(id === 'leads' ? 'Prospect Autre' : 'Autre Test');
  await screenshots(page, 'aujourdhui-agence');
  await page.reload();
  await expect(today.getByRole('button', { name: 'Toute l’agence' })).toHaveAttribute('aria-pressed', 'true');
  await today.getByRole('button', { name: 'Mes membres' }).click();
  await expect(group(page, 'meetings')).not.toContainText('Autre Test');

  // Each group names the screen that lists its kind.
  const screens: [GroupId, string, string][] = [
    ['meetings', 'Ouvrir l’agenda', '/dashboard/agenda'],
    ['answers', 'Voir les mises en relation', '/dashboard/mises-en-relation'],
    ['leads', 'Ouvrir les prospects', '/dashboard/prospects'],
    ['messages', 'Ouvrir les messages', '/dashboard/message-direct'],
    ['terminations', 'Voir ces membres', '/dashboard?step=resiliation-demandee'],
    ['payments', 'Ouvrir la facturation', '/dashboard/facturation'],
  ];
  for (const [id, name, href] of screens) await expect(group(page, id).getByRole('link', { name })).toHaveAttribute('href', href);

  // Each item, one click from where its work is done.
  const file = `/dashboard/member/${mine.owner}`;
  const visits: [GroupId, RegExp, string | null][] = [
    ['meetings', new RegExp(`${file}#meetings-title$`), 'meetings-title'],
    ['toValidate', new RegExp(`/dashboard/mises-en-relation/${mine.firstMeeting}$`), null],
    ['answers', new RegExp(`/dashboard/mises-en-relation/${mine.proposal}$`), null],
    ['presentations', new RegExp(`${file}#profile-title$`), 'profile-title'],
    ['leads', /\/dashboard\/prospects$/, null],
    ['messages', new RegExp(`/dashboard/message-direct\\?memberId=${mine.owner}$`), null],
    ['terminations', new RegExp(`${file}#rights-title$`), 'rights-title'],
    ['payments', new RegExp(`${file}#billing-title$`), 'billing-title'],
  ];
  for (const [id, url, card] of visits) {
    await page.goto(`${base}/dashboard`);
    await firstLink(page, id).click();
    await expect(page, id).toHaveURL(url);
    if (card) {
      await expect(page.getByRole('heading', { level: 1, name: 'Mienne Test' })).toBeVisible();
      // The file opens on the card the item is about.
      await expect(page.locator(`#${card}`), id).toBeInViewport({ timeout: 10_000 });
    }
  }
  await page.goto(`${base}/dashboard`);
  await firstLink(page, 'leads').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Prospects' })).toBeVisible();
});

test('an unknown back-office address says « Page introuvable » inside the dashboard, not the public 404', async ({ page, playwright }) => {
  await skipConsentBanner(page.context());
  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  const signin = await staff.post('/api/v1/auth/signin', { data: { email: e2eStaffEmail('spare'), password: E2E_STAFF_PASSWORD } });
  expect(signin.status()).toBe(200);
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();

  const response = await page.goto(`${base}/dashboard/nimporte-quoi`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeVisible();
  await expect(page.getByText('Aucune page de l’espace équipe ne se trouve à l’adresse')).toContainText('/dashboard/nimporte-quoi');
  await expect(page.getByRole('link', { name: /Espace équipe/ })).toBeVisible();
  await expect(page).toHaveTitle('Page introuvable — Union Sincère');
  await screenshots(page, 'dashboard-page-introuvable');
  await page.getByRole('link', { name: 'Retour au tableau de bord (Aujourd’hui)' }).click();
  await expect(page).toHaveURL(/\/dashboard(\/connexion)?(\?|$)/);
});
