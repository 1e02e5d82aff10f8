import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { memberChangeRequests } from '#bff/db/change-requests-schema.ts';
import { mailOutbox, members, onboardingEvents } from '#bff/db/schema.ts';
import { type ActiveMember, activeMember } from '#tests/support/active-member.ts';
import { walkOnboarding } from '#tests/support/onboarding-walk.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * « Mon profil » over HTTP (issue 21, decision 123): before signature the member edits steps 1-2
 * directly (same schemas, one transaction, logged, the chart does not move); after signature a
 * direct edit is refused (409) and a change request goes to staff, who apply or decline it.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: Awaited<ReturnType<typeof signInStaff>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
  staff = await signInStaff(product);
  // The TOTP is computed on the real time: the product's clock is brought to it after the slow start.
  clock.set(new Date());
  await staff.passTotp();
}, 120_000);
afterAll(() => product.stop());

type Answers = {
  editable: boolean;
  signed: boolean;
  profile: Record<string, unknown> | null;
  questionnaire: Record<string, unknown> | null;
  changeRequests: {
    id: number;
    section: string;
    status: string;
    note: string;
    decisionNote: string;
    changes: { field: string; old: unknown; new: unknown }[];
  }[];
};
type ApiError = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };

let n = 0;
async function newMember() {
  n += 1;
  const agent = product.agent();
  const email = `mon-profil.${n}.${Date.now()}@example.fr`;
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  expect(created.status).toBe(201);
  const settings = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id: settings.id, email, gender: 'femme' as const };
}

const answers = (agent: TestAgent) => agent.json<Answers>(agent.get('/api/v1/user/answers'));
const stateOf = async (agent: TestAgent) => (await agent.json<{ state: string }>(agent.get('/api/v1/user/settings'))).state;
const editable = ({ sensitiveDataConsent: _c, ...rest }: Record<string, unknown>) => rest;
/** The notices « your change request was answered » queued for an address (decision 127). */
async function answeredMails(to: string) {
  return product.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, to), eq(mailOutbox.kind, 'change-request-answered')))
    .orderBy(mailOutbox.id);
}

async function eventsOf(memberId: string) {
  return product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, memberId)).orderBy(onboardingEvents.id);
}
async function rowOf(memberId: string) {
  const [row] = await product.database.db.select().from(members).where(eq(members.id, memberId));
  return row;
}

describe('before the contract is signed: direct edits', () => {
  it('the member corrects step 1 and step 2 from « Mon profil »: validated, written, logged, the chart stays where it is', async () => {
    const member = await newMember();
    await walkOnboarding({ member, staff, clock, until: 'form_per_inf' });
    const before = await answers(member.agent);
    expect(before.editable).toBe(true);
    expect(before.signed).toBe(false);
    const state = await stateOf(member.agent);
    expect(state).toBe('formules');
    const profile = editable(before.profile ?? {});
    const eventsBefore = (await eventsOf(member.id)).length;

    expect(profile.city).not.toBe('Roubaix');
    const put = await member.agent.request('PUT', '/api/v1/user/answers', {
      section: 'profil',
      ...profile,
      city: 'Roubaix',
      postcode: '59100',
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ section: 'profil', changed: ['postcode', 'city'] });

    const after = await answers(member.agent);
    expect(after.profile).toMatchObject({ city: 'Roubaix', postcode: '59100', sensitiveDataConsent: true });
    expect(await stateOf(member.agent)).toBe(state);
    const events = await eventsOf(member.id);
    expect(events).toHaveLength(eventsBefore + 1);
    const logged = events.at(-1);
    expect(logged).toMatchObject({
      context: 'profil_edit',
      fromState: 'formules',
      toState: 'formules',
      actorRole: 'member',
      actorId: member.id,
    });
    // The log names the fields, never the answers.
    expect(logged?.payload).toEqual({ context: 'profil_edit', fields: ['postcode', 'city'] });

    const questionnaire = before.questionnaire ?? {};
    expect(questionnaire.soughtAgeMax).not.toBe(45);
    const q = await member.agent.request('PUT', '/api/v1/user/answers', { section: 'questionnaire', ...questionnaire, soughtAgeMax: 45 });
    expect(q.status).toBe(200);
    expect((await answers(member.agent)).questionnaire).toMatchObject({ soughtAgeMax: 45 });
    expect((await eventsOf(member.id)).at(-1)?.context).toBe('questionnaire_edit');

    // The same answers again: nothing to write, nothing logged.
    const same = await member.agent.request('PUT', '/api/v1/user/answers', {
      section: 'questionnaire',
      ...questionnaire,
      soughtAgeMax: 45,
    });
    expect(await same.json()).toEqual({ section: 'questionnaire', changed: [] });
    expect(await eventsOf(member.id)).toHaveLength(eventsBefore + 2);
  });

  it('bad input is a French 400 that changes nothing; a change request is not needed yet (409)', async () => {
    const member = await newMember();
    await walkOnboarding({ member, staff, clock, until: 'form_per_inf' });
    const before = await answers(member.agent);
    const count = (await eventsOf(member.id)).length;
    const version = (await rowOf(member.id))?.version;
    const profile = editable(before.profile ?? {});
    const cases: [unknown, string][] = [
      [{ section: 'profil', ...profile, postcode: '123' }, 'Code postal invalide (5 chiffres)'],
      [{ section: 'profil', ...profile, birthDate: '2020-01-01' }, 'Vous devez être majeur(e) pour vous inscrire'],
      [
        { section: 'questionnaire', ...before.questionnaire, soughtAgeMin: 50, soughtAgeMax: 30 },
        'L’âge maximum doit être supérieur ou égal à l’âge minimum',
      ],
      [{ section: 'profil', ...profile, role: 'staff' }, ''],
      [{ section: 'contrat', fullName: 'X' }, 'Rubrique invalide'],
      [[], 'Rubrique invalide'],
    ];
    for (const [body, message] of cases) {
      const response = await member.agent.request('PUT', '/api/v1/user/answers', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { error } = (await response.json()) as ApiError;
      expect(error.code).toBe('VALIDATION_FAILED');
      if (message) expect(JSON.stringify(error.issues)).toContain(message);
    }
    const early = await member.agent.post('/api/v1/user/change-requests', { section: 'profil', ...profile, city: 'Lille', note: '' });
    expect(early.status).toBe(409);
    expect(((await early.json()) as ApiError).error).toMatchObject({ code: 'DIRECT_EDIT_AVAILABLE' });
    expect((await answers(member.agent)).profile).toEqual(before.profile);
    expect(await eventsOf(member.id)).toHaveLength(count);
    expect((await rowOf(member.id))?.version).toBe(version);
  });

  it('a step not yet done is filled in the wizard, not here (409); staff have no « Mon profil » (403)', async () => {
    const member = await newMember();
    const response = await member.agent.request('PUT', '/api/v1/user/answers', { section: 'profil', firstName: 'Amina' });
    expect(response.status).toBe(400);
    const full = {
      section: 'profil',
      firstName: 'Amina',
      lastName: 'Benali',
      birthDate: '1995-04-17',
      phone: '0612345678',
      postcode: '75011',
      city: 'Paris',
      maritalStatus: 'celibataire',
      childrenCount: 0,
      profession: 'Infirmière',
      prayerPractice: 'reguliere',
      practiceDetails: '',
    };
    const notYet = await member.agent.request('PUT', '/api/v1/user/answers', full);
    expect(notYet.status).toBe(409);
    expect(((await notYet.json()) as ApiError).error.code).toBe('STEP_NOT_DONE');
    expect((await rowOf(member.id))?.profile).toBeNull();
    expect((await staff.agent.request('PUT', '/api/v1/user/answers', full)).status).toBe(403);
  });
});

describe('after signature: change requests, applied or declined by staff', () => {
  let amina: ActiveMember;
  let youssef: ActiveMember;
  beforeAll(async () => {
    amina = await activeMember(product, clock, 'Amina', 'femme', 29);
    youssef = await activeMember(product, clock, 'Youssef', 'homme', 32);
  }, 120_000);

  it('a direct edit is refused in French (409) and changes nothing', async () => {
    const before = await answers(amina.agent);
    expect(before).toMatchObject({ editable: false, signed: true });
    const count = (await eventsOf(amina.id)).length;
    const response = await amina.agent.request('PUT', '/api/v1/user/answers', {
      section: 'profil',
      ...editable(before.profile ?? {}),
      city: 'Lyon',
    });
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as ApiError;
    expect(error.code).toBe('CHANGE_REQUEST_REQUIRED');
    expect(error.message).toContain('Votre contrat est signé');
    expect((await answers(amina.agent)).profile).toEqual(before.profile);
    expect(await eventsOf(amina.id)).toHaveLength(count);
  });

  it('a change request stores what changes (old → new) and the note, is logged, and is the member’s own', async () => {
    const before = await answers(amina.agent);
    const response = await amina.agent.post('/api/v1/user/change-requests', {
      section: 'profil',
      ...editable(before.profile ?? {}),
      city: 'Lyon',
      postcode: '69003',
      note: 'J’ai déménagé le mois dernier.',
    });
    expect(response.status).toBe(201);
    const { request } = (await response.json()) as { request: Answers['changeRequests'][number] };
    expect(request).toMatchObject({
      section: 'profil',
      status: 'pending',
      note: 'J’ai déménagé le mois dernier.',
      changes: [
        { field: 'postcode', old: '75011', new: '69003' },
        { field: 'city', old: 'Paris', new: 'Lyon' },
      ],
    });
    // Not applied yet.
    expect((await answers(amina.agent)).profile).toMatchObject({ city: 'Paris' });
    const logged = (await eventsOf(amina.id)).at(-1);
    expect(logged).toMatchObject({ context: 'change_request', fromState: 'membre-actif', toState: 'membre-actif', actorRole: 'member' });
    expect(logged?.payload).toEqual({ context: 'change_request', section: 'profil', requestId: request.id, fields: ['postcode', 'city'] });

    // One pending request per section.
    const again = await amina.agent.post('/api/v1/user/change-requests', {
      section: 'profil',
      ...editable(before.profile ?? {}),
      city: 'Lille',
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ApiError).error.code).toBe('CHANGE_REQUEST_PENDING');
    // Nothing to change: 400.
    const none = await amina.agent.post('/api/v1/user/change-requests', { section: 'questionnaire', ...before.questionnaire });
    const noneBody = await none.text();
    expect(none.status, noneBody).toBe(400);
    expect((JSON.parse(noneBody) as ApiError).error.code, noneBody).toBe('NO_CHANGE');

    // Another member sees none of it; staff see it on Amina's file.
    expect((await answers(youssef.agent)).changeRequests).toEqual([]);
    const listed = await staff.agent.json<{ requests: { id: number }[] }>(
      staff.agent.get(`/api/v1/dashboard/members/${amina.id}/change-requests`),
    );
    expect(listed.requests.map((r) => r.id)).toEqual([request.id]);
    // A member cannot decide their own request.
    expect((await amina.agent.post(`/api/v1/dashboard/change-requests/${request.id}`, { decision: 'apply' })).status).toBe(403);
  });

  it('staff apply it: the answers change, the request says so, the log names the staff member', async () => {
    const [pending] = (await answers(amina.agent)).changeRequests;
    if (!pending) throw new Error('no request');
    const bad = await staff.agent.post(`/api/v1/dashboard/change-requests/${pending.id}`, { decision: 'oui' });
    expect(bad.status).toBe(400);
    // Neither the request nor a refused decision sends the member anything.
    expect(await answeredMails(amina.email)).toEqual([]);
    const applied = await staff.agent.post(`/api/v1/dashboard/change-requests/${pending.id}`, { decision: 'apply' });
    expect(applied.status).toBe(200);
    const after = await answers(amina.agent);
    expect(after.profile).toMatchObject({ city: 'Lyon', postcode: '69003', sensitiveDataConsent: true });
    expect(after.changeRequests[0]).toMatchObject({ id: pending.id, status: 'applied' });
    const logged = (await eventsOf(amina.id)).at(-1);
    expect(logged).toMatchObject({
      context: 'change_request_applied',
      actorRole: 'staff',
      fromState: 'membre-actif',
      toState: 'membre-actif',
    });
    const twice = await staff.agent.post(`/api/v1/dashboard/change-requests/${pending.id}`, { decision: 'decline' });
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as ApiError).error.code).toBe('CHANGE_REQUEST_DECIDED');
    // One French notice, queued with the decision: answered, read it on « Mon profil »; no content.
    const mails = await answeredMails(amina.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe('Votre demande de modification a reçu une réponse');
    expect(mail?.textBody).toContain('Bonjour Amina,');
    expect(mail?.textBody).toContain('/mon-compte/mon-profil');
    expect(mail?.textBody).not.toContain('Lyon');
    expect(mail?.textBody).not.toContain('69003');
    expect(mail?.textBody).not.toContain('déménagé');
    expect((await staff.agent.post('/api/v1/dashboard/change-requests/999999', { decision: 'apply' })).status).toBe(404);
  });

  it('staff decline one: nothing changes, the member reads the status and the reason', async () => {
    const before = await answers(amina.agent);
    const created = await amina.agent.post('/api/v1/user/change-requests', {
      section: 'questionnaire',
      ...before.questionnaire,
      soughtAgeMax: 40,
      note: 'Je préfère finalement un écart d’âge plus faible.',
    });
    expect(created.status).toBe(201);
    const { request } = (await created.json()) as { request: { id: number } };
    const declined = await staff.agent.post(`/api/v1/dashboard/change-requests/${request.id}`, {
      decision: 'decline',
      note: 'Nous en parlerons lors de votre prochain entretien.',
    });
    expect(declined.status).toBe(200);
    const after = await answers(amina.agent);
    expect(after.questionnaire).toEqual(before.questionnaire);
    expect(after.changeRequests[0]).toMatchObject({
      id: request.id,
      status: 'declined',
      decisionNote: 'Nous en parlerons lors de votre prochain entretien.',
    });
    expect((await eventsOf(amina.id)).at(-1)).toMatchObject({ context: 'change_request_declined', actorRole: 'staff' });
    // A refusal is announced too, without the staff's reason.
    const mails = await answeredMails(amina.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.textBody).toContain('/mon-compte/mon-profil');
    expect(mails[1]?.textBody).not.toContain('prochain entretien');
    expect(mails[1]?.htmlBody).not.toContain('prochain entretien');
    const rows = await product.database.db
      .select()
      .from(memberChangeRequests)
      .where(and(eq(memberChangeRequests.memberId, amina.id), eq(memberChangeRequests.status, 'pending')));
    expect(rows).toEqual([]);
  });
});
