import { expect, test } from '@playwright/test';
import { createAccount } from '#tests/e2e/support/account.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * Two-way messages (decision 121), as people would: staff pick the member with the recipient
 * combobox by keyboard and write; the member sees « 1 » next to « Messages », opens the
 * conversation (the count goes to 0) and replies; staff see the member's unread message counted
 * in the dashboard's navigation and in « Messages non lus », and opening it clears the count.
 */
test('staff write, the member reads (1 → 0) and replies, staff see it unread then read', async ({ page, browser, baseURL, playwright }) => {
  test.setTimeout(120_000);
  const tag = `conversation.${Date.now()}`;
  const email = `${tag}@example.fr`;

  // The member signs up in their own browser.
  const memberContext = await browser.newContext();
  await skipConsentBanner(memberContext);
  const member = await memberContext.newPage();
  const memberErrors = watchConsole(member);
  await createAccount(member, { gender: 'femme', email, password: 'bismillah-2026' });
  await expect(member).toHaveURL(/\/mon-compte\/inscription\/profil/);

  // Staff: password and second factor through the API, then the cookies go to the page.
  const errors = watchConsole(page);
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  await signInE2EStaff(staff, 'messages');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();
  await page.goto('/dashboard/message-direct');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();

  // The recipient combobox, by keyboard only.
  const combo = page.getByRole('combobox', { name: 'Destinataire' });
  await combo.focus();
  await page.keyboard.type(tag.slice(0, -1), { delay: 10 });
  const option = page.getByRole('option', { name: email });
  await expect(option).toBeVisible();
  await expect(combo).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('status').filter({ hasText: '1 membre trouvé.' })).toBeVisible();
  // The last character, then ↓ on the results still shown, before the search for the whole text
  // answers: its answer keeps the member the arrow reached (it did not, on a slow CI host).
  const lastSearch = page.waitForResponse((r) => r.url().includes('/member-search?') && new URL(r.url()).searchParams.get('q') === tag);
  await page.keyboard.type(tag.slice(-1));
  await page.keyboard.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await (await lastSearch).finished();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50))));
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await expect(combo).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id')) ?? 'missing');
  // Échap closes the list and keeps the text; ↓ opens it again on the first option.
  await page.keyboard.press('Escape');
  await expect(combo).toHaveAttribute('aria-expanded', 'false');
  await expect(option).toBeHidden();
  await expect(combo).toHaveValue(tag);
  await page.keyboard.press('ArrowDown');
  await expect(option).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/memberId=/);
  await expect(combo).toHaveValue(email);
  await expect(combo).toHaveAttribute('aria-expanded', 'false');
  await expect(combo).toBeFocused();

  const write = page.getByRole('region', { name: 'Écrire à un membre' });
  await write.getByLabel('Objet (facultatif)').fill('Votre entretien');
  // An empty message is refused; the error is read with its field, which takes the focus.
  const staffMessage = write.getByLabel('Message', { exact: true });
  await write.getByRole('button', { name: 'Envoyer' }).click();
  await expect(staffMessage).toHaveAccessibleDescription('Message requis');
  await expect(staffMessage).toBeFocused();
  await staffMessage.fill('Bonjour, votre entretien est confirmé pour jeudi à 10 h.');
  const sent = page.waitForResponse((r) => r.request().method() === 'POST' && /\/dashboard\/members\/[^/]+\/messages$/.test(r.url()));
  await write.getByRole('button', { name: 'Envoyer' }).click();
  expect((await sent).status()).toBe(201);
  const conversation = page.getByRole('list', { name: 'Messages, du plus récent au plus ancien' });
  await expect(conversation.getByText('Bonjour, votre entretien est confirmé pour jeudi à 10 h.')).toBeVisible();
  await expect(conversation.getByText(/pas encore lu par le membre/)).toBeVisible();
  await screenshots(page, 'messages-equipe-conversation');

  // The member: « Messages » carries 1 until the conversation is opened.
  await member.goto('/mon-compte/mon-profil');
  const memberNav = member.getByRole('navigation', { name: 'Mon espace' });
  const messagesLink = memberNav.getByRole('link', { name: /^Messages/ });
  await expect(messagesLink).toContainText('1');
  await expect(messagesLink).toHaveAccessibleName('Messages (1 message non lu)');
  await messagesLink.click();
  await expect(member.getByRole('heading', { level: 1, name: 'Messages de l’agence' })).toBeVisible();
  await expect(member.getByText('Bonjour, votre entretien est confirmé pour jeudi à 10 h.')).toBeVisible();
  await expect(member.getByText('Nouveau', { exact: true })).toBeVisible();
  await expect(messagesLink.getByTestId('unread-badge')).toHaveCount(0);
  await screenshots(member, 'messages-membre');

  // The member replies; an empty message is refused, the error read with the field.
  await member.getByRole('button', { name: 'Envoyer' }).click();
  await expect(member.getByLabel('Votre message')).toHaveAccessibleDescription('Message requis');
  await member.getByLabel('Votre message').fill('Merci, je serai là jeudi.');
  const replied = member.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/user/messages'));
  await member.getByRole('button', { name: 'Envoyer' }).click();
  expect((await replied).status()).toBe(201);
  await expect(member.getByText('Merci, je serai là jeudi.')).toBeVisible();
  await expect(member.getByText('Vous', { exact: false }).first()).toBeVisible();

  // Staff: the navigation counts the member's message; « Messages non lus » lists the member.
  await page.goto('/dashboard/message-direct');
  const staffLink = page.getByRole('navigation', { name: 'Navigation de l’équipe' }).getByRole('link', { name: /^Messages/ });
  await expect(staffLink.getByTestId('unread-badge')).toBeVisible();
  const unread = page.getByRole('list', { name: 'Membres ayant écrit' });
  const row = unread.getByRole('listitem').filter({ hasText: email });
  await expect(row).toContainText('1 message non lu');
  await screenshots(page, 'messages-non-lus');
  await row.getByRole('link', { name: email }).click();
  await expect(page.getByRole('heading', { name: `Conversation avec ${email}` })).toBeVisible();
  await expect(page.getByText('Merci, je serai là jeudi.')).toBeVisible();
  await expect(unread).toBeHidden();
  await page.goto('/dashboard/message-direct');
  await expect(page.getByRole('list', { name: 'Membres ayant écrit' }).getByText(email)).toHaveCount(0);

  expect(errors).toEqual([]);
  expect(memberErrors).toEqual([]);
  await memberContext.close();
});

/**
 * « Modèles de message »: the server's field errors are read with their fields (an empty title, a
 * placeholder it does not know), then a template is created, edited and deleted after a
 * confirmation.
 */
test('staff write, correct, edit and delete a message template', async ({ page, baseURL, playwright }) => {
  const errors = watchConsole(page, [400]);
  const staff = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL ?? '' } });
  await signInE2EStaff(staff, 'templates');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();
  await page.goto('/dashboard/message-direct');
  const panel = page.getByRole('region', { name: 'Modèles de message' });
  const form = panel.getByRole('form', { name: 'Nouveau modèle' });
  const title = `Rappel ${Date.now()}`;

  await form.getByLabel('Texte du modèle').fill('Bonjour {prenom}, à {ville} jeudi ?');
  await form.getByRole('button', { name: 'Créer le modèle' }).click();
  await expect(form.getByLabel('Titre du modèle')).toHaveAccessibleDescription('Titre requis');
  await expect(form.getByLabel('Titre du modèle')).toBeFocused();
  await expect(form.getByLabel('Texte du modèle')).toHaveAccessibleDescription(/^Champ inconnu\s:\s\{ville\}\./);
  await screenshots(page, 'modele-message-erreurs');

  await form.getByLabel('Titre du modèle').fill(title);
  await form.getByLabel('Texte du modèle').fill('Bonjour {prenom}, votre entretien est confirmé.');
  await form.getByRole('button', { name: 'Créer le modèle' }).click();
  const saved = panel.getByRole('list', { name: 'Modèles enregistrés' }).getByRole('listitem').filter({ hasText: title });
  await expect(saved).toContainText('Bonjour {prenom}, votre entretien est confirmé.');
  await expect(form.getByLabel('Titre du modèle')).toHaveValue('');
  // The reply form offers it; inserting it needs a recipient first.
  const write = page.getByRole('region', { name: 'Écrire à un membre' });
  await expect(write.getByRole('button', { name: 'Insérer le modèle' })).toBeDisabled();
  await write.getByRole('combobox', { name: 'Modèle', exact: true }).selectOption({ label: title });
  await write.getByRole('button', { name: 'Insérer le modèle' }).click();
  await expect(page.getByText('Choisissez d’abord le destinataire.', { exact: true })).toBeVisible();

  await saved.getByRole('button', { name: 'Modifier' }).click();
  const editing = panel.getByRole('form', { name: `Modifier « ${title} »` });
  await expect(editing.getByLabel('Titre du modèle')).toHaveValue(title);
  await editing.getByLabel('Objet (facultatif)').fill('Votre entretien, {prenom}');
  await editing.getByRole('button', { name: 'Enregistrer le modèle' }).click();
  await expect(saved).toContainText('Objet : Votre entretien, {prenom}');

  await saved.getByRole('button', { name: 'Supprimer', exact: true }).click();
  await saved.getByRole('button', { name: `Supprimer définitivement « ${title} »` }).click();
  await expect(saved).toHaveCount(0);
  await expect(page.getByText(`Modèle « ${title} » supprimé.`, { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});
