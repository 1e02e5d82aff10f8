import { type APIRequestContext, expect, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { seedActiveMember, signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * « Contact through my walī only » as people would (issue 62 point 4, decision 196): Amina chooses
 * it in her profile with her father as walī (his phone, no e-mail), staff propose Youssef, both
 * accept (over the API), and Youssef's screen shows the walī's name and phone and never her own
 * phone or e-mail — nor does the JSON his session reads. Its own product; screenshots at 390 and
 * 1440 px with SCREENSHOTS=1.
 */
const PASSWORD = 'bismillah-2026';
let base = '';
const tag = Date.now();
const AMINA_PHONE = '+33698765432';
let product: Product;
let staff: APIRequestContext;
const people = {
  amina: { email: `amina.w.${tag}@example.fr`, id: '' },
  youssef: { email: `youssef.w.${tag}@example.fr`, id: '' },
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'wali');
  const now = product.clock.now().getTime();
  people.amina.id = await seedActiveMember(
    product,
    {
      email: people.amina.email,
      password: PASSWORD,
      gender: 'femme',
      firstName: 'Amina',
      lastName: 'Benali',
      birthDate: '1995-04-18',
      phone: AMINA_PHONE,
    },
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

test('contact through her walī only: Youssef reads the walī’s name and phone, never hers', async ({ browser }) => {
  test.setTimeout(180_000);
  const amina = await signedInMemberPage(browser, base, people.amina.email, PASSWORD);
  const youssef = await signedInMemberPage(browser, base, people.youssef.email, PASSWORD);

  // Amina names her father as walī, and chooses to be contacted through him only.
  await amina.goto(`${base}/mon-compte/mon-profil`);
  const section = amina.getByTestId('my-guardian');
  await section.getByLabel('Nom', { exact: true }).fill('Ahmed Benali');
  await section.getByRole('radio', { name: 'Père' }).check();
  await section.getByLabel('Téléphone (facultatif)').fill('06 55 44 33 22');
  await section.getByRole('radio', { name: 'Rien' }).check();
  await section.getByRole('radio', { name: 'Uniquement par mon walī' }).check();
  await section.getByRole('checkbox', { name: /Mon proche est informé/ }).check();
  await section.getByRole('button', { name: 'Associer ce proche' }).click();
  await expect(section).toContainText('À l’acceptation mutuelle : uniquement par mon walī.');
  await expect(section.getByTestId('guardian-no-email')).toBeVisible();
  // The saved phone is shown as people write it, never as the stored code.
  await expect(section.getByLabel('Téléphone (facultatif)')).toHaveValue('06 55 44 33 22');
  await screenshots(amina, 'wali-profil');

  // Staff propose Youssef; both accept.
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

  // Amina's screen says how she is reached, from her profile's choice.
  await amina.goto(`${base}/mon-compte/propositions`);
  await expect(amina.getByTestId('contact-choice')).toContainText('Seuls le nom et le téléphone de votre walī sont transmis');
  await screenshots(amina, 'wali-choix-proposition');

  // Youssef's screen: the walī's name and phone, not her phone nor her e-mail.
  await youssef.goto(`${base}/mon-compte/propositions`);
  const through = youssef.getByTestId('contact-through-wali');
  await expect(through).toContainText('Ahmed Benali (père)');
  await expect(through.getByRole('link', { name: '06 55 44 33 22' })).toHaveAttribute('href', 'tel:+33655443322');
  const screen = (await youssef.locator('main').innerText()).replace(/\s+/g, ' ');
  expect(screen).not.toContain(people.amina.email);
  expect(screen).not.toContain('06 98 76 54 32');
  expect(screen).not.toContain(AMINA_PHONE);
  await screenshots(youssef, 'wali-contact-recu');

  // The same over HTTP, from his session: her phone and e-mail are nowhere in the JSON.
  const raw = await (await youssef.request.get(`${base}/api/v1/user/introductions`)).text();
  expect(raw).toContain('+33655443322');
  expect(raw).toContain('Ahmed Benali');
  expect(raw).not.toContain(AMINA_PHONE);
  expect(raw).not.toContain(people.amina.email);

  await amina.context().close();
  await youssef.context().close();
});
