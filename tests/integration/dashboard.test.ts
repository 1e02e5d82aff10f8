import { and, eq, getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { directMessages } from '#bff/db/messages-schema.ts';
import { fakeClock } from '#bff/clock.ts';
import { mailOutbox, onboardingEvents } from '#bff/db/schema.ts';
import { readPayInFull } from '#bff/onboarding/plan-settings.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { signInStaff, type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import type { TestAgent, TestProduct } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** The product's clock: the onboarding meeting can only be marked held once it has started. */
const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

let n = 0;
async function newMember(tag = 'tableau', gender: 'homme' | 'femme' = 'femme') {
  n += 1;
  const agent = product.agent();
  const email = `${tag}.${String(n).padStart(3, '0')}.${Date.now()}@example.fr`;
  const response = await signUp(agent, { context: 'init', email, role: gender, password: 'bismillah-2026' });
  expect(response.status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id, email, gender };
}

type Member = Awaited<ReturnType<typeof newMember>>;

async function update(agent: TestAgent, body: unknown, expected = 200) {
  const response = await agent.post('/api/v1/user/update', body);
  const json = (await response.json()) as { state?: string; error: { code: string; state?: string } };
  expect(response.status, JSON.stringify(json)).toBe(expected);
  return json;
}

/** Walks a member through steps 1-5 as they would (nothing is paid before the contract: decision 105). Returns the meeting's start. */
async function toMeetingWait(member: Member): Promise<number> {
  const samples = samplePayloads(member, clock.now().getTime());
  for (const context of ['profil', 'questionnaire', 'form_per_inf', 'sel_plan', 'pre_contract_ok', 'onb_meet', 'onb_meet_resa'] as const)
    await update(member.agent, samples[context]);
  const settings = await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'));
  expect(settings.state).toBe('attente-entretien-personnalise');
  return Date.parse(samples.onb_meet.date);
}

const put = (agent: TestAgent, path: string, body: unknown) => agent.request('PUT', path, body);

describe('dashboard API: authorisation matrix', () => {
  it('answers every endpoint only to staff at aal2: anonymous 401, member 403, disabled member 403, staff aal1 403', async () => {
    const target = await newMember();
    const anonymous = product.agent();
    const member = await newMember();
    const disabled = await newMember();
    expect((await staff.agent.post('/api/v1/auth/ban', { disable: true, uid: disabled.id })).status).toBe(200);
    const staffAal1 = await signInStaff(product);
    // The disabled member's session was opened before the ban; the first refusal clears its cookies,
    // so each call starts again from that open session.
    const openSession = new Map(disabled.agent.cookies);

    const endpoints: [string, (agent: TestAgent) => Promise<Response>, number][] = [
      ['GET funnel', (a) => a.get('/api/v1/dashboard/funnel'), 200],
      ['GET members', (a) => a.get('/api/v1/dashboard/members?q=tableau&page=1&perPage=5'), 200],
      ['GET member', (a) => a.get(`/api/v1/dashboard/members/${target.id}`), 200],
      ['POST message', (a) => a.post(`/api/v1/dashboard/members/${target.id}/messages`, { subject: 'Bonjour', body: 'Un message.' }), 201],
      ['GET messages', (a) => a.get(`/api/v1/dashboard/messages?memberId=${target.id}`), 200],
      ['GET plans setting', (a) => a.get('/api/v1/dashboard/settings/plans'), 200],
      ['PUT plans setting', (a) => put(a, '/api/v1/dashboard/settings/plans', { payInFull: 'cashback' }), 200],
    ];
    const callers: [string, TestAgent, number, string][] = [
      ['anonymous', anonymous, 401, 'UNAUTHENTICATED'],
      ['member', member.agent, 403, 'FORBIDDEN'],
      ['disabled member', disabled.agent, 401, 'UNAUTHENTICATED'],
      ['staff aal1', staffAal1.agent, 403, 'MFA_REQUIRED'],
    ];
    for (const [endpoint, call, success] of endpoints) {
      for (const [who, agent, status, code] of callers) {
        if (agent === disabled.agent) for (const [k, value] of openSession) agent.cookies.set(k, value);
        const response = await call(agent);
        expect(response.status, `${endpoint} as ${who}`).toBe(status);
        expect(((await response.json()) as { error: { code: string } }).error.code, `${endpoint} as ${who}`).toBe(code);
      }
      const response = await call(staff.agent);
      expect(response.status, `${endpoint} as staff aal2: ${await response.clone().text()}`).toBe(success);
    }
    // Refused callers changed nothing: the only message is the staff one.
    const messages = await product.database.db.select().from(directMessages).where(eq(directMessages.memberId, target.id));
    expect(messages).toHaveLength(1);
  });
});

describe('staff transitions go through the chart', () => {
  it('offers only what the chart allows, refuses the rest with 409, and logs staff events with the staff id', async () => {
    const member = await newMember();
    // A new member: the matchmaking meeting and the onboarding meeting are not allowed now.
    const fresh = await staff.agent.json<{ actions: { id: string; allowed: boolean }[]; member: { state: string } }>(
      staff.agent.get(`/api/v1/dashboard/members/${member.id}`),
    );
    expect(fresh.member.state).toBe('profil');
    const allowedNow = (actions: { id: string; allowed: boolean }[]) =>
      actions
        .filter((a) => a.allowed)
        .map((a) => a.id)
        .sort();
    expect(allowedNow(fresh.actions)).toEqual(['disable', 'lmnop']);
    const refused = await update(staff.agent, { context: 'meeting_mm', uid: member.id }, 409);
    expect(refused.error.code).toBe('TRANSITION_REFUSED');
    expect(refused.error.state).toBe('profil');
    await update(staff.agent, { context: 'onb_meet_ok', status: true, uid: member.id }, 409);

    const meetingAt = await toMeetingWait(member);
    type Actions = { actions: { id: string; allowed: boolean; body: Record<string, unknown>; endpoint: string; reason: string | null }[] };
    // Before the meeting starts it cannot be marked held: the page says why, the server refuses with 409.
    const early = await staff.agent.json<Actions>(staff.agent.get(`/api/v1/dashboard/members/${member.id}`));
    expect(allowedNow(early.actions)).toEqual(['disable', 'lmnop', 'onb_meet_cancel']);
    const notYet = early.actions.find((a) => a.id === 'onb_meet_done');
    expect(notYet?.reason).toMatch(
      /^L’entretien est prévu le .+\s: il ne pourra être noté comme effectué qu’à partir de son heure de début\.$/,
    );
    const tooSoon = await update(staff.agent, notYet?.body, 409);
    expect(tooSoon.error).toMatchObject({ code: 'TRANSITION_REFUSED', state: 'attente-entretien-personnalise' });
    expect((tooSoon.error as { message?: string }).message).toContain('pas encore commencé');

    clock.set(new Date(meetingAt));
    const waiting = await staff.agent.json<Actions>(staff.agent.get(`/api/v1/dashboard/members/${member.id}`));
    expect(allowedNow(waiting.actions)).toEqual(['disable', 'lmnop', 'onb_meet_cancel', 'onb_meet_done', 'onb_meet_missed']);
    expect(waiting.actions.every((a) => a.reason === null)).toBe(true);
    const done = waiting.actions.find((a) => a.id === 'onb_meet_done');
    expect(done?.endpoint).toBe('/user/update');
    const applied = await update(staff.agent, done?.body);
    expect(applied.state).toBe('attente-contrat.formulaire-contrat');
    // Once done, the same transition is refused.
    await update(staff.agent, done?.body, 409);

    const [event] = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(and(eq(onboardingEvents.memberId, member.id), eq(onboardingEvents.context, 'onb_meet_ok')));
    expect(event?.actorId).toBe(staff.id);
    expect(event?.actorRole).toBe('staff');
    expect(event?.fromState).toBe('attente-entretien-personnalise');

    const detail = await staff.agent.json<{
      member: { state: string };
      events: {
        context: string;
        actorEmail: string | null;
        actorName: string | null;
        actorRole: string;
        at: string;
        outcome: boolean | null;
        planId: string | null;
      }[];
      payments: { offerId: string; paymentStatus: string }[];
      profile: { firstName: string } | null;
      questionnaire: Record<string, unknown> | null;
    }>(staff.agent.get(`/api/v1/dashboard/members/${member.id}`));
    expect(detail.member.state).toBe('attente-contrat.formulaire-contrat');
    expect(detail.events.map((e) => e.context)).toEqual([
      'profil',
      'questionnaire',
      'form_per_inf',
      'sel_plan',
      'pre_contract_ok',
      'onb_meet',
      'onb_meet_resa',
      'onb_meet_ok',
    ]);
    expect(detail.events.at(-1)).toMatchObject({ actorEmail: staff.email, actorRole: 'staff', outcome: true, planId: null });
    // The history names the staff member (issue 21) and the chosen plan, from the logged payload.
    expect(detail.events.at(-1)).toMatchObject({ actorName: expect.stringMatching(/^Équipe /) });
    expect(detail.events.find((e) => e.context === 'sel_plan')).toMatchObject({ planId: expect.stringMatching(/^plan_/), outcome: null });
    expect(detail.events[0]).toMatchObject({ actorName: null });
    expect(detail.events[0]).toMatchObject({ actorEmail: member.email, actorRole: 'member' });
    // Nothing is paid before the contract (decision 105).
    expect(detail.payments).toEqual([]);
    expect(detail.profile?.firstName).toBe('Amina');
    expect(detail.questionnaire).not.toBeNull();
    // The member's own wizard moved on.
    expect((await member.agent.json<{ state: string }>(member.agent.get('/api/v1/user/settings'))).state).toBe(
      'attente-contrat.formulaire-contrat',
    );
  });

  it('the ban: disabling ends the member’s open session; the chart then only offers re-enabling', async () => {
    const member = await newMember();
    expect((await member.agent.get('/api/v1/user/settings')).status).toBe(200);
    expect((await staff.agent.post('/api/v1/auth/ban', { disable: true, uid: member.id })).status).toBe(200);
    expect((await member.agent.get('/api/v1/user/settings')).status).toBe(401);
    const detail = await staff.agent.json<{
      member: { state: string; disabled: boolean };
      actions: { id: string; allowed: boolean }[];
      events: { context: string; actorName: string | null; outcome: boolean | null }[];
    }>(staff.agent.get(`/api/v1/dashboard/members/${member.id}`));
    expect(detail.member).toMatchObject({ state: 'desactive', disabled: true });
    expect(detail.actions.filter((a) => a.allowed).map((a) => a.id)).toEqual(['enable']);
    // The history's details (issue 21): the staff member's name and the payload's boolean.
    expect(detail.events.at(-1)).toMatchObject({ context: 'ban', actorName: expect.stringMatching(/^Équipe /), outcome: true });
    await update(staff.agent, { context: 'lmnop', uid: member.id }, 409);
  });

  it('answers 404 for an unknown member and 400 for a malformed id', async () => {
    expect((await staff.agent.get('/api/v1/dashboard/members/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await staff.agent.get('/api/v1/dashboard/members/pas-un-id')).status).toBe(400);
    expect((await staff.agent.get(`/api/v1/dashboard/members/${staff.id}`)).status).toBe(404);
  });
});

describe('direct messages', () => {
  it('has the table its drizzle schema declares (migration 0005)', async () => {
    const rows = await product.database.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'direct_messages'",
    );
    const declared = Object.values(getTableColumns(directMessages)).map((c) => c.name);
    expect(rows.map((r) => r.column_name).sort()).toEqual(declared.sort());
  });

  it('are announced by mail in the same transaction and readable by their member only', async () => {
    const member = await newMember();
    const other = await newMember();
    const sent = await staff.agent.post(`/api/v1/dashboard/members/${member.id}/messages`, {
      subject: 'Votre dossier',
      body: 'Bonjour, votre entretien est confirmé.',
    });
    expect(sent.status).toBe(201);
    // Besides the sign-up's confirmation (decision 187) and welcome (decision 111) mails.
    const mails = (await product.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, member.email))).filter(
      (m) => m.kind !== 'agency-welcome' && !m.kind.startsWith('auth-'),
    );
    // A notice only (decision 121): neither the subject nor the body travels by mail.
    expect(mails).toEqual([
      expect.objectContaining({ subject: 'Un nouveau message vous attend dans votre espace', kind: 'message-notice-member' }),
    ]);
    expect(mails[0]?.textBody).not.toContain('votre entretien est confirmé');
    expect(mails[0]?.textBody).not.toContain('Votre dossier');

    const mine = await member.agent.json<{ messages: { subject: string; body: string }[] }>(member.agent.get('/api/v1/user/messages'));
    expect(mine.messages).toEqual([expect.objectContaining({ subject: 'Votre dossier', body: 'Bonjour, votre entretien est confirmé.' })]);
    expect((await other.agent.json<{ messages: unknown[] }>(other.agent.get('/api/v1/user/messages'))).messages).toEqual([]);
    expect((await product.agent().get('/api/v1/user/messages')).status).toBe(401);

    const history = await staff.agent.json<{ messages: { memberId: string; authorEmail: string }[] }>(
      staff.agent.get(`/api/v1/dashboard/messages?memberId=${member.id}`),
    );
    expect(history.messages).toEqual([expect.objectContaining({ memberId: member.id, authorEmail: staff.email })]);
    expect(
      (await staff.agent.json<{ messages: unknown[] }>(staff.agent.get(`/api/v1/dashboard/messages?memberId=${other.id}`))).messages,
    ).toEqual([]);
  });

  it('refuses an empty message or an unknown member without queuing any mail', async () => {
    const target = await newMember();
    const before = (await product.database.db.select().from(mailOutbox)).length;
    const empty = await staff.agent.post(`/api/v1/dashboard/members/${target.id}/messages`, { body: '   ' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.issues[0].path).toBe('body');
    const unknown = await staff.agent.post('/api/v1/dashboard/members/00000000-0000-4000-8000-000000000000/messages', { body: 'Bonjour' });
    expect(unknown.status).toBe(404);
    expect((await product.database.db.select().from(mailOutbox)).length).toBe(before);
  });
});

describe('member list: search, step filter, sorting, paging', () => {
  it('searches by e-mail or name, filters by step, sorts and pages', async () => {
    const tag = `liste${Date.now()}`;
    const created: Member[] = [];
    // A member's creation is dated by the agency's clock, here a test clock that only moves when
    // told: one second between registrations, as between people.
    for (let i = 0; i < 5; i += 1) {
      clock.advance(1000);
      created.push(await newMember(tag, i % 2 === 0 ? 'femme' : 'homme'));
    }
    // Two of them saved their profile (name Amina Benali): step 2.
    for (const m of created.slice(0, 2)) await update(m.agent, samplePayloads(m, Date.now()).profil);

    type Page = {
      items: { id: string; email: string; top: string; name: string | null }[];
      total: number;
      pageCount: number;
      page: number;
    };
    const list = (query: string) => staff.agent.json<Page>(staff.agent.get(`/api/v1/dashboard/members?${query}`));

    const all = await list(`q=${tag}&sort=email&perPage=100`);
    expect(all.total).toBe(5);
    expect(all.items.map((m) => m.email)).toEqual(created.map((m) => m.email).sort());
    const desc = await list(`q=${tag.toUpperCase()}&sort=email&dir=desc&perPage=100`);
    expect(desc.items.map((m) => m.email)).toEqual(
      created
        .map((m) => m.email)
        .sort()
        .reverse(),
    );

    const pages: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const p = await list(`q=${tag}&sort=created&dir=asc&perPage=2&page=${page}`);
      expect(p).toMatchObject({ total: 5, pageCount: 3, page });
      pages.push(...p.items.map((m) => m.id));
    }
    expect(pages).toEqual(created.map((m) => m.id));
    expect((await list(`q=${tag}&perPage=2&page=4`)).items).toEqual([]);

    const atStep2 = await list(`q=${tag}&step=questionnaire-profil`);
    expect(atStep2.items.map((m) => m.id).sort()).toEqual(
      created
        .slice(0, 2)
        .map((m) => m.id)
        .sort(),
    );
    expect(atStep2.items.every((m) => m.name === 'Amina Benali' && m.top === 'questionnaire-profil')).toBe(true);
    expect((await list(`q=${tag}&step=profil`)).total).toBe(3);

    const byName = await list('q=benali&perPage=100');
    expect(byName.items.map((m) => m.id)).toEqual(expect.arrayContaining(created.slice(0, 2).map((m) => m.id)));
    expect(byName.items.some((m) => m.id === created[2]?.id)).toBe(false);
    expect((await list('q=personne-introuvable-%25_')).total).toBe(0);
  });

  it('validates the query', async () => {
    for (const query of ['perPage=1000', 'page=0', 'step=inconnue', 'sort=taille', 'page=abc', 'gender=autre', 'ageMin=17']) {
      const response = await staff.agent.get(`/api/v1/dashboard/members?${query}`);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('funnel and plan setting', () => {
  it('counts members per step and those waiting on staff', async () => {
    const before = await staff.agent.json<{
      total: number;
      steps: { id: string; count: number }[];
      waitingOnStaff: { onboardingMeeting: number; total: number };
    }>(staff.agent.get('/api/v1/dashboard/funnel'));
    const waiting = await newMember();
    await toMeetingWait(waiting);
    const after = await staff.agent.json<typeof before>(staff.agent.get('/api/v1/dashboard/funnel'));
    expect(after.total).toBe(before.total + 1);
    const count = (f: typeof before, id: string) => f.steps.find((s) => s.id === id)?.count ?? 0;
    expect(count(after, 'attente-entretien-personnalise')).toBe(count(before, 'attente-entretien-personnalise') + 1);
    expect(after.waitingOnStaff.onboardingMeeting).toBe(before.waitingOnStaff.onboardingMeeting + 1);
    expect(after.steps.reduce((sum, s) => sum + s.count, 0)).toBe(after.total);
  });

  it('reads and changes which pay-in-full plans are active', async () => {
    const set = await put(staff.agent, '/api/v1/dashboard/settings/plans', { payInFull: 'cash' });
    expect(set.status).toBe(200);
    expect(await readPayInFull(product.database.db)).toBe('cash');
    const read = await staff.agent.json<{ payInFull: string; plans: { id: string; type: string }[] }>(
      staff.agent.get('/api/v1/dashboard/settings/plans'),
    );
    expect(read.payInFull).toBe('cash');
    expect(read.plans.map((p) => p.type).sort()).toEqual(['cash', 'cash', 'monthly', 'monthly']);
    expect((await put(staff.agent, '/api/v1/dashboard/settings/plans', { payInFull: 'gratuit' })).status).toBe(400);
    expect((await put(staff.agent, '/api/v1/dashboard/settings/plans', { payInFull: 'cashback' })).status).toBe(200);
    expect(await readPayInFull(product.database.db)).toBe('cashback');
  });
});
