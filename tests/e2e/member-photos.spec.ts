import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { adminClient } from '#bff/auth/supabase.ts';
import { parseConfig } from '#bff/config.ts';
import { members } from '#bff/db/schema.ts';
import { proposeIntroduction } from '#bff/introductions/introductions.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { type Product, startProduct } from '#bff/start.ts';
import { seedFromTemplate } from '#bff/db/pglite-template.ts';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { migrationSetsOf } from '#bff/auth/sessions-table.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { activeRecord, signedInMemberPage } from '#tests/e2e/support/active-record.ts';
import { watchConsole } from '#tests/e2e/support/console.ts';
import { skipConsentBanner } from '#tests/e2e/support/consent.ts';
import { screenshots } from '#tests/e2e/support/screenshots.ts';
import { freePort } from '#tests/e2e/support/free-port.ts';

/**
 * Members' photos (issue 22, decision 116), as people would: Amina adds photos on « Mon profil »
 * (a text file named .jpg is refused in French), deletes one after confirming; Youssef, proposed to
 * her, sees no photo while only one of them has accepted, and sees hers once both have.
 *
 * Two active members are needed: this spec runs its own product (as introductions.spec.ts) on a
 * free port, and writes two finished onboardings straight into its database.
 */
const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'bismillah-2026';
let product: Product;
let base = '';
let files = '';
let introductionId = '';

const tag = Date.now();
const people = {
  amina: { email: `amina.photos.${tag}@example.fr`, gender: 'femme' as Gender, id: '', firstName: 'Amina', birthDate: '1995-04-18' },
  youssef: { email: `youssef.photos.${tag}@example.fr`, gender: 'homme' as Gender, id: '', firstName: 'Youssef', birthDate: '1991-02-11' },
};

test.beforeEach(async ({ context }) => {
  await skipConsentBanner(context);
});

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_SITE_URL: base,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'union-photos-')),
    DEMO_DATA: 'false',
  });
  // The build's migrated cluster, copied (decision 199).
  const seeding = seedFromTemplate(join(config.dataDir, 'pglite'), migrationSetsOf(config, authMigrations));
  product = await startProduct(config, { clientDir: join(process.cwd(), 'dist', 'client'), beforeDatabase: seeding });
  const admin = adminClient(product.auth);
  const db = product.database.db;
  const now = Date.now();
  for (const person of Object.values(people)) {
    const { id } = await ensureAccount(admin, db, { email: person.email, password: PASSWORD, kind: person.gender });
    person.id = id;
    await db
      .update(members)
      .set({
        onboarding: activeRecord(id, person.email, person.gender, now),
        profile: {
          firstName: person.firstName,
          lastName: 'Exemple',
          birthDate: person.birthDate,
          phone: '+33612345678',
          postcode: '75011',
          city: 'Paris',
          maritalStatus: 'celibataire',
          childrenCount: 0,
          profession: 'Infirmière',
          prayerPractice: 'cinq-prieres',
          practiceDetails: '',
          sensitiveDataConsent: true,
        },
        questionnaire: {
          soughtPractice: 'indifferent',
          soughtAgeMin: 20,
          soughtAgeMax: 60,
          soughtRegions: ['indifferent'],
          soughtFamilySituations: ['celibataire', 'divorce', 'veuf'],
          acceptsChildren: true,
          soughtProfessionalSituation: 'indifferent',
          otherQualities: 'Une personne sincère et attachée à sa famille.',
        },
      })
      .where(eq(members.id, id));
    await db.execute(sql`INSERT INTO onboarding_events (member_id, context, event, payload, from_state, to_state, actor_role, version, created_at)
      VALUES (${id}::uuid, 'meeting_mm', 'meeting_mm', '{}'::jsonb, 'attente', 'membre-actif', 'staff', 1, ${new Date(now - 10 * DAY).toISOString()}::timestamptz)`);
    expect((await upsertMatchProfile(db, id, now))?.available, `${person.firstName} must be proposable`).toBe(true);
  }
  introductionId = (await proposeIntroduction(db, { staffId: null, a: people.amina.id, b: people.youssef.id, now: new Date() })).id;

  // The files a member would pick: a phone photo with EXIF, a PNG, and a text file named .jpg.
  files = mkdtempSync(join(tmpdir(), 'union-photo-files-'));
  const portrait = await sharp({ create: { width: 1600, height: 2000, channels: 3, background: { r: 190, g: 150, b: 120 } } })
    .withExif({ IFD0: { Artist: 'Amina', Make: 'Téléphone' } })
    .jpeg()
    .toBuffer();
  writeFileSync(join(files, 'portrait.jpg'), portrait);
  writeFileSync(
    join(files, 'jardin.png'),
    await sharp({ create: { width: 800, height: 600, channels: 3, background: '#5a8' } })
      .png()
      .toBuffer(),
  );
  writeFileSync(join(files, 'pas-une-photo.jpg'), 'Ceci est un texte, pas une photo.');
});
test.afterAll(async () => {
  await product?.close();
});

/** A member's own browser context, signed in through the API (writes carry the site's Origin). */
const memberPage = (browser: Browser, email: string): Promise<Page> => signedInMemberPage(browser, base, email, PASSWORD);

test('Amina adds her photos; Youssef sees them only once both have accepted', async ({ browser }) => {
  test.setTimeout(120_000);
  const amina = await memberPage(browser, people.amina.email);
  // The text file is refused on purpose (400).
  const aminaErrors = watchConsole(amina, [400]);
  await amina.goto(`${base}/mon-compte/mon-profil`);
  const section = amina.getByTestId('my-photos');
  await expect(section.getByRole('heading', { level: 2, name: 'Mes photos' })).toBeVisible();
  await expect(section.getByText(/ne sont jamais montrées par défaut/)).toBeVisible();
  await expect(section.getByText('Aucune photo pour le moment.')).toBeVisible();

  const input = section.getByLabel(/^Ajouter une photo/);
  await input.setInputFiles(join(files, 'pas-une-photo.jpg'));
  await expect(section.getByRole('alert')).toContainText('Ce fichier n’est pas une photo lisible');

  await input.setInputFiles(join(files, 'portrait.jpg'));
  await expect(section.getByRole('img', { name: 'Votre portrait n° 1' })).toBeVisible();
  await input.setInputFiles(join(files, 'jardin.png'));
  await expect(section.getByRole('img', { name: 'Votre portrait n° 2' })).toBeVisible();
  await expect(section.getByText('2 photos sur 3 au plus.')).toBeVisible();
  // Her own photos load (they are lazy: the screenshot waits for them, as she would).
  for (const img of await section.getByRole('img').all()) {
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  }
  await screenshots(amina, 'mes-photos');

  // The second one goes, after a confirmation.
  await section.getByRole('button', { name: 'Supprimer la photo n° 2' }).click();
  const confirm = amina.getByRole('dialog', { name: 'Supprimer cette photo ?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Supprimer la photo' }).click();
  await expect(confirm).toBeHidden();
  await expect(section.getByRole('img')).toHaveCount(1);

  // Youssef: the proposal, no photo; he accepts; still none.
  const youssef = await memberPage(browser, people.youssef.email);
  const youssefErrors = watchConsole(youssef);
  await youssef.goto(`${base}/mon-compte/propositions`);
  const card = youssef.getByTestId('proposal');
  await expect(card.getByRole('heading', { level: 2, name: /^Amina, \d+ ans$/ })).toBeVisible();
  await expect(card.getByRole('img')).toHaveCount(0);
  await card.getByRole('button', { name: 'Accepter la proposition' }).click();
  await expect(card.getByText(/^Vous avez accepté le /)).toBeVisible();
  await expect(card.getByRole('img')).toHaveCount(0);
  // The photo's URL itself answers nothing yet.
  const early = await youssef.request.get(
    `${base}/api/v1/user/introductions/${introductionId}/photos/00000000-0000-4000-8000-000000000000`,
  );
  expect(early.status()).toBe(404);

  // Amina accepts: Youssef now sees her photo, loaded through this proposal's URL.
  await amina.goto(`${base}/mon-compte/propositions`);
  await amina.getByTestId('proposal').getByRole('button', { name: 'Accepter la proposition' }).click();
  await expect(amina.getByTestId('proposal').getByRole('heading', { name: 'Vous avez accepté tous les deux' })).toBeVisible();
  await youssef.reload();
  const photo = youssef.getByTestId('proposal').getByRole('img', { name: 'Portrait 1 sur 1 d’Amina' });
  await expect(photo).toBeVisible();
  await expect(photo).toHaveAttribute('src', new RegExp(`^/api/v1/user/introductions/${introductionId}/photos/[0-9a-f-]{36}$`));
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await screenshots(youssef, 'photos-de-la-proposition');

  expect(aminaErrors).toEqual([]);
  expect(youssefErrors).toEqual([]);
  await amina.context().close();
  await youssef.context().close();
});
