import { expect, type Locator, test } from '@playwright/test';
import { memberPresentations } from '#bff/db/presentation-schema.ts';
import type { Product } from '#bff/start.ts';
import type { PersonalInfo, Questionnaire } from '#machines/onboarding/forms.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { seedActiveMember, signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { startSpecProduct } from '#tests/e2e/support/spec-product.ts';
import { signInE2EStaff } from '#tests/e2e/support/staff-accounts.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

/**
 * Indispensable criteria and reasons (issue 62, decision 193), as staff and a member see them:
 * Amina wants « Célibataire » only, and marks it indispensable. Staff find Youssef among her
 * candidates, each criterion with a coherent verdict both ways (more practising than she asked is
 * a match; no « Sexe »); Karim, divorced with two children, is only in the « Hors critères
 * indispensables » list, and proposing him needs a note to Amina saying why. Amina's proposals
 * say only what matches, Karim's says which criterion and her counsellor's reason, and Accept and
 * Decline are within reach at 390 and 1440 px.
 */
let base = '';
const PASSWORD = 'bismillah-2026';
let product: Product;
const tag = Date.now();

type Person = { email: string; gender: Gender; id: string; profile: PersonalInfo; questionnaire: Questionnaire };

const open: Omit<Questionnaire, 'requiredCriteria'> = {
  soughtPractice: 'indifferent',
  soughtAgeMin: 25,
  soughtAgeMax: 45,
  soughtRegions: ['ile-de-france'],
  soughtFamilySituations: ['celibataire', 'divorce', 'veuf'],
  acceptsChildren: true,
  soughtProfessionalSituation: 'indifferent',
  wantsChildren: 'oui',
  readyToRelocate: true,
  otherQualities: 'Une personne sincère et attachée à sa famille.',
};
const profileOf = (firstName: string, birthDate: string, extra: Partial<PersonalInfo> = {}): PersonalInfo => ({
  firstName,
  lastName: 'Exemple',
  birthDate,
  phone: '+33612345678',
  postcode: '75011',
  city: 'Paris',
  maritalStatus: 'celibataire',
  childrenCount: 0,
  profession: 'Ingénieur',
  prayerPractice: 'cinq-prieres',
  practiceDetails: '',
  sensitiveDataConsent: true,
  ...extra,
});

const people: Record<'amina' | 'youssef' | 'karim', Person> = {
  amina: {
    email: `amina.criteres.${tag}@example.fr`,
    gender: 'femme',
    id: '',
    profile: profileOf('Amina', '1995-04-18', { profession: 'Infirmière', postcode: '75018' }),
    questionnaire: {
      ...open,
      soughtPractice: 'reguliere',
      soughtAgeMin: 28,
      soughtAgeMax: 40,
      soughtFamilySituations: ['celibataire'],
      acceptsChildren: false,
      soughtProfessionalSituation: 'en-activite-ou-etudes',
      readyToRelocate: false,
      requiredCriteria: ['age', 'situation-familiale'],
    },
  },
  youssef: {
    email: `youssef.criteres.${tag}@example.fr`,
    gender: 'homme',
    id: '',
    profile: profileOf('Youssef', '1990-02-11'),
    questionnaire: { ...open, requiredCriteria: ['age'] },
  },
  karim: {
    email: `karim.criteres.${tag}@example.fr`,
    gender: 'homme',
    id: '',
    profile: profileOf('Karim', '1989-06-02', { maritalStatus: 'divorce', childrenCount: 2, profession: 'Comptable' }),
    questionnaire: { ...open, requiredCriteria: [] },
  },
};

/** Youssef's presentation at its longest (600 characters, decision 128): the card at its tallest. */
const PRESENTATION =
  `Ingénieur à Paris, je suis l’aîné d’une famille de quatre enfants. ${'J’aime la lecture, la marche en forêt et les longues discussions autour d’un thé. '.repeat(7)}`
    .slice(0, 600)
    .trim();

test.beforeAll(async () => {
  // A product of its own and three members written in: slow on a busy machine.
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://localhost:${port}`;
  product = await startSpecProduct(port, 'criteres');
  const now = Date.now();
  for (const person of Object.values(people)) {
    const { firstName, lastName, birthDate } = person.profile;
    person.id = await seedActiveMember(
      product,
      { email: person.email, password: PASSWORD, gender: person.gender, firstName, lastName, birthDate },
      now,
      { profile: person.profile, questionnaire: person.questionnaire },
    );
  }
  await product.database.db
    .insert(memberPresentations)
    // Approved by staff (decision 200): what Amina reads.
    .values({
      memberId: people.youssef.id,
      body: PRESENTATION,
      updatedAt: new Date(now),
      status: 'approuvee',
      approvedBody: PRESENTATION,
      reviewedAt: new Date(now),
    });
});
test.afterAll(async () => {
  await product?.close();
});

/** Where the top of an element lies in the page (not on the screen). */
function topInPage(element: Locator): Promise<number> {
  return element.evaluate((e) => e.getBoundingClientRect().top + window.scrollY);
}

test('staff see coherent verdicts and propose outside a criterion with a reason; Amina reads only what matches, Accept in reach', async ({
  page,
  browser,
  playwright,
}) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  const staff = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { origin: base } });
  await signInE2EStaff(staff, 'spare');
  await page.context().addCookies((await staff.storageState()).cookies);
  await staff.dispose();

  // Amina's candidates: Youssef, never Karim (divorced, while « Célibataire » is indispensable to her).
  await page.goto(`${base}/dashboard/member/${people.amina.id}?onglet=mises-en-relation`);
  await expect(page.getByRole('heading', { level: 1, name: 'Amina Exemple' })).toBeVisible();
  const section = page.getByRole('region', { name: 'Candidats' });
  const youssef = section.getByTestId('candidate').filter({ hasText: 'Youssef' });
  await expect(youssef).toHaveCount(1);
  await expect(section.getByTestId('candidate')).toHaveCount(1);
  await expect(
    youssef.getByText(/^Critères indispensables respectés des deux côtés\. Souhaits des deux côtés\s: \d+ souhaits? remplis?/),
  ).toBeVisible();
  await youssef.getByText('Critère par critère').click();
  const table = youssef.getByTestId('candidate-criteria');
  await expect(table.getByRole('columnheader', { name: 'Ce que cherche Amina' })).toBeVisible();
  // More practising than she asked is a match; her family criterion is marked indispensable; no row for the sex.
  const practice = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Pratique religieuse' }) });
  await expect(practice.getByRole('cell').first()).toContainText(
    /correspond\s: Les cinq prières quotidiennes, plus régulière que recherché/,
  );
  await expect(practice.getByRole('cell').first()).not.toContainText('ne correspond pas');
  const family = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Situation familiale' }) });
  await expect(family.getByRole('cell').first()).toContainText(/Célibataire, parmi les situations acceptées\s*indispensable/);
  // An engineer for « en activité ou en études »: a match.
  const job = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Situation professionnelle' }) });
  await expect(job.getByRole('cell').first()).toContainText(/correspond\s: Ingénieur, en activité/);
  await expect(table.getByRole('rowheader', { name: 'Sexe' })).toHaveCount(0);
  await expect(table.getByRole('rowheader', { name: 'Même région' })).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await screenshots(page, 'candidats-criteres');

  // Propose Youssef with a short note.
  await youssef.getByRole('button', { name: 'Proposer Youssef à Amina Exemple', exact: true }).click();
  const proposeYoussef = page.getByRole('dialog');
  await proposeYoussef.getByLabel(/^Note pour Amina/).fill('Youssef vit à Paris et partage votre attachement à la famille.');
  const first = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/dashboard/introductions'));
  await proposeYoussef.getByRole('button', { name: 'Envoyer la proposition' }).click();
  expect((await first).status()).toBe(201);
  await expect(page).toHaveURL(/\/dashboard\/mises-en-relation\//);

  // The other side (decision 212's audit): on Karim's file Amina is never among his candidates, since
  // her indispensable « Célibataire » excludes him; she is only in his other list, her criterion named.
  await page.goto(`${base}/dashboard/member/${people.karim.id}?onglet=mises-en-relation`);
  await expect(page.getByRole('heading', { level: 1, name: 'Karim Exemple' })).toBeVisible();
  // Amina is the only woman of this product: Karim has nobody in his criteria.
  await expect(section.getByText('Aucun candidat pour l’instant.')).toBeVisible();
  await expect(section.getByTestId('candidate').filter({ hasText: 'Amina' })).toHaveCount(0);
  await section.getByRole('button', { name: 'Hors critères indispensables' }).click();
  await expect(section.getByTestId('candidate').filter({ hasText: 'Amina' }).getByTestId('candidate-broken')).toContainText(
    /critères indispensables d’Amina\s: situation familiale/,
  );

  // Outside her indispensable criterion: Karim, in the other list, only with a reason written to Amina.
  await page.goto(`${base}/dashboard/member/${people.amina.id}?onglet=mises-en-relation`);
  await section.getByRole('button', { name: 'Hors critères indispensables' }).click();
  const karim = section.getByTestId('candidate').filter({ hasText: 'Karim' });
  await expect(karim.getByTestId('candidate-broken')).toHaveText(/Hors critères indispensables d’Amina\s: situation familiale/);
  await expect(karim.getByText(/Divorcé ·|· Divorcé$/)).toBeVisible();
  await screenshots(page, 'candidats-hors-criteres');
  await karim.getByRole('button', { name: 'Proposer Karim à Amina Exemple', exact: true }).click();
  const proposeKarim = page.getByRole('dialog');
  const reasonField = proposeKarim.getByLabel(
    /^Pour Amina\s: pourquoi cette proposition malgré son critère indispensable \(situation familiale\)/,
  );
  await expect(reasonField).toBeVisible();
  await screenshots(page, 'proposer-hors-criteres', false);
  await proposeKarim.getByRole('button', { name: 'Envoyer la proposition' }).click();
  await expect(proposeKarim.getByText(/Écrivez pourquoi vous faites cette proposition malgré un critère indispensable/)).toBeVisible();
  const reason = 'Karim est divorcé sans que cela tienne à lui ; il partage votre pratique et votre projet de famille.';
  await reasonField.fill(reason);
  const second = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v1/dashboard/introductions'));
  await proposeKarim.getByRole('button', { name: 'Envoyer la proposition' }).click();
  expect((await second).status()).toBe(201);

  // Amina's proposals: only what matches, never a cross or a count; Karim's with her criterion and the reason.
  const amina = await signedInMemberPage(browser, base, people.amina.email, PASSWORD);
  const aminaErrors = watchConsole(amina);
  await amina.goto(`${base}/mon-compte/propositions`);
  const cards = amina.getByTestId('proposal');
  await expect(cards).toHaveCount(2);
  const forYoussef = cards.filter({ hasText: 'Youssef' });
  await expect(forYoussef.getByTestId('proposal-reasons')).toContainText(
    /Il correspond à vos critères indispensables\s: âge et situation familiale\./,
  );
  await expect(forYoussef.getByTestId('proposal-reasons').getByRole('listitem')).toHaveCount(2);
  await expect(amina.getByText(/✗|ne correspond pas|critères? sur \d/)).toHaveCount(0);
  const forKarim = cards.filter({ hasText: 'Karim' });
  await expect(forKarim.getByTestId('proposal-exception')).toContainText(
    /Cette proposition s’écarte de votre critère indispensable\s: situation familiale\./,
  );
  await expect(forKarim.getByTestId('proposal-exception')).toContainText(reason);
  await expect(forKarim.getByText(/^Divorcé, 2 enfants$/)).toBeVisible();
  await screenshots(amina, 'propositions-criteres');

  // Accept and Decline within reach, at both widths: the first card's (Youssef, with the longest
  // presentation) lie above the second screen, after the summary, the reasons and the counsellor's
  // word, before the longer presentation: nobody scrolls past the details to answer.
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    await amina.setViewportSize({ width, height });
    const firstCard = cards.first();
    await expect(firstCard).toContainText('Youssef');
    const accept = firstCard.getByRole('button', { name: 'Accepter la proposition' });
    const decline = firstCard.getByRole('button', { name: 'Décliner…' });
    for (const button of [accept, decline]) {
      expect(await topInPage(button), `${await button.textContent()} at ${width} px`).toBeLessThan(2 * height);
      expect(await topInPage(button)).toBeGreaterThan(await topInPage(firstCard.getByTestId('proposal-reasons')));
      expect(await topInPage(button)).toBeLessThan(await topInPage(firstCard.getByTestId('other-presentation')));
    }
  }
  await amina.context().close();
  expect(aminaErrors).toEqual([]);
  expect(errors).toEqual([]);
});
