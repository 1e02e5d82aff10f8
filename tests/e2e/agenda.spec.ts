import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { adminClient } from '#bff/auth/supabase.ts';
import { bookings } from '#bff/db/booking-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import type { Product } from '#bff/start.ts';
import { addDays, mondayOf, parisDayOf, parisDayStartMs } from '#machines/agenda/agenda.ts';
import { seedActiveMember } from '#tests/e2e/support/active-record.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * The staff agenda (issue 22, decision 122), as staff use it: from the dashboard's navigation, the
 * week (Monday to Sunday, Paris time) with an onboarding meeting, a matchmaking meeting and an
 * introduction's first meeting, each linking to the files; the day view; previous / today / next;
 * an empty week says so. Its own product, as introductions.spec.ts.
 */
let base = '';
const PASSWORD = 'bismillah-2026';
let product: Product;
const tag = Date.now();
const ids = { amina: '', youssef: '', nadia: '' };

// Next week (Paris): the first meeting must be in the future.
const nextMonday = addDays(mondayOf(parisDayOf(Date.now())), 7);
const day = (n: number) => addDays(nextMonday, n);
const at = (n: number, minutes: number) => new Date(parisDayStartMs(day(n)) + minutes * 60_000);

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'agenda');
  const admin = adminClient(product.auth);
  const db = product.database.db;
  const now = Date.now();
  ids.amina = await seedActiveMember(
    product,
    {
      email: `amina.${tag}@example.fr`,
      password: PASSWORD,
      gender: 'femme',
      firstName: 'Amina',
      lastName: 'Benali',
      birthDate: '1995-04-18',
    },
    now,
  );
  ids.youssef = await seedActiveMember(
    product,
    {
      email: `youssef.${tag}@example.fr`,
      password: PASSWORD,
      gender: 'homme',
      firstName: 'Youssef',
      lastName: 'Haddad',
      birthDate: '1990-02-11',
    },
    now,
  );
  // Nadia has just booked her onboarding meeting on the scheduling service.
  ids.nadia = (await ensureAccount(admin, db, { email: `nadia.${tag}@example.fr`, password: PASSWORD, kind: 'femme' })).id;
  await db
    .update(members)
    .set({ profile: { firstName: 'Nadia', lastName: 'Cherif' } })
    .where(eq(members.id, ids.nadia));
  const book = (memberId: string, uri: string, start: Date) =>
    db.insert(bookings).values({
      inviteeUri: `https://calendly.test/invitees/${uri}`,
      memberId,
      eventUri: `https://calendly.test/events/${uri}`,
      startTime: start,
      endTime: new Date(start.getTime() + 15 * 60_000),
      status: 'active',
      bookedAt: new Date(now),
    });
  await book(ids.nadia, `nadia-${tag}`, at(0, 9 * 60 + 30));
  await book(ids.amina, `amina-${tag}`, at(3, 17 * 60));
});
test.afterAll(async () => {
  await product?.close();
});

test('staff read the week’s meetings, open a day, move between periods and open the files', async ({ page, playwright, browser }) => {
  test.setTimeout(120_000);
  await skipConsentBanner(page.context());
  const errors = watchConsole(page);
  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
  await page.context().addCookies((await staff.storageState()).cookies);

  // An introduction both accepted, its first meeting planned on Wednesday at 14 h (Paris).
  const proposed = await staff.post('/api/v1/dashboard/introductions', { data: { a: ids.amina, b: ids.youssef } });
  expect(proposed.status(), await proposed.text()).toBe(201);
  const introductionId = ((await proposed.json()) as { introduction: { id: string } }).introduction.id;
  for (const email of [`amina.${tag}@example.fr`, `youssef.${tag}@example.fr`]) {
    const member = await browser.newContext({ baseURL: base });
    const signin = await member.request.post('/api/v1/auth/signin', { data: { email, password: PASSWORD }, headers: { origin: base } });
    expect(signin.status()).toBe(200);
    const accepted = await member.request.post(`/api/v1/user/introductions/${introductionId}/events`, {
      data: { type: 'ACCEPT' },
      headers: { origin: base },
    });
    expect(accepted.status(), await accepted.text()).toBe(200);
    await member.close();
  }
  const planned = await staff.post(`/api/v1/dashboard/introductions/${introductionId}/events`, {
    data: { type: 'PLAN_MEETING', meetingAt: at(2, 14 * 60).toISOString(), place: 'À l’agence, 12 rue de la Paix' },
  });
  expect(planned.status(), await planned.text()).toBe(200);
  await staff.dispose();

  // From the dashboard's navigation: this week, empty.
  await page.goto(`${base}/dashboard`);
  await page.getByRole('navigation', { name: 'Navigation de l’équipe' }).getByRole('link', { name: 'Agenda' }).click();
  await expect(page).toHaveURL(/\/dashboard\/agenda$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Agenda' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /^Semaine du / })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Aucun rendez-vous cette semaine.' })).toBeVisible();

  // Next week: three meetings, by day and time, in French.
  await page.getByRole('link', { name: 'Semaine suivante' }).click();
  await expect(page.getByTestId('agenda-item')).toHaveCount(3);
  const items = page.getByTestId('agenda-item');
  await expect(items.nth(0)).toContainText(/9\sh\s30/);
  await expect(items.nth(0)).toContainText('Entretien personnalisé');
  await expect(items.nth(0).getByRole('link', { name: 'Nadia Cherif' })).toBeVisible();
  await expect(items.nth(1)).toContainText(/14\sh\s00/);
  await expect(items.nth(1)).toContainText('Première rencontre (mise en relation)');
  await expect(items.nth(1)).toContainText('Lieu : À l’agence, 12 rue de la Paix');
  await expect(items.nth(1).getByRole('link', { name: 'Amina Benali' })).toBeVisible();
  await expect(items.nth(1).getByRole('link', { name: 'Youssef Haddad' })).toBeVisible();
  await expect(items.nth(2)).toContainText(/17\sh\s00/);
  await expect(items.nth(2)).toContainText('Entretien de rapprochement');
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(7);
  await expect(page.getByText('Aucun rendez-vous.')).toHaveCount(4);
  await screenshots(page, 'agenda-semaine');

  // The day view of Wednesday: the first meeting only; its introduction opens from there.
  await page.goto(`${base}/dashboard/agenda?vue=jour&jour=${day(2)}`);
  await expect(page.getByRole('link', { name: 'Jour', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('agenda-item')).toHaveCount(1);
  await screenshots(page, 'agenda-jour');
  await page.getByRole('link', { name: 'Jour suivant' }).click();
  await expect(page.getByTestId('agenda-item')).toHaveCount(1);
  await expect(page.getByTestId('agenda-item')).toContainText('Entretien de rapprochement');
  await page.getByRole('link', { name: 'Jour précédent' }).click();
  await page.getByRole('link', { name: 'Voir la mise en relation' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/mises-en-relation/${introductionId}$`));

  // Today, then a member's file from the week.
  await page.goto(`${base}/dashboard/agenda?vue=semaine&jour=${day(0)}`);
  await page.getByRole('link', { name: 'Aujourd’hui' }).click();
  await expect(page.getByText('Aucun rendez-vous cette semaine.')).toBeVisible();
  await page.getByRole('link', { name: 'Semaine suivante' }).click();
  await page.getByRole('link', { name: 'Nadia Cherif' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/member/${ids.nadia}$`));
  expect(errors).toEqual([]);
});
