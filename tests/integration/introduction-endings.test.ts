import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
import { storedIntroductionSchema } from '#machines/introductions/restore.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import {
  agencyNow,
  contactStrings,
  type EndingCase,
  type Env,
  endingCases,
  lastMailId,
  moveClockTo,
  newMailsWithContactOf,
  otherPhotoUrl,
  type Pair,
  type Person,
  setUpPair,
  viewOf,
} from '#tests/support/ended-introductions.ts';
import { sendUpdate, signUpMember } from '#tests/support/member-walk.ts';
import { walkOnboarding } from '#tests/support/onboarding-walk.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestProduct } from '#tests/support/test-product.ts';

/**
 * « Privacy ends when the introduction ends » (issue 62 point 3, decision 194), over HTTP, cause by
 * cause: a mutually accepted introduction with photos released and contact shared (or, for a
 * decline and an expiry, one acceptance), the cause applied through the product's API or job on
 * the agency's clock, then: the other side's photo URL answers 404, and no answer of any member
 * route (every GET under /api/v1/user that takes no parameter) holds the other's e-mail, phone or
 * guardian's address; no mail queued since names them; the introduction stays in both lists as
 * history, without contact or photos.
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));
const env = (): Env => ({ product, staff: staff.agent });

/** Every member route that answers without a parameter (the PDFs aside: documents of one's own contract). */
function memberReadRoutes(): string[] {
  const paths = product.app.routes
    .filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/user/') && !r.path.includes(':') && !r.path.endsWith('.pdf'))
    .map((r) => r.path);
  return [...new Set([...paths, '/api/v1/auth/session'])].sort();
}

/** The text of every answer `p` gets from the member routes, route by route. */
async function everyAnswerOf(p: Person): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of memberReadRoutes()) {
    const response = await p.agent.get(path);
    expect(response.status, path).toBeLessThan(500);
    out[path] = await response.text();
  }
  return out;
}

/** The routes whose answer names one of `secrets`. */
function leaks(answers: Record<string, string>, secrets: string[]): string[] {
  return Object.entries(answers)
    .filter(([, text]) => secrets.some((s) => text.includes(s)))
    .map(([path]) => path);
}

async function photoStatus(p: Person, url: string): Promise<[number, number]> {
  return [(await p.agent.get(url)).status, (await p.agent.get(`${url}?taille=vignette`)).status];
}

async function staffDetail(id: string) {
  return staff.agent.json<{ state: string; events: { event: string; sentence: string }[] }>(
    staff.agent.get(`/api/v1/dashboard/introductions/${id}`),
  );
}

/** What `viewer` may still see of the other after the end: the history, nothing to reach them. */
async function expectNothingShared(pair: Pair, viewer: 'a' | 'b', c: EndingCase) {
  const me = pair[viewer];
  const other = viewer === 'a' ? pair.b : pair.a;
  expect(await photoStatus(me, otherPhotoUrl(pair, viewer)), `${viewer}: the other's photo`).toEqual([404, 404]);
  const view = await viewOf(me, pair.introductionId);
  expect(view, `${viewer}: the introduction stays as history`).toBeDefined();
  expect(view).toMatchObject({ state: c.state, contact: null, photos: [] });
  expect(Date.parse(view?.proposedAt ?? '')).toBeGreaterThan(0);
  if (c.mutual) expect(view?.ended, `${viewer}: ended`).toMatchObject({ wasShared: true });
  expect(leaks(await everyAnswerOf(me), contactStrings(other)), `${viewer}: answers naming the other's contact`).toEqual([]);
}

describe('an introduction that ends: photos and contact go, on the server, for both sides', () => {
  // First: the walk runs on the base clock, before any move of the agency's.
  it('a renunciation (7 days, before any payment) never meets a running introduction: the proposal is refused', async () => {
    const pair = await setUpPair(env(), { mutual: true });
    const member = await signUpMember(product, 'renonce');
    await walkOnboarding({ member, staff, clock, until: 'sub_date' });
    const refused = await staff.agent.post('/api/v1/dashboard/introductions', { a: pair.a.id, b: member.id });
    expect(refused.status).toBe(409);
    const renounced = await sendUpdate(member.agent, { context: 'renounce', confirm: true });
    expect(renounced.status, JSON.stringify(renounced.body)).toBe(200);
    expect(renounced.body.state).toBe('renonce');
    // The renunciation's own transaction ends the member's introductions (none here): a's stays shared.
    expect((await viewOf(pair.a, pair.introductionId))?.contact?.email).toBe(pair.b.email);
  });

  it('every member route is read (the check would see a leak)', () => {
    const routes = memberReadRoutes();
    expect(routes).toEqual(expect.arrayContaining(['/api/v1/user/introductions', '/api/v1/user/progress', '/api/v1/user/export']));
    expect(routes.length).toBeGreaterThan(15);
  });

  it.each(endingCases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const pair = await setUpPair(env(), c);
    // Before: shared both ways (or, with one acceptance, nothing yet); the search finds the contact when it is there.
    for (const viewer of ['a', 'b'] as const) {
      const other = viewer === 'a' ? pair.b : pair.a;
      const view = await viewOf(pair[viewer], pair.introductionId);
      if (c.mutual) {
        expect(view?.contact).toMatchObject({ email: other.email, phone: other.phone, guardian: { email: other.guardianEmail } });
        expect(view?.photos.map((p) => p.url)).toEqual([otherPhotoUrl(pair, viewer)]);
        expect(await photoStatus(pair[viewer], otherPhotoUrl(pair, viewer))).toEqual([200, 200]);
        expect(leaks(await everyAnswerOf(pair[viewer]), contactStrings(other))).toContain('/api/v1/user/introductions');
      } else {
        expect(view?.contact).toBeNull();
        expect(await photoStatus(pair[viewer], otherPhotoUrl(pair, viewer))).toEqual([404, 404]);
      }
    }
    const mark = await lastMailId(env());

    await c.apply(env(), pair);
    await c.after?.(env(), pair);

    await expectNothingShared(pair, 'a', c);
    if (c.gone === 'b') {
      expect((await pair.b.agent.get('/api/v1/user/introductions')).status).toBe(401);
      expect((await pair.b.agent.get(otherPhotoUrl(pair, 'b'))).status).toBe(401);
    } else {
      await expectNothingShared(pair, 'b', c);
    }
    expect(await newMailsWithContactOf(env(), pair.b, mark), 'mails naming b’s contact').toEqual([]);
    expect(await newMailsWithContactOf(env(), pair.a, mark), 'mails naming a’s contact').toEqual([]);
    expect((await staffDetail(pair.introductionId)).state).toBe(c.state);
  });

  it('the agency’s END says why to staff, and to the member whose cause it is only', async () => {
    const c = endingCases.find((x) => x.name.startsWith('contrat arrivé à son terme')) as EndingCase;
    const pair = await setUpPair(env(), c);
    await c.apply(env(), pair);
    const detail = await staffDetail(pair.introductionId);
    expect(detail.events.at(-1)).toMatchObject({
      event: 'END',
      sentence: `La mise en relation a pris fin\u00a0: contrat arrivé à son terme (${pair.b.firstName})`,
    });
    expect((await viewOf(pair.b, pair.introductionId))?.ended).toMatchObject({ why: 'votre contrat est arrivé à son terme' });
    const hers = await viewOf(pair.a, pair.introductionId);
    expect(hers?.ended).toMatchObject({ why: null, wasShared: true });
    expect(hers?.otherFirstName).toBe(pair.b.firstName);
    // The other person's first name and the dates stay: the history is hers.
    expect(hers?.ended?.at).not.toBeNull();
  });

  it('at the very instant the term passes, before any job: nothing shared; the next event ends it (409) and no contact is mailed', async () => {
    const pair = await setUpPair(env(), { mutual: true, b: (now) => ({ signedAt: now - 363 * DAY_MS }) });
    const [row] = (
      (await product.database.db.execute(
        sql`SELECT onboarding->>'subscriptionDate' AS signed FROM members WHERE id = ${pair.b.id}::uuid`,
      )) as unknown as { rows: { signed: string }[] }
    ).rows;
    const term = termEndsAtMs({ subscriptionDate: row?.signed ?? null, selectedPlanId: 'plan_serenity_year' }) ?? 0;
    // The base clock alone: no job runs (the agency's clock page would run them).
    clock.advance(term - agencyNow(env()) + 1);
    const view = await viewOf(pair.a, pair.introductionId);
    expect(view).toMatchObject({ state: 'acceptee', contact: null, photos: [], ended: { why: null, wasShared: true } });
    expect(await photoStatus(pair.a, otherPhotoUrl(pair, 'a'))).toEqual([404, 404]);
    const mark = await lastMailId(env());
    const planned = await staff.agent.post(`/api/v1/dashboard/introductions/${pair.introductionId}/events`, {
      type: 'PLAN_MEETING',
      meetingAt: new Date(agencyNow(env()) + 2 * DAY_MS).toISOString(),
      place: 'Locaux de l’agence',
    });
    expect(planned.status).toBe(409);
    expect(((await planned.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'INTRODUCTION_ENDED',
      message: 'Cette mise en relation a pris fin\u00a0: contrat arrivé à son terme.',
    });
    expect((await staffDetail(pair.introductionId)).state).toBe('close');
    expect(await newMailsWithContactOf(env(), pair.b, mark)).toEqual([]);
  });

  it('an engagement keeps its outcome when the agency ends it, and shares nothing more', async () => {
    const pair = await setUpPair(env(), { mutual: true });
    const events = `/api/v1/dashboard/introductions/${pair.introductionId}/events`;
    const meetingAt = agencyNow(env()) + 60 * 60 * 1000;
    expect(
      (await staff.agent.post(events, { type: 'PLAN_MEETING', meetingAt: new Date(meetingAt).toISOString(), place: 'Agence' })).status,
    ).toBe(200);
    await moveClockTo(env(), meetingAt + 60_000);
    expect((await staff.agent.post(events, { type: 'RECORD_MEETING_HELD' })).status).toBe(200);
    for (const p of [pair.a, pair.b]) {
      const said = await p.agent.post(`/api/v1/user/introductions/${pair.introductionId}/events`, { type: 'FEEDBACK', outcome: 'fiances' });
      expect(said.status, await said.clone().text()).toBe(200);
    }
    expect((await viewOf(pair.a, pair.introductionId))?.contact?.email).toBe(pair.b.email);
    expect((await staff.agent.post('/api/v1/auth/ban', { disable: true, uid: pair.b.id })).status).toBe(200);
    const view = await viewOf(pair.a, pair.introductionId);
    expect(view).toMatchObject({ state: 'fiancailles', contact: null, photos: [], ended: { why: null, wasShared: true } });
    expect(await photoStatus(pair.a, otherPhotoUrl(pair, 'a'))).toEqual([404, 404]);
    expect((await staffDetail(pair.introductionId)).events.at(-1)?.event).toBe('END');
  });

  it('migration 0036 gives a context stored before it, and its earlier rounds, the `ended` field', async () => {
    const pair = await setUpPair(env(), { mutual: false });
    const db = product.database.db;
    const [before] = await db.select().from(introductions).where(eq(introductions.id, pair.introductionId));
    const { ended: _ended, ...old } = (before?.context ?? {}) as Record<string, unknown>;
    const { history: _history, id: _id, members: _m, summaryConsentAt: _s, lastEventAt: _l, ...round } = old;
    await db
      .update(introductions)
      .set({ context: { ...old, history: [{ ...round, endedIn: 'declinee' }] } })
      .where(eq(introductions.id, pair.introductionId));
    const file = readFileSync(join(import.meta.dirname, '../../bff/db/migrations/0036_introduction_end.sql'), 'utf8');
    await db.execute(sql.raw(file));
    const [after] = await db.select().from(introductions).where(eq(introductions.id, pair.introductionId));
    const parsed = v.parse(storedIntroductionSchema, { state: after?.state, context: after?.context, version: after?.version });
    expect(parsed.context.ended).toBeNull();
    expect(parsed.context.history.map((r) => r.ended)).toEqual([null]);
  });
});
