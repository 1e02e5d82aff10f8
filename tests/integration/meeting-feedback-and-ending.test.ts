import { and, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { defaultCloseMessage } from '#machines/introductions/events.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { type ActiveMember, introductionsOf, startWithActiveMembers } from '#tests/support/active-member.ts';
import { TEST_SITE, type startTestProduct, type TestAgent } from '#tests/support/test-product.ts';

/**
 * After the first meeting (issue 62 point 5, decision 205), over HTTP: each member gives their
 * feedback within 7 civil days of the meeting recorded held, the deadline shown on their screen and
 * a reminder queued 2 days before its end (dropped at sending for whoever gave it meanwhile); past
 * it, the member is refused in words and staff record the feedback heard by phone (who and when,
 * shown to staff; the member's screen shows it as given). Ending: staff's close carries a message
 * the other member receives by mail and reads on screen; a member's stop tells the other side in a
 * plain sentence.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let sarah: ActiveMember;
let karim: ActiveMember;
let leila: ActiveMember;
let bilal: ActiveMember;

const GUARDIAN = { name: 'Ahmed Benali', relation: 'pere', phone: '06 55 44 33 22', receives: 'rien', informed: true };
const SARAH_WALI = 'yacine.wali@example.fr';
const AMINA_WALI = 'ahmed.pere@example.fr';

interface View {
  id: string;
  state: string;
  myFeedback: { outcome: string; byPhone: boolean } | null;
  feedbackDeadline: { lastDay: string; text: string; passed: boolean } | null;
  ended: { why: string | null; message: string | null } | null;
}
interface ErrorBody {
  error: { code: string; message: string };
}

const staffAct = (id: string, body: unknown) => staff.post(`/api/v1/dashboard/introductions/${id}/events`, body);
const phone = (id: string, body: unknown) => staff.post(`/api/v1/dashboard/introductions/${id}/feedback`, body);
const act = (m: ActiveMember, id: string, body: unknown) => m.agent.post(`/api/v1/user/introductions/${id}/events`, body);
const viewOf = async (m: ActiveMember, id: string) => (await introductionsOf<View>(m)).find((v) => v.id === id) as View;
const moveClockTo = async (at: number) => {
  const moved = await product.app.request(`${TEST_SITE}/_local/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: TEST_SITE },
    body: JSON.stringify({ to: new Date(at).toISOString() }),
  });
  expect(moved.status, await moved.clone().text()).toBe(200);
};
/** Moves the product's clock without running the agency's jobs (the agency clock is an offset over this one). */
const setQuietly = (at: number) => clock.advance(at - product.clock.now().getTime());
async function mailsOf(id: string, kind: string) {
  return product.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, kind), like(mailOutbox.dedupeKey, `%:${id}:%`)));
}

async function acceptedPair(a: ActiveMember, b: ActiveMember): Promise<string> {
  clock.advance(60_000);
  const response = await staff.post('/api/v1/dashboard/introductions', { a: a.id, b: b.id });
  expect(response.status, await response.clone().text()).toBe(201);
  const id = ((await response.json()) as { introduction: { id: string } }).introduction.id;
  expect((await act(a, id, { type: 'ACCEPT' })).status).toBe(200);
  expect((await act(b, id, { type: 'ACCEPT' })).status).toBe(200);
  return id;
}

/** Planned at `meetingAt`, the clock moved past it, recorded held an hour later. */
async function heldMeeting(id: string, meetingAt: number): Promise<void> {
  const planned = await staffAct(id, { type: 'PLAN_MEETING', meetingAt: new Date(meetingAt).toISOString(), place: 'Agence' });
  expect(planned.status, await planned.clone().text()).toBe(200);
  await moveClockTo(meetingAt + 3600_000);
  expect((await staffAct(id, { type: 'RECORD_MEETING_HELD' })).status).toBe(200);
}

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, youssef, sarah, karim, leila, bilal],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
    ['Sarah', 'femme', 27],
    ['Karim', 'homme', 30],
    ['Leila', 'femme', 28],
    ['Bilal', 'homme', 31],
  ]));
}, 120_000);
afterAll(() => product.stop());

describe('the feedback after the first meeting', () => {
  it('a deadline shown, a reminder before it, a refusal after it, and staff record what they heard by phone', async () => {
    const id = await acceptedPair(amina, youssef);
    // Wednesday 3 March 2027, 15:00 Paris: recorded held at 16:00; 7 civil days → Wednesday 10 March inclusive.
    const meetingAt = Date.parse('2027-03-03T14:00:00Z');
    setQuietly(meetingAt - 2 * DAY_MS);
    await heldMeeting(id, meetingAt);
    const ends = Date.parse('2027-03-10T23:00:00Z');

    const shown = await viewOf(amina, id);
    expect(shown.state).toBe('retours');
    expect(shown.feedbackDeadline).toEqual({
      lastDay: '2027-03-10',
      passed: false,
      text: 'Votre retour est attendu jusqu’au mercredi 10 mars 2027 inclus.',
    });

    // 2 days before its end the job queues the reminder to each member who has not given it (run
    // here by hand: moving the agency's clock would also send it at once).
    const { runIntroductionDeadlines } = await import('#bff/introductions/introductions.ts');
    const { parseConfig } = await import('#bff/config.ts');
    const site = { siteUrl: TEST_SITE, agency: parseConfig({ NODE_ENV: 'test', PUBLIC_SITE_URL: TEST_SITE, DEMO_DATA: 'false' }).agency };
    const early = await runIntroductionDeadlines(product.database.db, new Date(ends - 2 * DAY_MS - 3600_000), site);
    expect(early.feedbackReminders).toBe(0);
    setQuietly(ends - 2 * DAY_MS + 3600_000);
    const due = await runIntroductionDeadlines(product.database.db, product.clock.now(), site);
    expect(due.feedbackReminders).toBe(2);
    const reminders = await mailsOf(id, 'introduction-feedback-reminder');
    expect(reminders.map((m) => m.toAddress).sort()).toEqual([amina.email, youssef.email].sort());
    expect(reminders[0]?.textBody.replace(/\s+/g, ' ')).toContain('jusqu’au mercredi 10 mars 2027 inclus');

    // Amina answers before it leaves: hers is dropped at sending, Youssef's goes.
    const given = await act(amina, id, { type: 'FEEDBACK', outcome: 'continuer' });
    expect(given.status, await given.clone().text()).toBe(200);
    await product.flushMail();
    const sent = await product.database.db
      .select()
      .from(mailOutbox)
      .where(
        inArray(
          mailOutbox.id,
          reminders.map((m) => m.id),
        ),
      );
    expect(Object.fromEntries(sent.map((m) => [m.toAddress, m.status]))).toEqual({ [amina.email]: 'dropped', [youssef.email]: 'sent' });
    expect(sent.find((m) => m.toAddress === amina.email)?.lastError).toBe('retour déjà donné');

    // Past the deadline: Youssef is refused in words, and his screen says the counsellor will call.
    await moveClockTo(ends + 3600_000);
    const late = await act(youssef, id, { type: 'FEEDBACK', outcome: 'continuer' });
    expect(late.status).toBe(409);
    const lateBody = (await late.json()) as ErrorBody;
    expect(lateBody.error.code).toBe('FEEDBACK_LATE');
    expect(lateBody.error.message).toBe(
      'Le délai pour donner votre retour est passé (il courait jusqu’au mercredi 10 mars 2027 inclus) : votre conseillère vous appellera pour le recueillir.',
    );
    expect((await viewOf(youssef, id)).feedbackDeadline?.passed).toBe(true);

    // Staff may not answer for him through the members' events, nor a member through staff's route.
    expect((await staffAct(id, { type: 'FEEDBACK', side: 'b', outcome: 'continuer' })).status).toBe(403);
    expect((await youssef.agent.post(`/api/v1/dashboard/introductions/${id}/feedback`, { side: 'b', outcome: 'continuer' })).status).toBe(
      403,
    );
    // A bad body is a French 400 that changes nothing.
    const bad = await phone(id, { side: 'b', outcome: 'arreter' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('Un motif est demandé pour arrêter, et seulement pour arrêter');
    expect((await phone(id, { side: 'c', outcome: 'continuer' })).status).toBe(400);

    // Staff record what Youssef said on the phone: who and when are kept and shown to staff.
    const recorded = await phone(id, { side: 'b', outcome: 'continuer' });
    expect(recorded.status, await recorded.clone().text()).toBe(200);
    const detail = (
      (await recorded.json()) as {
        introduction: { state: string; feedbackRecordedBy: Record<string, { name: string; at: string } | null> };
      }
    ).introduction;
    expect(detail.state).toBe('poursuivie');
    expect((detail as unknown as { events: { sentence: string }[] }).events.at(-1)?.sentence).toMatch(/\(recueilli par téléphone\)$/);
    expect(detail.feedbackRecordedBy.a).toBeNull();
    expect(detail.feedbackRecordedBy.b?.name).toBeTruthy();
    expect(Date.parse(detail.feedbackRecordedBy.b?.at ?? '')).toBe(ends + 3600_000);
    // His screen shows it as given, by phone; twice is refused.
    const his = await viewOf(youssef, id);
    expect(his.myFeedback).toMatchObject({ outcome: 'continuer', byPhone: true });
    expect(his.feedbackDeadline).toBeNull();
    expect((await phone(id, { side: 'b', outcome: 'continuer' })).status).toBe(409);
  });
});

describe('ending an introduction', () => {
  it('staff close with a message: the other member receives it by mail and reads it on screen', async () => {
    // Sarah is to be contacted through her walī (who has an e-mail); Karim's brother receives nothing.
    const walis = [
      [sarah, { ...GUARDIAN, name: 'Yacine Amrani', email: SARAH_WALI, contactVia: 'wali' }],
      [karim, { ...GUARDIAN, name: 'Omar Haddad', relation: 'frere', email: 'omar.rien@example.fr' }],
    ] as const;
    for (const [member, body] of walis) expect((await member.agent.request('PUT', '/api/v1/user/guardian', body)).status).toBe(200);
    const id = await acceptedPair(sarah, karim);
    const message = 'Bonjour Karim,\n\nSarah a souhaité ne pas poursuivre. Je vous appelle cette semaine pour en parler.';
    const missing = await staffAct(id, { type: 'CLOSE', note: 'Appel de Sarah', message: '   ', askedBy: 'a' });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toContain('Veuillez écrire le message au membre');

    const closed = await staffAct(id, { type: 'CLOSE', note: 'Appel de Sarah, mardi', message, askedBy: 'a' });
    expect(closed.status, await closed.clone().text()).toBe(200);

    const mails = await mailsOf(id, 'introduction-ended');
    expect(mails.map((m) => m.toAddress)).toEqual([karim.email]);
    const text = mails[0]?.textBody ?? '';
    expect(text).toContain('Votre conseillère a mis fin à votre mise en relation et vous écrit :');
    expect(text).toContain('Sarah a souhaité ne pas poursuivre. Je vous appelle cette semaine pour en parler.');
    expect(text).not.toContain('Appel de Sarah'); // the internal note stays with staff

    // Sarah's walī receives a short word of the end (the shared layout), not the counsellor's message.
    const toWali = await mailsOf(id, 'introduction-ended-wali');
    expect(toWali.map((m) => m.toAddress)).toEqual([SARAH_WALI]);
    const waliText = (toWali[0]?.textBody ?? '').replace(/\s+/g, ' ');
    expect(waliText).toContain('Bonjour Yacine Amrani');
    expect(waliText).toContain('Vous recevez ce message comme walī de Sarah, à sa demande.');
    expect(waliText).toContain('La mise en relation proposée à Sarah a pris fin.');
    expect(waliText).not.toContain('Je vous appelle');
    expect(waliText).not.toContain('Karim');
    await product.flushMail();
    expect((await mailsOf(id, 'introduction-ended-wali'))[0]?.status).toBe('sent');

    expect((await viewOf(karim, id)).ended).toMatchObject({ why: 'l’autre personne a souhaité ne pas poursuivre', message });
    expect((await viewOf(sarah, id)).ended).toMatchObject({ why: 'vous avez demandé à arrêter', message: null });
  });

  it('a close decided by the agency writes to both; a member’s stop tells the other side in a plain sentence', async () => {
    // Amina's father receives copies of her proposals; he is removed before the word of the end leaves.
    const father = { ...GUARDIAN, email: AMINA_WALI, receives: 'copie-propositions' };
    expect((await amina.agent.request('PUT', '/api/v1/user/guardian', father)).status).toBe(200);
    const both = await acceptedPair(amina, karim);
    expect(
      (await staffAct(both, { type: 'CLOSE', note: 'Décision de l’agence', message: 'Nous mettons fin à cette mise en relation.' })).status,
    ).toBe(200);
    expect((await mailsOf(both, 'introduction-ended')).map((m) => m.toAddress).sort()).toEqual([amina.email, karim.email].sort());
    const queued = await mailsOf(both, 'introduction-ended-wali');
    expect(queued.map((m) => m.toAddress)).toEqual([AMINA_WALI]);
    expect((await amina.agent.request('DELETE', '/api/v1/user/guardian')).status).toBe(200);
    await product.flushMail();
    const [dropped] = await product.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.id, queued[0]?.id ?? -1));
    expect(dropped).toMatchObject({ status: 'dropped', lastError: 'le walī ne reçoit plus les nouvelles du membre' });
    expect((await viewOf(amina, both)).ended).toMatchObject({
      why: 'votre conseillère l’a close',
      message: 'Nous mettons fin à cette mise en relation.',
    });

    const id = await acceptedPair(sarah, youssef);
    await heldMeeting(id, product.clock.now().getTime() + DAY_MS);
    expect((await act(sarah, id, { type: 'FEEDBACK', outcome: 'arreter', reason: 'pas-de-feeling' })).status).toBe(200);
    const mails = await mailsOf(id, 'introduction-ended');
    expect(mails.map((m) => m.toAddress)).toEqual([youssef.email]);
    expect(mails[0]?.textBody.replace(/\s+/g, ' ')).toContain(
      'L’autre personne a choisi de ne pas poursuivre la mise en relation après votre rencontre.',
    );
    expect(mails[0]?.textBody).not.toContain('feeling');
    // Her stop is told to her walī too (she is contacted through him).
    expect((await mailsOf(id, 'introduction-ended-wali')).map((m) => m.toAddress)).toEqual([SARAH_WALI]);
    expect((await viewOf(youssef, id)).ended).toMatchObject({ why: 'l’autre personne a choisi de ne pas poursuivre', message: null });
    expect((await viewOf(sarah, id)).ended).toMatchObject({ why: 'vous avez choisi d’arrêter' });
  });

  it('a close sent over the API without a message still gives the other member a word, by mail and on screen (decision 212)', async () => {
    const id = await acceptedPair(leila, bilal);
    // A script's request: the staff session's cookie and JSON, none of the SPA's headers (no Origin, no Sec-Fetch-*).
    const closed = await product.app.request(`${TEST_SITE}/api/v1/dashboard/introductions/${id}/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: [...staff.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: JSON.stringify({ type: 'CLOSE', note: 'Bilal a appelé : il ne souhaite pas poursuivre', askedBy: 'b' }),
    });
    expect(closed.status, await closed.clone().text()).toBe(200);
    const word = defaultCloseMessage('b');
    expect(word).toContain('L’autre personne a souhaité ne pas poursuivre');
    const mails = await mailsOf(id, 'introduction-ended');
    expect(mails.map((m) => m.toAddress)).toEqual([leila.email]);
    expect((mails[0]?.textBody ?? '').replace(/\s+/g, ' ')).toContain(word);
    expect(mails[0]?.textBody).not.toContain('Bilal a appelé'); // the internal note stays with staff
    expect((await viewOf(leila, id)).ended).toMatchObject({ why: 'l’autre personne a souhaité ne pas poursuivre', message: word });
    expect((await viewOf(bilal, id)).ended).toMatchObject({ why: 'vous avez demandé à arrêter', message: null });

    // The agency's own close, without a message either: both members read the agency's word.
    const agency = await acceptedPair(leila, karim);
    expect((await staffAct(agency, { type: 'CLOSE', note: 'Décision de l’agence, sans message' })).status).toBe(200);
    const both = defaultCloseMessage(null);
    expect(both).toContain('Nous avons mis fin à cette mise en relation.');
    const toBoth = await mailsOf(agency, 'introduction-ended');
    expect(toBoth.map((m) => m.toAddress).sort()).toEqual([leila.email, karim.email].sort());
    for (const m of toBoth) expect(m.textBody.replace(/\s+/g, ' ')).toContain(both);
    for (const m of [leila, karim])
      expect((await viewOf(m, agency)).ended).toMatchObject({ why: 'votre conseillère l’a close', message: both });
  });
});
