import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { fakeClock } from '#bff/clock.ts';
import { introductionEvents, introductions } from '#bff/db/introductions-schema.ts';
import { mailbox } from '#bff/db/schema.ts';
import { runIntroductionDeadlines } from '#bff/introductions/introductions.ts';
import { refreshWaitingMatchProfiles } from '#bff/matching/refresh.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import type { Gender } from '#machines/onboarding/record.ts';
import { type ActiveMember, activeMember as makeActiveMember } from '#tests/support/active-member.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent, testAgencySite } from '#tests/support/test-product.ts';

/**
 * Introductions over HTTP (issue 22, decision 114): staff rank candidates and propose; both
 * members read and answer their own side only; contact details appear only at mutual acceptance;
 * refused events are 409 with the state; limits and deadlines hold (movable clock).
 */

// Real time to start with (sessions and TOTP codes are checked against it), moved by the tests.
const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
const site = testAgencySite();

type Member = ActiveMember;

/** An active member who is easy to match (tests/support/active-member.ts, shared with the guardian and photo tests). */
const activeMember = (firstName: string, gender: Gender, age = 30): Promise<Member> =>
  makeActiveMember(product, clock, firstName, gender, age);

type View = {
  id: string;
  state: string;
  other: { firstName: string | null; age: number | null; region: string } | null;
  myAnswer: { status: string };
  contact: { email: string; phone: string | null } | null;
  reasons: { criterion: string; met: boolean; reason: string }[];
  timeline: { at: string; sentence: string }[];
};
type StaffDetail = {
  id: string;
  state: string;
  version: number;
  open: boolean;
  members: { a: { id: string }; b: { id: string } };
  events: { event: string; sentence: string; payload: Record<string, unknown> }[];
  context: { reopenNote: string | null; closeNote: string | null };
};

const mine = async (m: Member) => (await m.agent.json<{ introductions: View[] }>(m.agent.get('/api/v1/user/introductions'))).introductions;
const act = (m: Member, id: string, body: unknown) => m.agent.post(`/api/v1/user/introductions/${id}/events`, body);
const staffAct = (id: string, body: unknown) => staff.post(`/api/v1/dashboard/introductions/${id}/events`, body);
async function propose(a: Member, b: Member, extra: Record<string, unknown> = {}) {
  clock.advance(60_000);
  return staff.post('/api/v1/dashboard/introductions', { a: a.id, b: b.id, ...extra });
}
async function proposed(a: Member, b: Member): Promise<StaffDetail> {
  const response = await propose(a, b);
  const body = (await response.json()) as { introduction: StaffDetail };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.introduction;
}
async function mailsTo(email: string) {
  await product.flushMail();
  return product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, email));
}
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; state?: string } }).error;

let amina: Member;
let youssef: Member;
let karim: Member;
let mehdi: Member;
let bilal: Member;
let sarah: Member;

beforeAll(async () => {
  product = await startTestProduct({ clock });
  const s = await signInStaff(product);
  await s.passTotp();
  staff = s.agent;
  amina = await activeMember('Amina', 'femme', 29);
  youssef = await activeMember('Youssef', 'homme', 32);
  karim = await activeMember('Karim', 'homme', 33);
  mehdi = await activeMember('Mehdi', 'homme', 31);
  bilal = await activeMember('Bilal', 'homme', 34);
  sarah = await activeMember('Sarah', 'femme', 28);
}, 120_000);
afterAll(() => product.stop());

describe('introductions over HTTP', () => {
  let first: StaffDetail;

  it('staff rank candidates for a woman: men only, with scores and reasons', async () => {
    const response = await staff.get(`/api/v1/dashboard/members/${amina.id}/candidates?limit=10`);
    const body = (await response.json()) as {
      member: { id: string; firstName: string; unavailableReason?: string };
      candidates: {
        memberId: string;
        firstName: string;
        age: number;
        region: string;
        score: number;
        maxScore: number;
        reasons: { met: boolean }[];
      }[];
    };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.member).toMatchObject({ id: amina.id, firstName: 'Amina' });
    expect(body.member.unavailableReason).toBeUndefined();
    const ids = body.candidates.map((c) => c.memberId);
    expect(ids).toEqual(expect.arrayContaining([youssef.id, karim.id, mehdi.id, bilal.id]));
    expect(ids).not.toContain(sarah.id);
    const y = body.candidates.find((c) => c.memberId === youssef.id);
    expect(y).toMatchObject({ firstName: 'Youssef', age: 32, region: 'Île-de-France' });
    expect(y?.maxScore).toBeGreaterThan(0);
    expect(y?.reasons.length).toBeGreaterThan(0);
    // Bad filters are a French 400.
    const bad = await staff.get(`/api/v1/dashboard/members/${amina.id}/candidates?limit=abc`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('Paramètres invalides');
  });

  it('staff propose Youssef to Amina: both see it (mail and page), without contact details', async () => {
    first = await proposed(amina, youssef);
    expect(first).toMatchObject({ state: 'proposee.attente-des-reponses', version: 1, open: true });
    expect(first.members).toMatchObject({ a: { id: amina.id }, b: { id: youssef.id } });
    for (const m of [amina, youssef]) {
      const mails = await mailsTo(m.email);
      expect(mails.map((x) => x.subject)).toContain('Une nouvelle proposition vous attend');
      // Nothing about the other person in the mail.
      const proposal = mails.find((x) => x.subject === 'Une nouvelle proposition vous attend');
      expect(proposal?.textBody).not.toContain(m === amina ? 'Youssef' : 'Amina');
      const [view] = await mine(m);
      expect(view).toMatchObject({ id: first.id, state: 'proposee', myAnswer: { status: 'pending' }, contact: null });
      expect(view?.other?.firstName).toBe(m === amina ? 'Youssef' : 'Amina');
      expect(view?.reasons.length).toBeGreaterThan(0);
    }
    // Already proposed: Youssef is no longer a candidate for Amina.
    const again = await staff.json<{ candidates: { memberId: string }[] }>(staff.get(`/api/v1/dashboard/members/${amina.id}/candidates`));
    expect(again.candidates.map((c) => c.memberId)).not.toContain(youssef.id);
  });

  it('one accepts, then the other: contact details appear only then', async () => {
    clock.advance(3600_000);
    const one = await act(youssef, first.id, { type: 'ACCEPT' });
    const oneBody = (await one.json()) as { introduction: View };
    expect(one.status, JSON.stringify(oneBody)).toBe(200);
    // Youssef sees his own answer, not yet Amina's contact; Amina does not learn that he accepted.
    expect(oneBody.introduction).toMatchObject({ state: 'proposee', myAnswer: { status: 'accepted' }, contact: null });
    const [aminaView] = await mine(amina);
    expect(aminaView).toMatchObject({ state: 'proposee', contact: null });
    expect(aminaView?.timeline.map((t) => t.sentence).join(' ')).not.toContain('Youssef a accepté');
    expect(JSON.stringify(await mine(amina))).not.toContain(youssef.email);
    expect(JSON.stringify(await mine(youssef))).not.toContain(amina.email);

    clock.advance(3600_000);
    const two = await act(amina, first.id, { type: 'ACCEPT', side: 'b' });
    const twoBody = (await two.json()) as { introduction: View };
    expect(two.status, JSON.stringify(twoBody)).toBe(200);
    expect(twoBody.introduction).toMatchObject({ state: 'acceptee', contact: { email: youssef.email, phone: '+33612345678' } });
    const [youssefView] = await mine(youssef);
    expect(youssefView?.contact?.email).toBe(amina.email);
    expect(youssefView?.timeline.map((t) => t.sentence)).toEqual(
      expect.arrayContaining([
        'L’équipe a proposé la mise en relation',
        'Youssef a accepté la proposition',
        'Amina a accepté la proposition',
      ]),
    );
    // Amina's `side: 'b'` was ignored: she is side a, and her own acceptance is logged as hers.
    const [row] = await product.database.db.select().from(introductions).where(eq(introductions.id, first.id));
    expect(row?.state).toBe('acceptee');
    const log = await product.database.db
      .select()
      .from(introductionEvents)
      .where(eq(introductionEvents.introductionId, first.id))
      .orderBy(introductionEvents.id);
    expect(log.map((e) => [e.event, e.side])).toEqual([
      ['PROPOSE', null],
      ['ACCEPT', 'b'],
      ['ACCEPT', 'a'],
    ]);
    expect((await mailsTo(amina.email)).map((m) => m.subject)).toContain('Acceptation mutuelle : votre mise en relation');
  });

  it('a refused event is 409 with the state; bad input is a French 400 that changes nothing', async () => {
    const again = await act(amina, first.id, { type: 'ACCEPT' });
    expect(again.status).toBe(409);
    const error = await errorOf(again);
    expect(error.state).toBe('acceptee');
    expect(error.message).toContain('Acceptée par les deux');

    const bad = await act(amina, first.id, { type: 'DECLINE', reason: 'pas-une-raison' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('Données invalides');
    const unknown = await staffAct(first.id, { type: 'DANCE' });
    expect(unknown.status).toBe(400);
    const [row] = await product.database.db.select().from(introductions).where(eq(introductions.id, first.id));
    expect(row?.version).toBe(3);

    // Members cannot send staff events, staff cannot answer for a member.
    expect((await act(amina, first.id, { type: 'CLOSE', note: 'non' })).status).toBe(403);
    expect((await staffAct(first.id, { type: 'ACCEPT', side: 'a' })).status).toBe(403);
    // A stale version is refused.
    const stale = await staffAct(first.id, { type: 'RECORD_MEETING_HELD', expectedVersion: 1 });
    expect(stale.status).toBe(409);
    expect((await errorOf(stale)).code).toBe('VERSION_CONFLICT');
  });

  it('staff plan the meeting, record it, and both give feedback, all in the timeline in French', async () => {
    clock.advance(DAY_MS);
    const planned = await staffAct(first.id, {
      type: 'PLAN_MEETING',
      meetingAt: toIsoInstant(clock.now().getTime() + 3 * DAY_MS),
      place: 'Locaux de l’agence',
      expectedVersion: 3,
    });
    expect(planned.status, await planned.clone().text()).toBe(200);
    expect((await staff.json<{ introduction: StaffDetail }>(planned)).introduction.state).toBe('rencontre-planifiee');
    const early = await act(amina, first.id, { type: 'FEEDBACK', outcome: 'continuer' });
    expect(early.status).toBe(409);
    expect((await errorOf(early)).state).toBe('rencontre-planifiee');
    clock.advance(4 * DAY_MS);
    expect((await staffAct(first.id, { type: 'RECORD_MEETING_HELD' })).status).toBe(200);
    const fb = await act(amina, first.id, { type: 'FEEDBACK', outcome: 'continuer' });
    expect(fb.status, await fb.clone().text()).toBe(200);
    const fb2 = await act(youssef, first.id, { type: 'FEEDBACK', outcome: 'continuer' });
    expect(fb2.status).toBe(200);
    const detail = await staff.json<StaffDetail>(staff.get(`/api/v1/dashboard/introductions/${first.id}`));
    expect(detail.state).toBe('poursuivie');
    const sentences = detail.events.map((e) => e.sentence);
    expect(sentences[0]).toBe('L’équipe a proposé la mise en relation');
    expect(sentences).toEqual(
      expect.arrayContaining([
        'Youssef a accepté la proposition',
        'L’équipe a noté que la première rencontre a eu lieu',
        'Amina souhaite continuer à se connaître',
      ]),
    );
    expect(sentences.some((s) => s.startsWith('L’équipe a planifié la première rencontre le'))).toBe(true);
    // The member's own timeline has her feedback, not Youssef's.
    const [view] = await mine(amina);
    const hers = view?.timeline.map((t) => t.sentence) ?? [];
    expect(hers).toContain('Amina souhaite continuer à se connaître');
    expect(hers).not.toContain('Youssef souhaite continuer à se connaître');
  });

  it('a decline with a reason; contact never shown', async () => {
    const second = await proposed(karim, sarah);
    clock.advance(3600_000);
    const declined = await act(sarah, second.id, { type: 'DECLINE', reason: 'pas-de-feeling', comment: 'Merci quand même.' });
    const body = (await declined.json()) as { introduction: View };
    expect(declined.status, JSON.stringify(body)).toBe(200);
    expect(body.introduction).toMatchObject({ state: 'declinee', myAnswer: { status: 'declined' }, contact: null });
    const [karimView] = await mine(karim);
    expect(karimView).toMatchObject({ id: second.id, state: 'declinee', contact: null });
    // Sarah's reason stays with the agency.
    expect(JSON.stringify(karimView)).not.toContain('affinité');
    const detail = await staff.json<StaffDetail>(staff.get(`/api/v1/dashboard/introductions/${second.id}`));
    expect(detail.events.map((e) => e.sentence)).toContain('Sarah a décliné la proposition (motif : pas d’affinité)');
    // Karim can no longer answer it.
    const late = await act(karim, second.id, { type: 'ACCEPT' });
    expect(late.status).toBe(409);
    expect((await errorOf(late)).state).toBe('declinee');
  });

  it('a member can neither read nor act on another pair’s introduction (404), nor call staff routes', async () => {
    const [aminaIntro] = await mine(amina);
    const id = aminaIntro?.id as string;
    const other = await act(sarah, id, { type: 'FEEDBACK', outcome: 'arreter', reason: 'autre' });
    expect(other.status).toBe(404);
    expect((await errorOf(other)).code).toBe('INTRODUCTION_NOT_FOUND');
    expect((await act(sarah, '00000000-0000-4000-8000-000000000000', { type: 'ACCEPT' })).status).toBe(404);
    expect((await act(sarah, 'pas-un-id', { type: 'ACCEPT' })).status).toBe(404);
    expect(JSON.stringify(await mine(sarah))).not.toContain(id);
    for (const [method, path] of [
      ['GET', `/api/v1/dashboard/introductions/${id}`],
      ['GET', '/api/v1/dashboard/introductions'],
      ['GET', `/api/v1/dashboard/members/${amina.id}/candidates`],
      ['POST', '/api/v1/dashboard/introductions'],
      ['POST', `/api/v1/dashboard/introductions/${id}/events`],
    ] as const) {
      const response = await sarah.agent.request(
        method,
        path,
        method === 'POST' ? { a: sarah.id, b: karim.id, type: 'CLOSE', note: 'x' } : undefined,
      );
      expect(response.status, `${method} ${path}`).toBe(403);
      const anonymous = await product.agent().request(method, path, method === 'POST' ? {} : undefined);
      expect(anonymous.status, `${method} ${path} anonymously`).toBe(401);
    }
    const none = await staff.get('/api/v1/dashboard/introductions/00000000-0000-4000-8000-000000000000');
    expect(none.status).toBe(404);
    expect((await errorOf(none)).message).toBe('Mise en relation introuvable.');
    // Staff have no member introductions of their own.
    expect((await staff.get('/api/v1/user/introductions')).status).toBe(403);
  });

  it('limits: one proposal per pair, at most two open introductions per member (409, French)', async () => {
    const pair = await propose(amina, youssef);
    expect(pair.status).toBe(409);
    expect((await errorOf(pair)).message).toContain('déjà été proposés');
    const reversed = await propose(youssef, amina);
    expect(reversed.status).toBe(409);

    // Amina has one open (poursuivie); a second one with Mehdi is fine, a third is refused.
    const withMehdi = await proposed(amina, mehdi);
    const third = await propose(amina, bilal);
    expect(third.status).toBe(409);
    expect((await errorOf(third)).message).toBe('Le premier membre a déjà 2 mises en relation en cours, le maximum.');
    const candidates = await staff.json<{ member: { unavailableReason?: string }; candidates: unknown[] }>(
      staff.get(`/api/v1/dashboard/members/${amina.id}/candidates`),
    );
    expect(candidates.member.unavailableReason).toContain('le maximum');
    expect(candidates.candidates).toEqual([]);
    // Amina is no longer a candidate for anyone.
    const forBilal = await staff.json<{ candidates: { memberId: string }[] }>(
      staff.get(`/api/v1/dashboard/members/${bilal.id}/candidates`),
    );
    expect(forBilal.candidates.map((c) => c.memberId)).not.toContain(amina.id);

    // A decline frees the place.
    expect((await act(mehdi, withMehdi.id, { type: 'DECLINE', reason: 'age' })).status).toBe(200);
    const freed = await staff.json<{ member: { unavailableReason?: string } }>(
      staff.get(`/api/v1/dashboard/members/${amina.id}/candidates`),
    );
    expect(freed.member.unavailableReason).toBeUndefined();

    const same = await staff.post('/api/v1/dashboard/introductions', { a: karim.id, b: bilal.id });
    expect(same.status).toBe(409);
    expect((await errorOf(same)).message).toBe('Les deux membres proposés doivent être de sexes opposés.');
    const badBody = await staff.post('/api/v1/dashboard/introductions', { a: 'x', b: bilal.id });
    expect(badBody.status).toBe(400);
    expect((await errorOf(badBody)).message).toBe('Données invalides');
  });

  it('deadlines: a reminder at day 5 to whoever has not answered, expiry at day 7; staff may re-open with a note', async () => {
    const intro = await proposed(sarah, bilal);
    const proposedAt = clock.now().getTime();
    clock.advance(3600_000);
    expect((await act(bilal, intro.id, { type: 'ACCEPT' })).status).toBe(200);
    const db = product.database.db;
    const deadline = (now: number) => runIntroductionDeadlines(db, new Date(now), site);

    expect(await deadline(proposedAt + 4 * DAY_MS)).toEqual({ reminded: 0, expired: 0, meetingReminders: 0, feedbackReminders: 0 });
    clock.set(new Date(proposedAt + 5 * DAY_MS + 60_000));
    expect(await deadline(clock.now().getTime())).toEqual({ reminded: 1, expired: 0, meetingReminders: 0, feedbackReminders: 0 });
    expect(await deadline(clock.now().getTime())).toEqual({ reminded: 0, expired: 0, meetingReminders: 0, feedbackReminders: 0 });
    expect((await mailsTo(sarah.email)).map((m) => m.subject)).toContain('Rappel : une proposition attend votre réponse');
    expect((await mailsTo(bilal.email)).map((m) => m.subject)).not.toContain('Rappel : une proposition attend votre réponse');

    clock.set(new Date(proposedAt + 7 * DAY_MS + 60_000));
    expect(await deadline(clock.now().getTime())).toEqual({ reminded: 0, expired: 1, meetingReminders: 0, feedbackReminders: 0 });
    const [view] = (await mine(sarah)).filter((v) => v.id === intro.id);
    expect(view).toMatchObject({ state: 'expiree', contact: null });
    expect((await mailsTo(bilal.email)).map((m) => m.subject)).toContain('Une proposition a expiré');
    const late = await act(sarah, intro.id, { type: 'ACCEPT' });
    expect(late.status).toBe(409);
    expect((await errorOf(late)).state).toBe('expiree');

    const list = await staff.json<{ introductions: { id: string }[] }>(staff.get('/api/v1/dashboard/introductions?etat=expiree'));
    expect(list.introductions.map((i) => i.id)).toEqual([intro.id]);
    const badFilter = await staff.get('/api/v1/dashboard/introductions?etat=nimporte');
    expect(badFilter.status).toBe(400);

    // Re-opening needs a note, then starts a new round with its own deadline.
    expect((await staffAct(intro.id, { type: 'REOPEN', note: '  ' })).status).toBe(400);
    clock.advance(60_000);
    const reopened = await staffAct(intro.id, { type: 'REOPEN', note: 'Sarah a demandé à revoir ce profil.' });
    expect(reopened.status, await reopened.clone().text()).toBe(200);
    const reopenedDetail = (await staff.json<{ introduction: StaffDetail }>(reopened)).introduction;
    expect(reopenedDetail.state).toBe('proposee.attente-des-reponses');
    // The note is the introduction's, for staff; the append-only log keeps the event, not the text.
    expect(reopenedDetail.context.reopenNote).toBe('Sarah a demandé à revoir ce profil.');
    expect(reopenedDetail.events.at(-1)).toMatchObject({
      event: 'REOPEN',
      sentence: 'L’équipe a rouvert la mise en relation',
      payload: {},
    });
    const logged = await product.database.db.select().from(introductionEvents).where(eq(introductionEvents.introductionId, intro.id));
    expect(JSON.stringify(logged.map((e) => e.payload))).not.toContain('revoir');
    const open = await staff.json<{ introductions: { id: string }[] }>(staff.get('/api/v1/dashboard/introductions'));
    expect(open.introductions.map((i) => i.id)).toContain(intro.id);
  });

  it('match profiles follow the onboarding: written with each update; the refresh pass restores a missing one', async () => {
    const db = product.database.db;
    const profileRow = async (id: string) =>
      (
        (await db.execute(sql`SELECT available, unavailable_reason FROM match_profiles WHERE member_id = ${id}::uuid`)) as unknown as {
          rows: { available: boolean; unavailable_reason: string | null }[];
        }
      ).rows[0];

    // A member walking the wizard: the profil and questionnaire updates write an unavailable profile.
    const email = `nouvelle.${Date.now()}@example.fr`;
    const { id } = await ensureAccount(adminClient(product.auth), db, { email, password: 'bismillah-2026', kind: 'femme' });
    const agent = product.agent();
    expect((await agent.post('/api/v1/auth/signin', { email, password: 'bismillah-2026' })).status).toBe(200);
    const { profil, questionnaire } = samplePayloads({ id, email, gender: 'femme' }, clock.now().getTime());
    expect((await agent.post('/api/v1/user/update', profil)).status).toBe(200);
    expect(await profileRow(id)).toBeUndefined(); // no questionnaire yet: no profile
    expect((await agent.post('/api/v1/user/update', questionnaire)).status).toBe(200);
    expect(await profileRow(id)).toMatchObject({ available: false });
    expect((await profileRow(id))?.unavailable_reason).not.toBeNull();

    // An active member whose profile is missing (written before profiles existed) is restored by the pass.
    const hafsa = await activeMember('Hafsa', 'femme');
    await db.execute(sql`DELETE FROM match_profiles WHERE member_id = ${hafsa.id}::uuid`);
    expect(await refreshWaitingMatchProfiles(db, clock.now())).toBeGreaterThanOrEqual(1);
    expect(await profileRow(hafsa.id)).toMatchObject({ available: true, unavailable_reason: null });
    // The member still in the wizard stays out of the pool.
    expect(await profileRow(id)).toMatchObject({ available: false });
  });
});
