import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { E2E_STAFF_DISPLAY_NAMES, E2E_STAFF_PASSWORD, e2eStaffEmail, signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';

/**
 * Staff second factor without lock-outs (issue 19, decision 103): a staff member enrols TOTP,
 * reloads mid-enrolment and gets a new usable QR code at once; a colleague resets that factor from
 * the team page through a confirmation dialog; at the next sign-in the first one enrols again.
 */

const LOST = 'factor-lost' as const;
const LOST_NAME = E2E_STAFF_DISPLAY_NAMES[LOST];

const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

async function passwordStep(page: Page) {
  await page.goto('/dashboard/connexion');
  await page.getByLabel('Adresse e-mail').fill(e2eStaffEmail(LOST));
  await page.getByLabel('Mot de passe').fill(E2E_STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Continuer' }).click();
}

/** The enrolment panel's secret, once its QR code is drawn. */
async function enrolmentSecret(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { name: 'Enregistrez votre second facteur' })).toBeVisible();
  const qr = page.getByRole('img', { name: 'QR code du second facteur' });
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const secret = (await page.getByLabel('Clé secrète (saisie manuelle)').inputValue()).trim();
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  return secret;
}

test('enrol, reload mid-enrolment, finish; a colleague resets the factor; the next sign-in enrols again', async ({ browser }) => {
  test.setTimeout(120_000);

  // 1. First sign-in: the enrolment panel. A reload before typing a code shows a new QR code at once.
  const lostContext = await browser.newContext();
  await skipConsentBanner(lostContext);
  const page = await lostContext.newPage();
  // 400: the abandoned QR code's code, on purpose; 401: the session ended by the reset.
  const errors = watchConsole(page, [400, 401]);
  await passwordStep(page);
  const first = await enrolmentSecret(page);
  await screenshots(page, 'enrolment');
  await page.reload();
  const second = await enrolmentSecret(page);
  expect(second).not.toBe(first);
  // The abandoned QR code is dead; the new one works.
  await page.getByLabel('Code à 6 chiffres').fill(codeOf(first));
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page.getByText(/Code incorrect/)).toBeVisible();
  await page.getByLabel('Code à 6 chiffres').fill(codeOf(second));
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page).toHaveURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
  expect(errors).toEqual([]);

  // 2. A colleague at aal2 resets it from the team page, through the dialog.
  const colleagueContext = await browser.newContext();
  await skipConsentBanner(colleagueContext);
  await signInE2EStaff(colleagueContext.request, 'factor-reset');
  const colleague = await colleagueContext.newPage();
  const colleagueErrors = watchConsole(colleague);
  await colleague.goto('/dashboard');
  await colleague.getByRole('navigation', { name: 'Navigation de l’équipe' }).getByRole('link', { name: 'Équipe' }).click();
  await expect(colleague).toHaveURL(/\/dashboard\/equipe$/);
  await expect(colleague.getByRole('heading', { level: 1, name: 'Équipe' })).toBeVisible();
  const team = colleague.getByRole('list', { name: /comptes? de l’équipe/ });
  const card = team.getByRole('listitem').filter({ has: colleague.getByRole('heading', { name: LOST_NAME }) });
  await expect(card.getByText('Actif', { exact: true })).toBeVisible();
  // No button to reset one's own factor.
  const own = team.getByRole('listitem').filter({ hasText: e2eStaffEmail('factor-reset') });
  await expect(own.getByText('ne peut être réinitialisé que par un collègue')).toBeVisible();
  await expect(own.getByRole('button')).toHaveCount(0);
  const axe = await new AxeBuilder({ page: colleague }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  const trigger = card.getByRole('button', { name: `Réinitialiser le second facteur de ${LOST_NAME}` });
  await trigger.click();
  const dialog = colleague.getByRole('dialog', { name: `Réinitialiser le second facteur de ${LOST_NAME} ?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(
    `${LOST_NAME} devra configurer à nouveau son application d’authentification à sa prochaine connexion ; ses sessions ouvertes prennent fin.`,
  );
  // The safe answer has the focus; the focus stays inside; Escape closes and gives it back.
  const cancel = dialog.getByRole('button', { name: 'Annuler' });
  const confirm = dialog.getByRole('button', { name: 'Réinitialiser le second facteur' });
  await expect(cancel).toBeFocused();
  await colleague.keyboard.press('Tab');
  await expect(confirm).toBeFocused();
  await colleague.keyboard.press('Tab');
  await expect(cancel).toBeFocused();
  await screenshots(colleague, 'reset-dialog', false);
  await colleague.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  await expect(card.getByText('Actif', { exact: true })).toBeVisible();

  await trigger.click();
  await expect(dialog).toBeVisible();
  const reset = colleague.waitForResponse((r) => r.url().includes('/reset-mfa'));
  await dialog.getByRole('button', { name: 'Réinitialiser le second facteur' }).click();
  expect((await reset).status()).toBe(200);
  await expect(dialog).toBeHidden();
  // Nothing is left to reset on that account: its button goes, the focus is on the account's heading.
  await expect(card.getByRole('heading', { name: LOST_NAME })).toBeFocused();
  await expect(trigger).toHaveCount(0);
  await expect(card.getByText('Aucun second facteur à réinitialiser.')).toBeVisible();
  await expect(colleague.getByText(`Second facteur de ${LOST_NAME} réinitialisé.`).first()).toBeVisible();
  await expect(card.getByText('À configurer à la prochaine connexion')).toBeVisible();
  await expect(card.getByText(`par ${e2eStaffEmail('factor-reset')}`)).toBeVisible();
  await screenshots(colleague, 'team-after-reset');
  expect(colleagueErrors).toEqual([]);

  // 3. The first staff member's open dashboard ends; the next sign-in asks for no code of a factor
  //    that is gone: a new enrolment, then the dashboard.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard\/connexion/);
  await passwordStep(page);
  const third = await enrolmentSecret(page);
  expect([first, second]).not.toContain(third);
  await page.getByLabel('Code à 6 chiffres').fill(codeOf(third));
  await page.getByRole('button', { name: 'Valider' }).click();
  await expect(page).toHaveURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeVisible();
  expect(errors).toEqual([]);

  await Promise.all([lostContext.close(), colleagueContext.close()]);
});
