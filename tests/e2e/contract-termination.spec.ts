import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { Product } from '#bff/start.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { contractEndsAtMs } from '#machines/onboarding/periods.ts';
import { seedActiveMember, signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { moveAgencyClock } from '#tests/e2e/support/agency-clock.ts';
import { samplePdf } from '#tests/support/termination.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * How a contract ends, as people would, on its own product whose clock moves through `/_local/clock`:
 * - termination for a legitimate reason (R224-2, decision 119): an active member asks from « Mes
 *   droits » with a reason and a few words; staff read the request on the member's page and refuse
 *   it with a reason; she asks again and staff accept; each step is mailed to her;
 * - the term (L224-90, decision 118): notices 30 and 7 days before, then « Contrat terminé » and a
 *   new contract offered, never a tacit renewal.
 */
const PASSWORD = 'bismillah-2026';
let base = '';
const email = `amina.resiliation.${Date.now()}@example.fr`;
let product: Product;
let staff: APIRequestContext;
let memberId = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'termination');
  memberId = await seedActiveMember(
    product,
    { email, password: PASSWORD, gender: 'femme', firstName: 'Amina', lastName: 'Benali', birthDate: '1995-04-18' },
    product.clock.now().getTime(),
  );
  staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
});
test.afterAll(async () => {
  await staff?.dispose();
  await product?.close();
});

async function askToTerminate(member: Page) {
  await member.goto(`${base}/mon-compte`);
  const rights = member.getByRole('region', { name: 'Mes droits' });
  await rights.getByRole('button', { name: 'Résilier pour un motif légitime' }).click();
  const dialog = member.getByRole('dialog', { name: 'Résilier pour un motif légitime ?' });
  await expect(dialog.getByText(/article R224\u20112/)).toBeVisible();
  await dialog.getByRole('radio', { name: 'Déménagement' }).check();
  await dialog.getByLabel('Votre situation, en quelques mots').fill('Je pars vivre à Montréal pour mon travail dès le mois prochain.');
  // A move needs its proof, a file (decision 189).
  await dialog.getByLabel('Justificatif (obligatoire)').setInputFiles({
    name: 'contrat-de-travail.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(samplePdf('Contrat de travail a Montreal')),
  });
  await screenshots(member, 'resiliation-demande', false);
  await dialog.getByRole('button', { name: 'Envoyer ma demande' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(member.getByTestId('rights-state')).toContainText('Vous avez demandé la résiliation de votre contrat pour motif légitime');
}

async function decide(desk: Page, accept: boolean) {
  await desk.goto(`${base}/dashboard/member/${memberId}?onglet=contrat`);
  const request = desk.getByTestId('termination-request');
  await expect(request.getByText('Déménagement')).toBeVisible();
  await expect(request.getByText('Je pars vivre à Montréal pour mon travail dès le mois prochain.')).toBeVisible();
  await expect(request.getByText('En attente de décision')).toBeVisible();
  await request.getByRole('button', { name: accept ? 'Accepter la résiliation' : 'Refuser la résiliation' }).click();
  const dialog = desk.getByRole('dialog');
  if (!accept) await dialog.getByLabel('Raison du refus (envoyée au membre)').fill('Merci de nous transmettre le contrat de travail.');
  await dialog.getByRole('button', { name: accept ? 'Oui, accepter' : 'Envoyer le refus' }).click();
  await expect(request.getByText(accept ? 'Acceptée' : 'Refusée', { exact: false })).toBeVisible();
}

test('a member asks to terminate for a legitimate reason; staff refuse with a reason, then accept her second request', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const member = await signedInMemberPage(browser, base, email, PASSWORD);
  await skipConsentBanner(page.context());
  await page.context().addCookies((await staff.storageState()).cookies);

  await askToTerminate(member);
  await decide(page, false);
  await expect(page.getByText('Merci de nous transmettre le contrat de travail.')).toBeVisible();
  await screenshots(page, 'resiliation-refusee');

  // Refused: the contract goes on, and she may ask again.
  await member.goto(`${base}/mon-compte`);
  await expect(member.getByRole('button', { name: 'Résilier pour un motif légitime' })).toBeVisible();
  await askToTerminate(member);
  await decide(page, true);

  await member.goto(`${base}/mon-compte`);
  await expect(member.getByTestId('rights-state')).toContainText('Contrat résilié pour motif légitime le');
  await expect(member.getByRole('button', { name: 'Choisir une nouvelle formule' })).toBeVisible();
  await screenshots(member, 'resiliation-acceptee');

  // Every step in her mailbox, once each.
  await expect
    .poll(async () => {
      const mails = (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as { to: string; subject: string }[];
      return mails
        .filter((m) => m.to.includes(email) && /résili/i.test(m.subject))
        .map((m) => m.subject)
        .sort();
    })
    .toEqual(
      [
        'Votre contrat est résilié',
        'Votre demande de résiliation a bien été reçue',
        'Votre demande de résiliation a bien été reçue',
        'Votre demande de résiliation n’a pas été acceptée',
      ].sort(),
    );
  await member.context().close();
});

test('the term ends: notices 30 and 7 days before, then « Contrat terminé » and a new contract offered', async ({ browser }) => {
  test.setTimeout(120_000);
  const termEmail = `sarah.terme.${Date.now()}@example.fr`;
  const id = await seedActiveMember(
    product,
    { email: termEmail, password: PASSWORD, gender: 'femme', firstName: 'Sarah', lastName: 'Mansour', birthDate: '1994-09-02' },
    product.clock.now().getTime(),
  );
  const [row] = await product.database.query<{ signed: string }>(
    `SELECT onboarding->>'subscriptionDate' AS signed FROM members WHERE id = $1`,
    [id],
  );
  // Horizon: 6 months from the signature (activeRecord signs 40 days ago).
  const end = contractEndsAtMs(row?.signed ?? null, 6) ?? 0;
  const member = await signedInMemberPage(browser, base, termEmail, PASSWORD);
  // Through the clock's route: every job due on the way runs (the agency's mails, retention…) and
  // the mails are sent before it answers.
  const moveTo = async (at: number) => {
    await moveAgencyClock(member.request, base, at - product.clock.now().getTime(), [member]);
  };
  const subjects = async () => {
    const mails = (await (await member.request.get(`${base}/_local/mailbox?format=json`)).json()) as { to: string; subject: string }[];
    return mails
      .filter((m) => m.to.includes(termEmail))
      .map((m) => m.subject)
      .sort();
  };

  await member.goto(`${base}/mon-compte`);
  await expect(member.getByRole('region', { name: 'Mes droits' })).toContainText('Votre contrat prend fin le');
  await moveTo(end - 30 * DAY_MS);
  await moveTo(end - 7 * DAY_MS);
  await expect.poll(subjects).toEqual(['Votre contrat prend fin dans 30 jours', 'Votre contrat prend fin dans 7 jours']);
  await moveTo(end + 60_000);
  await expect.poll(subjects).toContain('Votre accompagnement est terminé');

  await member.goto(`${base}/mon-compte`);
  await expect(member.getByTestId('rights-state')).toContainText('Votre contrat a pris fin le');
  await expect(member.getByTestId('rights-state')).toContainText('Il n’est pas reconduit tacitement.');
  await screenshots(member, 'contrat-termine');
  // A new contract, if she wishes: back to the plans, nothing to pay before a new signature + 7 days.
  await member.getByRole('button', { name: 'Choisir une nouvelle formule' }).click();
  await member.getByRole('dialog').getByRole('button', { name: 'Oui, choisir une formule' }).click();
  await expect(member).toHaveURL(/\/mon-compte\/inscription\/formules$/);
  await member.context().close();
});
