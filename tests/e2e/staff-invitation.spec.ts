import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { E2E_STAFF_DISPLAY_NAMES, signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';

/**
 * Inviting a colleague (issue 21, decision 126): a staff member invites from the team page; the
 * colleague opens the mail in the local mailbox, chooses a password, enrols the TOTP second factor
 * and lands on the dashboard; the invitation leaves the pending list and the colleague is in the team.
 */

const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
const INVITER = E2E_STAFF_DISPLAY_NAMES.inviter;

async function accessibility(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
}

test('a colleague is invited, sets a password, enrols TOTP and reaches the dashboard', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = `nouvelle.collegue.${Date.now()}@agence.example.fr`;
  const name = 'Amina Belkacem';

  // 1. The inviter, at aal2, on the team page.
  const inviterContext = await browser.newContext();
  await skipConsentBanner(inviterContext);
  await signInE2EStaff(inviterContext.request, 'inviter');
  const inviter = await inviterContext.newPage();
  const inviterErrors = watchConsole(inviter, [400]);
  await inviter.goto('/dashboard/equipe');
  await expect(inviter.getByRole('heading', { level: 1, name: 'Équipe' })).toBeVisible();
  await expect(inviter.getByText('Aucune invitation en attente.')).toBeVisible();

  await inviter.getByRole('button', { name: 'Inviter un collègue' }).click();
  const dialog = inviter.getByRole('dialog', { name: 'Inviter un collègue' });
  await expect(dialog).toBeVisible();
  // A bad address is caught before anything is sent, in French.
  await dialog.getByLabel('Adresse e-mail du collègue').fill('pas-une-adresse');
  await dialog.getByLabel('Prénom et nom').fill(name);
  await dialog.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await expect(dialog.getByText('Saisissez une adresse e-mail valide')).toBeVisible();
  await expect(dialog.getByLabel('Adresse e-mail du collègue')).toHaveAccessibleDescription(/^Saisissez une adresse e-mail valide/);
  await expect(dialog.getByLabel('Adresse e-mail du collègue')).toBeFocused();
  await accessibility(inviter);
  // The dialog is portalled out of the staff shell and still takes its typeface.
  const titleFont = await dialog
    .getByRole('heading', { name: 'Inviter un collègue' })
    .evaluate((title) => getComputedStyle(title).fontFamily);
  expect(titleFont).toBe(await inviter.evaluate(() => getComputedStyle(document.body).fontFamily));
  await screenshots(inviter, 'invite-dialog', false);
  await dialog.getByLabel('Adresse e-mail du collègue').fill(email);
  await dialog.getByRole('button', { name: 'Envoyer l’invitation' }).click();
  await expect(dialog).toBeHidden();
  await expect(inviter.getByText(`Invitation envoyée à ${email}.`, { exact: true })).toBeVisible();

  const pending = inviter.getByRole('list', { name: 'Invitations en attente' });
  const card = pending.getByRole('listitem', { name: `Invitation de ${name}` });
  await expect(card.getByText(email)).toBeVisible();
  await expect(card.getByText(INVITER)).toBeVisible();
  await expect(card.getByRole('button', { name: `Renvoyer l’invitation à ${email}` })).toBeVisible();
  await expect(card.getByRole('button', { name: `Révoquer l’invitation de ${email}` })).toBeVisible();
  // The shot once the confirmation toast has gone (it would cover a card).
  await expect(inviter.getByText(`Invitation envoyée à ${email}.`, { exact: true })).toBeHidden({ timeout: 15_000 });
  await screenshots(inviter, 'team-pending-invitation');

  // 2. The colleague's mailbox: the French mail and its link.
  const colleagueContext = await browser.newContext();
  await skipConsentBanner(colleagueContext);
  const page = await colleagueContext.newPage();
  const errors = watchConsole(page, [400]);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await page.request.get('/_local/mailbox?format=json')).json()) as { to: string; text: string }[];
        link = mails
          .filter((m) => m.to === email)
          .map((m) => m.text.match(/https?:\/\/\S+\/dashboard\/invitation\?token=\S+/)?.[0])
          .find((match) => match !== undefined);
        return link;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  await page.goto('/_local/mailbox');
  await expect(page.getByRole('heading', { name: 'Invitation à rejoindre l’équipe Union Sincère' }).first()).toBeVisible();
  const path = new URL(link as string).pathname + new URL(link as string).search;

  // 3. The link's page: password (step 1).
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Rejoindre l’équipe' })).toBeVisible();
  await expect(page.getByText(`Bienvenue ${name}.`)).toBeVisible();
  await page.getByLabel('Mot de passe', { exact: true }).fill('court');
  await page.getByLabel('Confirmez le mot de passe').fill('court');
  await page.getByRole('button', { name: 'Continuer' }).click();
  await expect(page.getByText('Le mot de passe doit contenir au moins 12 caractères.')).toBeVisible();
  await accessibility(page);
  await screenshots(page, 'invitation-password');
  const password = 'bienvenue-equipe-2026';
  await page.getByLabel('Mot de passe', { exact: true }).fill(password);
  await page.getByLabel('Confirmez le mot de passe').fill(password);
  await page.getByRole('button', { name: 'Continuer' }).click();

  // 4. The second factor (step 2), then the dashboard.
  await expect(page).toHaveURL(/\/dashboard\/connexion$/);
  await expect(page.getByRole('heading', { name: 'Enregistrez votre second facteur' })).toBeVisible();
  const qr = page.getByRole('img', { name: 'QR code du second facteur' });
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await screenshots(page, 'invitation-totp');
  const secret = (await page.getByLabel('Clé secrète (saisie manuelle)').inputValue()).trim();
  await page.getByLabel('Code à 6 chiffres').fill(codeOf(secret));
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page).toHaveURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
  await screenshots(page, 'invitation-dashboard');

  // 5. The invitation left the pending list; the colleague is in the team.
  await inviter.reload();
  await expect(inviter.getByText('Aucune invitation en attente.')).toBeVisible();
  const team = inviter.getByRole('list', { name: /comptes? de l’équipe/ });
  const member = team.getByRole('listitem').filter({ has: inviter.getByRole('heading', { name }) });
  await expect(member.getByText(email)).toBeVisible();
  await expect(member.getByText('Actif', { exact: true })).toBeVisible();

  // 6. The link served once: opened again, a clear French message.
  const again = await browser.newContext();
  const used = await again.newPage();
  const usedErrors = watchConsole(used, [400]);
  await used.goto(path);
  await expect(used.getByText(/Ce lien d’invitation n’est plus valable/)).toBeVisible();
  await screenshots(used, 'invitation-used-link', false);

  expect(inviterErrors).toEqual([]);
  expect(errors).toEqual([]);
  expect(usedErrors).toEqual([]);
  await Promise.all([inviterContext.close(), colleagueContext.close(), again.close()]);
});
