import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { type ActiveMember, startWithActiveMembers } from '#tests/support/active-member.ts';
import { TEST_SITE, type startTestProduct, type TestAgent } from '#tests/support/test-product.ts';

/**
 * The first meeting organised (issue 62 point 5, decision 197) over HTTP: planned, moved, cancelled
 * and held each mail both members (and the walī who receives it) with the date in French, Paris
 * time, the place and who accompanies; a past date is refused in words that say so; the reminder
 * the day before is queued by the job when the agency's clock moves, and dropped at sending when the
 * meeting was cancelled meanwhile.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let sarah: ActiveMember;
let karim: ActiveMember;
const WALI_EMAIL = 'ahmed.wali@example.fr';

const staffAct = (id: string, body: unknown) => staff.post(`/api/v1/dashboard/introductions/${id}/events`, body);
const act = (m: ActiveMember, id: string, body: unknown) => m.agent.post(`/api/v1/user/introductions/${id}/events`, body);
const moveClockTo = async (at: number) => {
  const moved = await product.app.request(`${TEST_SITE}/_local/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: TEST_SITE },
    body: JSON.stringify({ to: new Date(at).toISOString() }),
  });
  expect(moved.status, await moved.clone().text()).toBe(200);
};
async function mailsOf(id: string, kind: string) {
  return product.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), like(mailOutbox.dedupeKey, `%:${id}:%`)));
}

async function acceptedPair(a: ActiveMember, b: ActiveMember): Promise<string> {
  clock.advance(60_000);
  const response = await staff.post('/api/v1/dashboard/introductions', { a: a.id, b: b.id });
  expect(response.status).toBe(201);
  const id = ((await response.json()) as { introduction: { id: string } }).introduction.id;
  expect((await act(a, id, { type: 'ACCEPT' })).status).toBe(200);
  expect((await act(b, id, { type: 'ACCEPT' })).status).toBe(200);
  return id;
}

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, youssef, sarah, karim],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
    ['Sarah', 'femme', 27],
    ['Karim', 'homme', 30],
  ]));
  // Amina's walī, through whom she is to be contacted: he receives the meeting's mails.
  const put = await amina.agent.request('PUT', '/api/v1/user/guardian', {
    name: 'Ahmed Benali',
    relation: 'pere',
    email: WALI_EMAIL,
    phone: '06 55 44 33 22',
    receives: 'rien',
    contactVia: 'wali',
    informed: true,
  });
  expect(put.status).toBe(200);
}, 120_000);
afterAll(() => product.stop());

describe('the first meeting organised', () => {
  it('a past date is refused with a message that says so, and nothing is mailed', async () => {
    const id = await acceptedPair(sarah, karim);
    const past = toIsoInstant(clock.now().getTime() - 3600_000);
    const refused = await staffAct(id, { type: 'PLAN_MEETING', meetingAt: past, place: 'Agence' });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/est déjà passée.*à venir/);
    expect(await mailsOf(id, 'introduction-meeting-planned')).toEqual([]);
  });

  it('planned, moved, held: each mails both members and the walī, with date, place and who accompanies', async () => {
    const id = await acceptedPair(amina, youssef);
    // Friday 10 September 2027 at 15:00 Paris time (13:00 UTC).
    const first = Date.parse('2027-09-10T13:00:00Z');
    clock.set(new Date(first - 5 * DAY_MS));
    const planned = await staffAct(id, {
      type: 'PLAN_MEETING',
      meetingAt: new Date(first).toISOString(),
      place: 'Locaux de l’agence, Paris 9e',
      accompaniedBy: 'Mme Karima Haddad, conseillère',
    });
    expect(planned.status, await planned.clone().text()).toBe(200);
    const mails = await mailsOf(id, 'introduction-meeting-planned');
    expect(mails.map((m) => m.toAddress).sort()).toEqual([amina.email, youssef.email, WALI_EMAIL].sort());
    for (const m of mails) {
      const text = m.textBody.replace(/\s+/g, ' ');
      expect(text).toContain('10 septembre 2027');
      expect(text).toMatch(/15\s?h\s?00|15:00/);
      expect(text).toContain('Locaux de l’agence, Paris 9e');
      expect(text).toContain('Mme Karima Haddad, conseillère');
    }
    expect(mails.find((m) => m.toAddress === WALI_EMAIL)?.textBody.replace(/\s+/g, ' ')).toContain('comme walī de Amina');

    const second = first + 2 * DAY_MS;
    expect((await staffAct(id, { type: 'PLAN_MEETING', meetingAt: new Date(second).toISOString(), place: 'Café du parc' })).status).toBe(
      200,
    );
    const moved = await mailsOf(id, 'introduction-meeting-moved');
    expect(moved.map((m) => m.toAddress).sort()).toEqual([amina.email, youssef.email, WALI_EMAIL].sort());
    expect(moved[0]?.textBody).toContain('Café du parc');

    // The day before the meeting: the job queues the reminder when the clock moves.
    await moveClockTo(second - 20 * 3600_000);
    const reminders = await mailsOf(id, 'introduction-meeting-reminder');
    expect(reminders.map((m) => m.toAddress).sort()).toEqual([amina.email, youssef.email, WALI_EMAIL].sort());
    expect(reminders[0]?.textBody).toContain('Café du parc');

    await moveClockTo(second + 3600_000);
    expect((await staffAct(id, { type: 'RECORD_MEETING_HELD' })).status).toBe(200);
    const held = await mailsOf(id, 'introduction-meeting-held');
    expect(held.map((m) => m.toAddress).sort()).toEqual([amina.email, youssef.email, WALI_EMAIL].sort());
    expect(held[0]?.textBody.replace(/\s+/g, ' ')).toContain('7 jours');
  });

  it('cancelled: both told, and a reminder queued before the cancellation is dropped at sending', async () => {
    const id = await acceptedPair(sarah, youssef);
    const at = product.clock.now().getTime() + 3 * DAY_MS;
    expect((await staffAct(id, { type: 'PLAN_MEETING', meetingAt: new Date(at).toISOString(), place: 'Agence' })).status).toBe(200);
    // The reminder is queued by the job (the day before), then the meeting is cancelled before it leaves.
    const { runIntroductionDeadlines } = await import('#bff/introductions/introductions.ts');
    const { parseConfig } = await import('#bff/config.ts');
    const agency = parseConfig({ NODE_ENV: 'test', PUBLIC_SITE_URL: TEST_SITE, DEMO_DATA: 'false' }).agency;
    await runIntroductionDeadlines(product.database.db, new Date(at - 12 * 3600_000), { siteUrl: TEST_SITE, agency });
    const queued = await mailsOf(id, 'introduction-meeting-reminder');
    expect(queued.length).toBe(2);
    const cancelled = await staffAct(id, { type: 'CANCEL_MEETING' });
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect((await mailsOf(id, 'introduction-meeting-cancelled')).map((m) => m.toAddress).sort()).toEqual(
      [sarah.email, youssef.email].sort(),
    );
    await product.flushMail();
    // Dropped at sending (its key is freed by the dispatcher): read the rows by id.
    const { inArray } = await import('drizzle-orm');
    const reminders = await product.database.db
      .select()
      .from(mailOutbox)
      .where(
        inArray(
          mailOutbox.id,
          queued.map((m) => m.id),
        ),
      );
    expect(reminders.map((m) => m.status)).toEqual(['dropped', 'dropped']);
    expect(reminders[0]?.lastError).toBe('ne s’applique plus à l’état acceptee');
  });
});
