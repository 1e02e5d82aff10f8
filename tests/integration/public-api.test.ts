import { randomUUID } from 'node:crypto';
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as publicSchema from '#bff/db/public-schema.ts';
import { consentRecords } from '#bff/db/public-schema.ts';
import { mailOutbox, preSubscriptions, settings } from '#bff/db/schema.ts';
import { CONSENT_VERSION } from '#machines/public-site/consent.ts';
import { PRIVACY_POLICY_VERSION } from '#machines/public-site/public-forms.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';

type Product = Awaited<ReturnType<typeof startTestProduct>>;
let product: Product;
const PREVIEW_TOKEN = 'preview-token-0123456789abcdef';

beforeAll(async () => {
  product = await startTestProduct({
    env: { TRUST_PROXY: 'true', CONTENT_PREVIEW_TOKEN: PREVIEW_TOKEN, AGENCY_EMAIL: 'agence@example.fr' },
  });
});
afterAll(() => product.stop());

/** Each test its own client address, so the per-address limits of one test do not leak into another. */
let addressCounter = 0;
function visitor(): { agent: TestAgent; headers: Record<string, string> } {
  addressCounter += 1;
  return { agent: product.agent(), headers: { 'x-forwarded-for': `203.0.113.${addressCounter}` } };
}

type ErrorBody = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };
const issuePaths = (body: ErrorBody) => [...new Set((body.error.issues ?? []).map((issue) => issue.path))].sort();

const goodPreSubscription = () => ({
  gender: 'femme',
  email: `Soeur.${randomUUID().slice(0, 8)}@Example.fr`,
  age: 29,
  zip_code: '69003',
  city: 'Lyon',
  consent: true,
});

describe('public-site tables', () => {
  it('exist with every column the drizzle schema of public-schema.ts declares', async () => {
    const columns = await product.database.query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const present = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
    const tables = Object.values(publicSchema).filter((t: unknown): t is PgTable => t instanceof PgTable);
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) {
      for (const column of Object.values(getTableColumns(table))) {
        expect(present).toContain(`${getTableName(table)}.${column.name}`);
      }
    }
  });
});

describe('POST /api/v1/subscription/pre-subscription', () => {
  it('stores the pre-registration with the privacy policy version and answers 201 with a list whose first item has an id', async () => {
    const { agent, headers } = visitor();
    const input = goodPreSubscription();
    const response = await agent.post('/api/v1/subscription/pre-subscription', input, headers);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string }[];
    expect(Array.isArray(body)).toBe(true);
    expect(body[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    const rows = await product.database.db.select().from(preSubscriptions).where(sql`${preSubscriptions.id} = ${body[0]?.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      gender: 'femme',
      email: input.email.toLowerCase(),
      age: 29,
      zipCode: '69003',
      city: 'Lyon',
      consentVersion: PRIVACY_POLICY_VERSION,
    });
  });

  it('accepts the age as a digit string from a form', async () => {
    const { agent, headers } = visitor();
    const response = await agent.post('/api/v1/subscription/pre-subscription', { ...goodPreSubscription(), age: '42' }, headers);
    expect(response.status).toBe(201);
  });

  it('refuses bad input with a French message per field and stores nothing', async () => {
    const { agent, headers } = visitor();
    const before = await product.database.db.select({ n: sql<number>`count(*)::int` }).from(preSubscriptions);
    const response = await agent.post(
      '/api/v1/subscription/pre-subscription',
      { gender: 'autre', email: 'pas un email', age: 17, zip_code: '6900', city: '', consent: false },
      headers,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(issuePaths(body)).toEqual(['age', 'city', 'consent', 'email', 'gender', 'zip_code']);
    const messages = Object.fromEntries((body.error.issues ?? []).map((i) => [i.path, i.message]));
    expect(messages).toMatchObject({
      age: 'Indiquez un âge entre 18 et 99 ans',
      zip_code: 'Code postal invalide (5 chiffres)',
      email: 'Email invalide',
      consent: 'Vous devez accepter la politique de confidentialité pour continuer',
      city: 'Indiquez votre ville',
    });
    const after = await product.database.db.select({ n: sql<number>`count(*)::int` }).from(preSubscriptions);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('says a missing field or a value of another type in French too, where a schema names no message', async () => {
    const { agent, headers } = visitor();
    const missing = await agent.post('/api/v1/auth/signin', { email: 'amina@exemple.fr' }, headers);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ErrorBody).error.issues).toEqual([{ path: 'password', message: 'Champ obligatoire' }]);
    const wrongType = await agent.post('/api/v1/auth/signin', { email: 'amina@exemple.fr', password: ['x'] }, headers);
    expect(wrongType.status).toBe(400);
    const issues = ((await wrongType.json()) as ErrorBody).error.issues ?? [];
    expect(issues.map((i) => i.path)).toEqual(['password']);
    expect(issues.every((i) => !/Invalid|Expected|received/.test(i.message))).toBe(true);
  });

  it.each([
    ['age 100', { age: 100 }, 'age'],
    ['age 17.5', { age: 17.5 }, 'age'],
    ['age missing', { age: undefined }, 'age'],
    ['zip code with letters', { zip_code: '2A004' }, 'zip_code'],
    ['consent missing', { consent: undefined }, 'consent'],
    ['city with a line break', { city: 'Lyon\nBcc: x@y.z' }, 'city'],
  ])('refuses %s with a 400 on that field', async (_name, change, field) => {
    const { agent, headers } = visitor();
    const response = await agent.post('/api/v1/subscription/pre-subscription', { ...goodPreSubscription(), ...change }, headers);
    expect(response.status).toBe(400);
    expect(issuePaths((await response.json()) as ErrorBody)).toEqual([field]);
  });

  it('answers 4xx, never 5xx, to a body that is not JSON or not an object', async () => {
    const { agent, headers } = visitor();
    for (const body of ['{ pas du json', '[]', 'null', '"texte"']) {
      const response = await agent.post('/api/v1/subscription/pre-subscription', body, headers);
      expect(response.status, body).toBe(400);
      expect(((await response.json()) as ErrorBody).error.message).toMatch(/\S/);
    }
    const wrongType = await agent.request('POST', '/api/v1/subscription/pre-subscription', undefined, {
      ...headers,
      origin: 'http://localhost:3999',
      'content-type': 'text/plain',
    });
    expect(wrongType.status).toBeGreaterThanOrEqual(400);
    expect(wrongType.status).toBeLessThan(500);
  });

  it('limits an address to 10 forms per 10 minutes, then answers 429 with a French message', async () => {
    const { agent, headers } = visitor();
    for (let i = 0; i < 10; i += 1) {
      const response = await agent.post('/api/v1/subscription/pre-subscription', goodPreSubscription(), headers);
      expect(response.status).toBe(201);
    }
    const limited = await agent.post('/api/v1/subscription/pre-subscription', goodPreSubscription(), headers);
    expect(limited.status).toBe(429);
    const body = (await limited.json()) as ErrorBody & { error: { retryAfter: number } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toMatch(/Trop de tentatives/);
    expect(body.error.retryAfter).toBeGreaterThan(0);
    // Another address is not affected.
    const other = visitor();
    expect((await other.agent.post('/api/v1/subscription/pre-subscription', goodPreSubscription(), other.headers)).status).toBe(201);
  });

  it('refuses a cross-site form post', async () => {
    const { agent, headers } = visitor();
    const response = await agent.post('/api/v1/subscription/pre-subscription', goodPreSubscription(), {
      ...headers,
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(403);
  });
});

describe('GET /api/v1/subscription/offers', () => {
  it('serves the four active plans (one highlighted), the six plans and the file fee at the spec prices', async () => {
    const { agent } = visitor();
    const response = await agent.get('/api/v1/subscription/offers');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      plans: { id: string; priceCents: number; highlight: boolean }[];
      allPlans: { id: string; priceCents: number }[];
      fileFee: { priceCents: number; discount: { originalPriceCents: number } | null };
      payInFull: string;
    };
    expect(body.payInFull).toBe('cash');
    expect(body.plans.map((p) => p.id)).toEqual(['plan_horizon_month', 'plan_horizon_year', 'plan_serenity_month', 'plan_serenity_year']);
    expect(body.plans.filter((p) => p.highlight)).toHaveLength(1);
    expect(Object.fromEntries(body.allPlans.map((p) => [p.id, p.priceCents]))).toEqual({
      plan_horizon_month: 9500,
      plan_serenity_month: 8500,
      plan_horizon_year: 57000,
      plan_serenity_year: 102000,
      plan_horizon_year_cachback: 51300,
      plan_serenity_year_cachback: 91800,
    });
    expect(body.fileFee.priceCents).toBe(16900);
    // No reference price: 228 € was never a price the agency charged (decision 195).
    expect(body.fileFee.discount).toBeNull();
  });

  it('offers the −10 % pay-in-full plans when staff chose them', async () => {
    await product.database.db.insert(settings).values({ key: 'plans.pay_in_full', value: 'cashback' });
    try {
      const body = await product.agent().json<{ plans: { id: string }[] }>(product.agent().get('/api/v1/subscription/offers'));
      expect(body.plans.map((p) => p.id)).toEqual([
        'plan_horizon_month',
        'plan_horizon_year_cachback',
        'plan_serenity_month',
        'plan_serenity_year_cachback',
      ]);
    } finally {
      await product.database.db.delete(settings).where(sql`${settings.key} = 'plans.pay_in_full'`);
    }
  });
});

describe('POST /api/v1/contact', () => {
  const goodMessage = () => ({
    name: 'Amina',
    email: 'amina@example.fr',
    subject: 'Mon inscription',
    message: 'Bonjour, je voudrais savoir si je peux associer mon frère dès le début.',
    consent: true,
  });

  it('queues a mail to the agency with the sender, the subject and the message, and sends it', async () => {
    const { agent, headers } = visitor();
    const response = await agent.post('/api/v1/contact', goodMessage(), headers);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true });
    const mails = await product.database.db.select().from(mailOutbox).where(sql`${mailOutbox.kind} = 'contact'`);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: 'agence@example.fr', subject: '[Contact] Mon inscription' });
    expect(mails[0]?.textBody).toContain('amina@example.fr');
    expect(mails[0]?.textBody).toContain('associer mon frère');
    await product.flushMail();
    const [sent] = await product.database.db.select().from(mailOutbox).where(sql`${mailOutbox.id} = ${mails[0]?.id}`);
    expect(sent?.status).toBe('sent');
  });

  it('refuses bad input with French messages per field and queues nothing', async () => {
    const { agent, headers } = visitor();
    const before = await product.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox);
    const response = await agent.post(
      '/api/v1/contact',
      { name: ' ', email: 'amina@', subject: 'Objet\r\nBcc: spam@example.com', message: 'court', consent: false },
      headers,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as ErrorBody;
    expect(issuePaths(body)).toEqual(['consent', 'email', 'message', 'name', 'subject']);
    const messages = Object.fromEntries((body.error.issues ?? []).map((i) => [i.path, i.message]));
    expect(messages.message).toBe('Votre message est trop court (10 caractères au moins)');
    expect(messages.name).toBe('Indiquez votre nom ou votre prénom');
    const after = await product.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('refuses a message over 5000 characters', async () => {
    const { agent, headers } = visitor();
    const response = await agent.post('/api/v1/contact', { ...goodMessage(), message: 'a'.repeat(5001) }, headers);
    expect(response.status).toBe(400);
    expect(issuePaths((await response.json()) as ErrorBody)).toEqual(['message']);
  });

  it('is rate limited per address (429 after 10 messages)', async () => {
    const { agent, headers } = visitor();
    for (let i = 0; i < 10; i += 1) expect((await agent.post('/api/v1/contact', goodMessage(), headers)).status).toBe(201);
    const limited = await agent.post('/api/v1/contact', goodMessage(), headers);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as ErrorBody).error.code).toBe('RATE_LIMITED');
  });
});

describe('POST /api/v1/consent (proof of consent)', () => {
  it('stores the anonymous id, the banner version, the choices and the date', async () => {
    const { agent, headers } = visitor();
    const anonymousId = randomUUID();
    const choices = { functional: true, statistic: false, marketing: false, unclassified: false };
    const response = await agent.post('/api/v1/consent', { anonymousId, version: CONSENT_VERSION, choices }, headers);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; createdAt: string };
    const rows = await product.database.db.select().from(consentRecords).where(sql`${consentRecords.anonymousId} = ${anonymousId}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: body.id, version: CONSENT_VERSION, choices });
    expect(Math.abs(rows[0]!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a non-uuid id, missing or extra choices and a bad version', async () => {
    const { agent, headers } = visitor();
    const choices = { functional: true, statistic: false, marketing: false, unclassified: false };
    const cases: [unknown, string][] = [
      [{ anonymousId: 'abc', version: CONSENT_VERSION, choices }, 'anonymousId'],
      [{ anonymousId: randomUUID(), version: '', choices }, 'version'],
      [{ anonymousId: randomUUID(), version: CONSENT_VERSION, choices: { functional: true } }, 'choices.statistic'],
      [{ anonymousId: randomUUID(), version: CONSENT_VERSION, choices: { ...choices, necessary: 'yes' } }, 'choices.necessary'],
      [{ anonymousId: randomUUID(), version: CONSENT_VERSION, choices: { ...choices, marketing: 'oui' } }, 'choices.marketing'],
    ];
    for (const [input, path] of cases) {
      const response = await agent.post('/api/v1/consent', input, headers);
      expect(response.status, JSON.stringify(input)).toBe(400);
      expect(issuePaths((await response.json()) as ErrorBody)).toContain(path);
    }
  });

  it('is rate limited per address (429 after 30 records in 10 minutes)', async () => {
    const { agent, headers } = visitor();
    const proof = {
      anonymousId: randomUUID(),
      version: CONSENT_VERSION,
      choices: { functional: false, statistic: false, marketing: false, unclassified: false },
    };
    for (let i = 0; i < 30; i += 1) expect((await agent.post('/api/v1/consent', proof, headers)).status).toBe(201);
    expect((await agent.post('/api/v1/consent', proof, headers)).status).toBe(429);
  });
});

describe('GET /api/v1/public-config', () => {
  it('gives the SPA the GTM id (none here) and the consent version', async () => {
    const body = await product.agent().json(product.agent().get('/api/v1/public-config'));
    expect(body).toEqual({ gtmId: null, consentVersion: CONSENT_VERSION, siteUrl: 'http://localhost:3999' });
  });
});

describe('content API', () => {
  type Doc = {
    slug: string;
    title: string;
    description: string;
    html: string;
    draft: boolean;
    date?: string;
    cover?: string;
    path: string;
  };
  type List = { collection: string; items: Doc[] };

  it('lists the published articles, newest first, without their body and without drafts', async () => {
    const response = await product.agent().get('/api/v1/content/query?collection=blog');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as List;
    expect(body.items.length).toBeGreaterThanOrEqual(4);
    expect(body.items.every((item) => !item.draft && !('html' in item))).toBe(true);
    expect(body.items.map((i) => i.slug)).not.toContain('erreurs-a-eviter-sur-les-sites-matrimoniaux');
    const dates = body.items.map((i) => i.date ?? '');
    expect(dates).toEqual([...dates].sort().reverse());
    expect(body.items[0]).toMatchObject({ path: `/blog/${body.items[0]?.slug}`, cover: expect.stringMatching(/^\/images\//) });
  });

  it('serves one article rendered to HTML', async () => {
    const response = await product.agent().get('/api/v1/content/query?collection=blog&slug=preparer-un-mariage-halal');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Doc;
    expect(doc.title).toMatch(/^Préparer un mariage halal\s:\sles étapes essentielles$/u);
    expect(doc.html).toContain('<h2 id="1-clarifier-son-intention">1. Clarifier son intention</h2>');
    expect(doc.html).not.toContain('---');
    expect(doc.date).toBe('2026-01-15');
  });

  it('serves a page of the site with its heading', async () => {
    const doc = await product
      .agent()
      .json<Doc & { heading: string }>(product.agent().get('/api/v1/content/query?collection=pages&slug=mentions-legales'));
    expect(doc.heading).toBe('Mentions légales');
    expect(doc.path).toBe('/mentions-legales');
    expect(doc.html).toContain('<h2 id="hebergement">Hébergement</h2>');
  });

  it('answers 404 in JSON for an unknown article, and hides drafts without the preview token', async () => {
    for (const slug of ['inconnu', 'erreurs-a-eviter-sur-les-sites-matrimoniaux']) {
      const response = await product.agent().get(`/api/v1/content/query?collection=blog&slug=${slug}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as ErrorBody).error).toMatchObject({ code: 'NOT_FOUND', message: 'Article introuvable' });
    }
    const wrongToken = await product.agent().get('/api/v1/content/query?collection=blog&slug=erreurs-a-eviter-sur-les-sites-matrimoniaux', {
      'x-preview-token': 'not-the-token-at-all',
    });
    expect(wrongToken.status).toBe(404);
  });

  it('shows drafts with the preview token, uncached', async () => {
    const headers = { 'x-preview-token': PREVIEW_TOKEN };
    const one = await product
      .agent()
      .get('/api/v1/content/query?collection=blog&slug=erreurs-a-eviter-sur-les-sites-matrimoniaux', headers);
    expect(one.status).toBe(200);
    expect(one.headers.get('cache-control')).toBe('no-store');
    expect(((await one.json()) as Doc).draft).toBe(true);
    const list = await product.agent().json<List>(product.agent().get('/api/v1/content/navigation?collection=blog', headers));
    expect(list.items.map((i) => i.slug)).toContain('erreurs-a-eviter-sur-les-sites-matrimoniaux');
  });

  it('serves the blog navigation (slug, path, title, date)', async () => {
    const response = await product.agent().get('/api/v1/content/navigation?collection=blog');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const body = (await response.json()) as List;
    expect(body.items.length).toBeGreaterThanOrEqual(4);
    for (const item of body.items) {
      expect(Object.keys(item).sort()).toEqual(['date', 'draft', 'path', 'slug', 'title']);
      expect(item.path).toBe(`/blog/${item.slug}`);
    }
  });

  it('refuses an unknown collection or a malformed slug with 400', async () => {
    for (const path of [
      '/api/v1/content/query?collection=secret',
      '/api/v1/content/query',
      '/api/v1/content/query?collection=blog&slug=../../etc/passwd',
      '/api/v1/content/query?collection=blog&slug=A%20B',
      '/api/v1/content/navigation?collection=',
    ]) {
      const response = await product.agent().get(path);
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('cookie choices as consent records', () => {
  it('stores each choice with the version and the hash of the banner text shown, and refuses an unknown version', async () => {
    const { consents } = await import('#bff/db/privacy-schema.ts');
    const { consentTextHash } = await import('#bff/privacy/consents.ts');
    const { CONSENT_VERSION } = await import('#machines/public-site/consent.ts');
    const { eq } = await import('drizzle-orm');
    const anonymousId = '3f0c6f1e-9b1e-4c52-8a55-0f5d2b7c9a11';
    const agent = product.agent();
    const accepted = await agent.post('/api/v1/consent', {
      anonymousId,
      version: CONSENT_VERSION,
      choices: { functional: true, statistic: true, marketing: false, unclassified: false },
    });
    expect(accepted.status).toBe(201);
    const rows = await product.database.db.select().from(consents).where(eq(consents.anonymousId, anonymousId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'cookies', version: CONSENT_VERSION, given: true, textHash: consentTextHash('cookies') });
    const outdated = await agent.post('/api/v1/consent', {
      anonymousId,
      version: '2020-01-01',
      choices: { functional: false, statistic: false, marketing: false, unclassified: false },
    });
    expect(outdated.status).toBe(409);
    expect(await product.database.db.select().from(consents).where(eq(consents.anonymousId, anonymousId))).toHaveLength(1);
  });
});
