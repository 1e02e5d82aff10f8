import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { applyIntroductionEvent, proposeIntroduction } from '#bff/introductions/introductions.ts';
import { addPhoto, processPhoto } from '#bff/photos/member-photos.ts';
import { withdrawSensitiveData } from '#bff/privacy/consents.ts';
import type { Product } from '#bff/start.ts';
import { seedActiveMember, signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * « Privacy ends when the introduction ends » (issue 62 point 3, decision 194), as the two members
 * see it: Amina and Youssef accepted each other (his photo and both contacts shared); Youssef
 * withdraws the consent that covers his photos; on « Mes propositions » the introduction stays as
 * history for both — his first name, the dates, that it ended — with no photo, no e-mail, no phone,
 * and the photo's URL answers 404. Checked at 390 and 1440 px.
 */
const PASSWORD = 'bismillah-2026';
let product: Product;
let base = '';
let introductionId = '';
let photoUrl = '';
const tag = Date.now();
const amina = { email: `amina.fin.${tag}@example.fr`, phone: '+33611223344', id: '' };
const youssef = { email: `youssef.fin.${tag}@example.fr`, phone: '+33655667788', id: '' };

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'ended-introduction');
  const now = Date.now();
  amina.id = await seedActiveMember(
    product,
    {
      email: amina.email,
      password: PASSWORD,
      gender: 'femme',
      firstName: 'Amina',
      lastName: 'Benali',
      birthDate: '1995-04-18',
      phone: amina.phone,
    },
    now,
  );
  youssef.id = await seedActiveMember(
    product,
    {
      email: youssef.email,
      password: PASSWORD,
      gender: 'homme',
      firstName: 'Youssef',
      lastName: 'Haddad',
      birthDate: '1991-02-11',
      phone: youssef.phone,
    },
    now,
  );
  const db = product.database.db;
  const portrait = await sharp({ create: { width: 600, height: 750, channels: 3, background: { r: 70, g: 100, b: 140 } } })
    .jpeg()
    .toBuffer();
  const photo = await addPhoto(db, youssef.id, await processPhoto(new Uint8Array(portrait)), new Date());
  introductionId = (await proposeIntroduction(db, { staffId: null, a: amina.id, b: youssef.id, now: new Date() })).id;
  for (const id of [amina.id, youssef.id]) {
    await applyIntroductionEvent(db, { introductionId, body: { type: 'ACCEPT' }, actor: { id, role: 'member' }, now: new Date() });
  }
  photoUrl = `/api/v1/user/introductions/${introductionId}/photos/${photo.id}`;
});
test.afterAll(async () => {
  await product?.close();
});

test('an ended introduction stays in both lists as history, without photo or contact', async ({ browser }) => {
  test.setTimeout(120_000);
  const her = await signedInMemberPage(browser, base, amina.email, PASSWORD);
  const errors = watchConsole(her);
  await her.goto(`${base}/mon-compte/propositions`);
  const card = her.getByTestId('proposal');
  // While shared: his photo and his contact.
  await expect(card.getByRole('img', { name: 'Portrait 1 sur 1 de Youssef' })).toBeVisible();
  await expect(card.getByText('06 55 66 77 88')).toBeVisible();
  expect((await her.request.get(`${base}${photoUrl}`)).status()).toBe(200);

  // He withdraws the consent that covers his photos (as « Mes droits » does): the introduction ends.
  await withdrawSensitiveData(product.database.db, youssef.id, new Date());

  await her.reload();
  await expect(card.getByRole('heading', { level: 2, name: 'Youssef' })).toBeVisible();
  await expect(card.getByText(/^Proposée le /)).toBeVisible();
  await expect(card.getByTestId('proposal-ended')).toHaveText(
    /^Cette mise en relation a pris fin le .+\. Ses coordonnées et ses photos ne vous sont plus accessibles\.$/,
  );
  await expect(card.getByRole('img')).toHaveCount(0);
  await expect(card.getByText(youssef.email)).toHaveCount(0);
  await expect(card.getByText('06 55 66 77 88')).toHaveCount(0);
  await expect(card.getByText('E-mail')).toHaveCount(0);
  expect((await her.request.get(`${base}${photoUrl}`)).status()).toBe(404);
  const answer = await (await her.request.get(`${base}/api/v1/user/introductions`)).text();
  expect(answer).not.toContain(youssef.email);
  expect(answer).not.toContain(youssef.phone);
  await screenshots(her, 'mise-en-relation-terminee-amina');

  // His side: her first name and age still, his own cause in words, no contact of hers.
  const his = await signedInMemberPage(browser, base, youssef.email, PASSWORD);
  const hisErrors = watchConsole(his);
  await his.goto(`${base}/mon-compte/propositions`);
  const hisCard = his.getByTestId('proposal');
  await expect(hisCard.getByRole('heading', { level: 2, name: /^Amina, \d+ ans$/ })).toBeVisible();
  await expect(hisCard.getByTestId('proposal-ended')).toContainText(
    'vous avez retiré votre consentement au traitement de vos données sensibles. Ses coordonnées et ses photos ne vous sont plus accessibles.',
  );
  await expect(hisCard.getByText(amina.email)).toHaveCount(0);
  await expect(hisCard.getByText('06 11 22 33 44')).toHaveCount(0);
  await screenshots(his, 'mise-en-relation-terminee-youssef');

  expect(errors).toEqual([]);
  expect(hisErrors).toEqual([]);
  await her.context().close();
  await his.context().close();
});
