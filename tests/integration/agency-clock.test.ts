import { afterAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import type { JobRegistry } from '#bff/scheduled-jobs.ts';
import { startProduct } from '#bff/start.ts';
import type { AgencyClock } from '#bff/stand-ins/agency-clock.ts';
import { AGENCY_ENV } from '#machines/public-site/agency-identity.ts';
import { agencyMailsOf, signUpMember } from '#tests/support/member-walk.ts';
import { walkOnboarding } from '#tests/support/onboarding-walk.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import { openTestDatabase } from '#tests/support/test-database.ts';
import { TEST_SITE, type TestProduct } from '#tests/support/test-product.ts';

/**
 * The agency's clock (issue 59 point 8, decision 170): `/_local/clock` reads and moves it
 * forward, runs every job that became due before it answers, keeps its offset across a restart,
 * refuses to go back, refuses writes from elsewhere, and does not exist in production.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
// Real time first: the staff's second factor is computed on it; each test then sets its own date.
const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

const json = { 'content-type': 'application/json', origin: TEST_SITE };
const post = (body: unknown, headers: Record<string, string> = json) =>
  product.app.request(`${TEST_SITE}/_local/clock`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const nowOf = async () => {
  const response = await product.app.request(`${TEST_SITE}/_local/clock`);
  expect(response.status).toBe(200);
  return new Date(((await response.json()) as { now: string }).now).getTime();
};

describe('the agency’s clock at /_local/clock', () => {
  it('runs the jobs that became due before it answers: the day-7 mail is queued after moving 8 days', async () => {
    // Monday 1 March 2027: the renunciation period ends on Monday 8 March, no holiday near.
    clock.set('2027-03-01T09:00:00Z');
    const member = await signUpMember(product, 'horloge');
    // First in the file: the walk moves the base clock, and the agency's clock has not moved yet.
    await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    const kinds = async () => (await agencyMailsOf(product, member.email)).map((m) => m.kind);
    expect(await kinds()).not.toContain('agency-renunciation-period-over');
    const moved = await post({ days: 8 });
    expect(moved.status).toBe(200);
    expect(await kinds()).toContain('agency-renunciation-period-over');
    // Sent, not only queued: the local mailbox holds it when the move answers.
    const [queued] = (await agencyMailsOf(product, member.email)).filter((m) => m.kind === 'agency-renunciation-period-over');
    const mails = await product.app.request(`${TEST_SITE}/_local/mailbox?format=json`);
    expect(mails.status).toBe(200);
    const inbox = (await mails.json()) as { to: string; subject: string }[];
    expect(inbox.filter((m) => m.to.includes(member.email)).map((m) => m.subject)).toContain(queued?.subject);
  });
  it('answers {"now"} in JSON, the page to a browser', async () => {
    clock.set('2027-03-01T09:00:00Z');
    const response = await product.app.request(`${TEST_SITE}/_local/clock`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['now']);
    expect(new Date(body.now as string).toISOString()).toBe(body.now);
    expect(new Date(body.now as string).getTime()).toBe(product.clock.now().getTime());

    const page = await product.app.request(`${TEST_SITE}/_local/clock`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await page.text();
    expect(text).toContain('<html lang="fr">');
    expect(text).toContain('Horloge de l’agence');
    // Labelled fields a keyboard reaches, each in a form that posts to the clock.
    expect(text).toMatch(/<label for="days">Nombre de jours<\/label>\s*<input id="days" name="days" type="number"/);
    expect(text).toMatch(/<label for="to">Date et heure \(Paris\)<\/label>\s*<input id="to" name="to" type="datetime-local"/);
    expect(text.match(/<form method="post" action="\/_local\/clock"/g)).toHaveLength(2);
  });

  it('moves forward by days or to an instant, and answers the new {"now"}', async () => {
    clock.set('2027-03-01T09:00:00Z');
    const before = await nowOf();
    const moved = await post({ days: 3 });
    expect(moved.status).toBe(200);
    const body = (await moved.json()) as { now: string };
    expect(Object.keys(body)).toEqual(['now']);
    expect(new Date(body.now).getTime()).toBe(before + 3 * DAY_MS);
    expect(await nowOf()).toBe(before + 3 * DAY_MS);
    const to = new Date(before + 4 * DAY_MS + 3_600_000).toISOString();
    const there = await post({ to });
    expect(there.status).toBe(200);
    expect(((await there.json()) as { now: string }).now).toBe(to);
    // The product's rules read that clock.
    expect(product.clock.now().toISOString()).toBe(to);
    // 0 days: only the jobs due now run.
    expect((await post({ days: 0 })).status).toBe(200);
    expect(await nowOf()).toBe(Date.parse(to));
  });

  it('never goes back: 409, and the clock stays where it is', async () => {
    const now = await nowOf();
    for (const body of [{ to: new Date(now - DAY_MS).toISOString() }, { days: -1 }]) {
      const refused = await post(body);
      expect(refused.status).toBe(409);
      const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('CLOCK_BACKWARDS');
      expect(error.message).toMatch(/^L’horloge de l’agence ne recule pas/);
    }
    expect(await nowOf()).toBe(now);
  });

  it('refuses a bad body with a French message (400), never a 500', async () => {
    const now = await nowOf();
    for (const body of [
      {},
      { days: 'huit' },
      { days: 1.5 },
      { days: 99_999 },
      { to: 'demain' },
      { days: 1, to: '2030-01-01T00:00:00Z' },
      '{"',
      [],
    ]) {
      const refused = await post(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      const error = ((await refused.json()) as { error: { code: string; message: string; issues?: { message: string }[] } }).error;
      const said = [error.message, ...(error.issues ?? []).map((i) => i.message)].join(' ');
      expect(said, JSON.stringify(body)).toMatch(/jours|date|JSON|Champ|Valeur|Indiquez|Déplacement/);
      expect(said).not.toMatch(/Invalid|Expected/);
    }
    const form = await post('days=beaucoup', { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_SITE });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain('<p role="alert" class="error">Nombre de jours : un entier de 0 à 4000.</p>');
    expect(await nowOf()).toBe(now);
  });

  it('signs nobody out and erases no newcomer, even moved by years (retention runs on the agency’s date)', async () => {
    const member = await signUpMember(product, 'horloge-longue');
    // The base clock stays where the sessions were opened; only the agency's date moves, by 13
    // months: jumped without its daily stops (400 of them would take long), then every job runs
    // there through the route, retention included.
    const agencyClock = product.clock as AgencyClock;
    const noJobs: JobRegistry = { jobs: [], runNow: async () => [], startTimers: () => {}, stop: async () => {} };
    await agencyClock.moveTo(new Date(agencyClock.now().getTime() + 396 * DAY_MS), noJobs);
    expect((await post({ days: 0 })).status).toBe(200);
    expect((await member.agent.get('/api/v1/user/settings')).status).toBe(200);
    expect((await staff.agent.get('/api/v1/dashboard/billing')).status).toBe(200);
    // More than the 3 years retention gives a member without a contract: one who signs up now is
    // dated by the agency's clock, not erased at the next pass as inactive since real time.
    await agencyClock.moveTo(new Date(agencyClock.now().getTime() + 800 * DAY_MS), noJobs);
    const newcomer = await signUpMember(product, 'horloge-nouvelle');
    expect((await post({ days: 0 })).status).toBe(200);
    expect((await newcomer.agent.get('/api/v1/user/settings')).status).toBe(200);
  });

  it('moves only from the site’s own pages: a missing or foreign Origin is refused', async () => {
    const now = await nowOf();
    const missing = await post({ days: 1 }, { 'content-type': 'application/json' });
    expect(missing.status).toBe(403);
    const foreign = await post({ days: 1 }, { 'content-type': 'application/json', origin: 'https://attaquant.example' });
    expect(foreign.status).toBe(403);
    const crossSite = await post({ days: 1 }, { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('CROSS_SITE_REQUEST');
    expect(await nowOf()).toBe(now);
    // The page's own form (a browser sends the Origin).
    const page = await post('days=1', { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_SITE, accept: 'text/html' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('role="status"');
    expect(await nowOf()).toBe(now + DAY_MS);
  });
});

describe('the agency’s clock across a restart, and in production', () => {
  const started: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of started) await s.close();
  });

  it('keeps its offset when the product restarts on the same database', async () => {
    const database = await openTestDatabase();
    started.push(database);
    const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE, DEMO_DATA: 'false' });
    const at = '2027-06-01T08:00:00Z';
    const first = await startProduct(config, { database, listen: false, clientDir: '/nonexistent', clock: fakeClock(at) });
    const moved = await first.app.request(`${TEST_SITE}/_local/clock`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ days: 5 }),
    });
    expect(moved.status).toBe(200);
    await first.close();
    const second = await startProduct(config, { database, listen: false, clientDir: '/nonexistent', clock: fakeClock(at) });
    started.unshift(second);
    const read = await second.app.request(`${TEST_SITE}/_local/clock`);
    expect(((await read.json()) as { now: string }).now).toBe(new Date(Date.parse(at) + 5 * DAY_MS).toISOString());
  });

  it('does not exist in production (404), and production runs on the system clock whatever is stored', async () => {
    const database = await openTestDatabase();
    started.push(database);
    await database.query("INSERT INTO settings (key, value) VALUES ('stand-ins.agency_clock_offset_ms', '864000000')");
    const config = parseConfig({
      NODE_ENV: 'production',
      ALLOW_EMBEDDED_IN_PRODUCTION: 'true',
      PUBLIC_SITE_URL: 'https://www.union-sincere.fr',
      ...Object.fromEntries((Object.keys(AGENCY_ENV) as (keyof typeof AGENCY_ENV)[]).map((f) => [AGENCY_ENV[f], SAMPLE_AGENCY[f]])),
    });
    const production = await startProduct(config, { database, listen: false, clientDir: '/nonexistent' });
    started.unshift(production);
    const site = 'https://www.union-sincere.fr';
    expect((await production.app.request(`${site}/_local/clock`)).status).toBe(404);
    const write = await production.app.request(`${site}/_local/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify({ days: 8 }),
    });
    expect(write.status).toBe(404);
    expect(Math.abs(production.clock.now().getTime() - Date.now())).toBeLessThan(60_000);
  });
});
