import { type APIRequestContext, expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { registerByApi } from '#tests/e2e/support/account.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { adminClient } from '#bff/auth/supabase.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import type { Product } from '#bff/start.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { E2E_STAFF_PASSWORD, signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/** Signs a request context in as `email` and enrols and passes its TOTP factor. */
async function signInWithTotp(request: APIRequestContext, email: string): Promise<void> {
  const signin = await request.post('/api/v1/auth/signin', { data: { email, password: E2E_STAFF_PASSWORD } });
  expect(signin.status(), await signin.text()).toBe(200);
  const factor = (await (await request.post('/api/v1/auth/mfa/enroll', { data: {} })).json()) as { factorId: string; secret: string };
  const code = new TOTP({ secret: Secret.fromBase32(factor.secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
  const verified = await request.post('/api/v1/auth/mfa/verify', { data: { factorId: factor.factorId, code } });
  expect(verified.status(), await verified.text()).toBe(200);
}

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

// Its own product: its registrations would use up the shared server's ten an hour from one address;
// its administration is the spec product's staff account, its counsellor made here.
let base = '';
const COUNSELLOR = { email: 'conseillere.roles@e2e.union-sincere.test', name: 'Mouna Haddou' };
let product: Product;
test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'roles');
  await ensureAccount(adminClient(product.auth), product.database.db, {
    email: COUNSELLOR.email,
    password: E2E_STAFF_PASSWORD,
    kind: 'staff',
    name: COUNSELLOR.name,
    staffRole: 'conseil',
  });
});
test.afterAll(async () => {
  await product?.close();
});

/**
 * Roles (issue 63 points 4 and 5, decision 206), as the team lives them: a counsellor works in the
 * back office with the members assigned to them only (the administration's menu items are not
 * there, another member's file is refused in words); the administration reads every read in the
 * « Journal des accès », filters it by colleague, and sees each colleague's role on the team page.
 */
test('a counsellor reaches their member only; the administration reads it in the access journal', async ({ browser, playwright }) => {
  test.setTimeout(120_000);
  const contextFor = () => playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  const stamp = Date.now();
  const members: { id: string; email: string }[] = [];
  for (const [i, role] of (['femme', 'homme'] as const).entries()) {
    const api = await contextFor();
    const email = `roles.${i}.${stamp}@example.fr`;
    expect(await registerByApi(api, { email, role, password: 'bismillah-roles-2026' })).toBe(201);
    const settings = (await (await api.get('/api/v1/user/settings')).json()) as { id: string };
    members.push({ id: settings.id, email });
    await api.dispose();
  }
  const [mine, theirs] = members as [{ id: string; email: string }, { id: string; email: string }];

  // The administration's session (by API), then the counsellor's; the administration assigns one member.
  const admin: APIRequestContext = await contextFor();
  await signInE2EStaff(admin, 'spare');
  const counsellorApi = await contextFor();
  await signInWithTotp(counsellorApi, COUNSELLOR.email);
  const team = (await (await admin.get('/api/v1/dashboard/staff')).json()) as { staff: { id: string; name: string }[] };
  const counsellorId = team.staff.find((s) => s.name === COUNSELLOR.name)?.id;
  expect(counsellorId).toBeTruthy();
  const assigned = await admin.put(`/api/v1/dashboard/members/${mine.id}/counsellor`, { data: { counsellorId } });
  expect(assigned.status(), await assigned.text()).toBe(200);

  // The counsellor's back office.
  const counsellorContext = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
  await skipConsentBanner(counsellorContext);
  await counsellorContext.addCookies((await counsellorApi.storageState()).cookies);
  const page = await counsellorContext.newPage();
  const errors = watchConsole(page, [403]);
  await page.goto('/dashboard');
  const nav = page.getByRole('navigation', { name: 'Navigation de l’équipe' });
  await expect(nav.getByRole('link', { name: 'Mises en relation' })).toBeVisible();
  for (const name of ['Facturation', 'Équipe', 'Journal des accès']) await expect(nav.getByRole('link', { name })).toHaveCount(0);
  await page.goto(`/dashboard/member/${mine.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Consultations du dossier' })).toHaveCount(0);
  await page.goto(`/dashboard/member/${theirs.id}`);
  await expect(page.getByText('Ce membre n’est pas suivi par vous', { exact: false })).toBeVisible();
  await screenshots(page, 'conseillere-membre-refuse');
  await page.goto('/dashboard/journal');
  await expect(page.getByText('Cette page est réservée à l’administration de l’agence.')).toBeVisible();
  expect(errors).toEqual([]);
  await counsellorContext.close();

  // The administration's journal: the counsellor's read of their member's file, by name.
  const adminContext = await browser.newContext({ baseURL: base });
  await skipConsentBanner(adminContext);
  await adminContext.addCookies((await admin.storageState()).cookies);
  const adminPage = await adminContext.newPage();
  const adminErrors = watchConsole(adminPage);
  await adminPage.goto('/dashboard');
  await adminPage.getByRole('navigation', { name: 'Navigation de l’équipe' }).getByRole('link', { name: 'Journal des accès' }).click();
  await expect(adminPage.getByRole('heading', { level: 1, name: 'Journal des accès' })).toBeVisible();
  await adminPage.getByLabel('Membre de l’équipe').selectOption({ label: COUNSELLOR.name });
  await expect(adminPage.getByTestId('journal-export')).toHaveAttribute(
    'href',
    `/api/v1/dashboard/access-journal/export?equipe=${counsellorId}`,
  );
  const rows = adminPage.getByTestId('journal-entries').getByRole('row');
  await expect(rows.filter({ hasText: 'Dossier du membre' }).first()).toContainText(COUNSELLOR.name);
  const body = await adminPage.locator('main').innerText();
  expect(body).not.toMatch(/\b(member_file|member_search|agency_[a-z]+|access_journal)\b/);
  await screenshots(adminPage, 'journal-des-acces');

  // The team page names each colleague's role in words.
  await adminPage.getByRole('navigation', { name: 'Navigation de l’équipe' }).getByRole('link', { name: 'Équipe' }).click();
  await expect(adminPage.getByLabel(`Rôle de ${COUNSELLOR.name}`)).toHaveValue('conseil');
  await expect(adminPage.getByLabel(`Rôle de ${'spare'}`)).toHaveValue('administration');
  await screenshots(adminPage, 'equipe-roles');
  expect(adminErrors).toEqual([]);
  await adminContext.close();
  await admin.dispose();
  await counsellorApi.dispose();
});
