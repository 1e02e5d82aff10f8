import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { contactMessages, leadEvents, leadFollowUps, leadNotes } from '#bff/db/leads-schema.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { runRetention } from '#bff/retention/retention-job.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
import { signUp as register } from '#tests/support/sign-up.ts';

/** The leads inbox (issue 21, decision 112), over HTTP: a visitor writes, staff follow up. */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let staffId: string;
beforeAll(async () => {
  product = await startTestProduct({ clock });
  staff = await signInStaff(product);
  await staff.passTotp();
  staffId = (await staff.agent.json<{ id: string }>(staff.agent.get('/api/v1/user/settings'))).id;
});
afterAll(() => product.stop());

type LeadItem = {
  id: string;
  kind: string;
  name: string | null;
  email: string;
  createdAt: string;
  status: string;
  assignee: { id: string; name: string } | null;
  followUpOn: string | null;
  member: { id: string } | null;
  details: Record<string, unknown>;
  notes: { body: string; author: string; at: string }[];
};
type LeadList = { items: LeadItem[]; total: number; staff: { id: string; name: string; self: boolean }[] };

const tick = () => clock.set(new Date(clock.now().getTime() + 60_000));
const patch = (agent: TestAgent, id: string, body: unknown) => agent.request('PATCH', `/api/v1/dashboard/leads/${id}`, body);
const list = (query = '') => staff.agent.json<LeadList>(staff.agent.get(`/api/v1/dashboard/leads${query}`));

async function preRegister(email: string) {
  tick();
  const response = await product
    .agent()
    .post('/api/v1/subscription/pre-subscription', { gender: 'femme', email, age: 29, zip_code: '69003', city: 'Lyon', consent: true });
  expect(response.status).toBe(201);
  const [row] = (await response.json()) as { id: string }[];
  return row?.id as string;
}

async function contact(name: string, email: string, message: string) {
  tick();
  const response = await product.agent().post('/api/v1/contact', { name, email, subject: 'Mon inscription', message, consent: true });
  expect(response.status).toBe(201);
}

describe('leads inbox', () => {
  it('stores a contact message (and still mails it), and lists it with pre-registrations, newest first', async () => {
    const preId = await preRegister('prospect.lyon@example.fr');
    await contact('Khadija Benali', 'khadija@example.fr', 'Bonjour, je voudrais des renseignements sur les formules.');
    const [stored] = await product.database.db.select().from(contactMessages).where(eq(contactMessages.email, 'khadija@example.fr'));
    expect(stored?.name).toBe('Khadija Benali');
    expect(stored?.message).toContain('renseignements');
    const mails = await product.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'contact'));
    expect(mails.some((m) => m.textBody.includes('khadija@example.fr'))).toBe(true);

    const { items, total, staff: team } = await list();
    expect(total).toBe(2);
    expect(items.map((i) => i.kind)).toEqual(['contact', 'pre_subscription']);
    expect(items[0]).toMatchObject({
      name: 'Khadija Benali',
      email: 'khadija@example.fr',
      status: 'nouveau',
      assignee: null,
      followUpOn: null,
    });
    expect(items[0]?.details).toMatchObject({ subject: 'Mon inscription' });
    expect(items[1]).toMatchObject({ id: preId, email: 'prospect.lyon@example.fr', status: 'nouveau', member: null });
    expect(items[1]?.details).toMatchObject({ city: 'Lyon', zipCode: '69003', age: 29 });
    expect(team.find((s) => s.self)?.id).toBe(staffId);
  });

  it('changes status, assigns, sets a follow-up date, adds notes; logs each change with who and when; filters and searches', async () => {
    await contact('Yacine Haddad', 'yacine@example.fr', 'Je souhaite prendre rendez-vous pour un entretien.');
    const lead = (await list('?q=yacine')).items[0] as LeadItem;
    expect(lead.name).toBe('Yacine Haddad');

    let response = await patch(staff.agent, lead.id, { status: 'contacte', assigneeId: staffId, followUpOn: '2026-12-03' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { changed: string[] }).changed.sort()).toEqual(['assignee', 'follow_up', 'status']);
    // The same change again changes nothing and logs nothing.
    response = await patch(staff.agent, lead.id, { status: 'contacte' });
    expect(((await response.json()) as { changed: string[] }).changed).toEqual([]);

    tick();
    response = await staff.agent.post(`/api/v1/dashboard/leads/${lead.id}/notes`, { body: '  Rappelée le 25 : rappeler après le 3.  ' });
    expect(response.status).toBe(201);
    tick();
    expect((await staff.agent.post(`/api/v1/dashboard/leads/${lead.id}/notes`, { body: 'Seconde note.' })).status).toBe(201);

    const updated = (await list('?q=yacine')).items[0] as LeadItem;
    expect(updated).toMatchObject({ status: 'contacte', assignee: { id: staffId }, followUpOn: '2026-12-03' });
    expect(updated.notes.map((n) => n.body)).toEqual(['Rappelée le 25 : rappeler après le 3.', 'Seconde note.']);
    expect(updated.notes[0]?.author).toBeTruthy();

    // Filters: status, assignee (someone / nobody), kind; search on the message.
    expect((await list('?status=contacte')).items.map((i) => i.id)).toEqual([lead.id]);
    expect((await list(`?assignee=${staffId}`)).items.map((i) => i.id)).toEqual([lead.id]);
    expect((await list('?assignee=aucun')).items.some((i) => i.id === lead.id)).toBe(false);
    expect((await list('?status=nouveau&kind=contact')).items.every((i) => i.kind === 'contact' && i.status === 'nouveau')).toBe(true);
    expect((await list('?q=RENDEZ-VOUS')).items.map((i) => i.id)).toEqual([lead.id]);
    expect((await list('?q=personne-ici')).total).toBe(0);

    // History: who and when, newest first; the stored rows are append-only notes.
    const history = await staff.agent.json<{
      events: { field: string; from: string | null; to: string | null; actor: string; at: string; toName: string | null }[];
    }>(staff.agent.get(`/api/v1/dashboard/leads/${lead.id}/history`));
    expect(history.events.slice(0, 2).map((e) => e.field)).toEqual(['note', 'note']);
    expect(
      history.events
        .slice(2)
        .map((e) => e.field)
        .sort(),
    ).toEqual(['assignee', 'follow_up', 'status']);
    expect(history.events.find((e) => e.field === 'status')).toMatchObject({ from: 'nouveau', to: 'contacte' });
    expect(history.events.find((e) => e.field === 'assignee')?.toName).toBeTruthy();
    const rows = await product.database.db.select().from(leadEvents).where(eq(leadEvents.leadId, lead.id));
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.actorId === staffId)).toBe(true);
    expect(await product.database.db.select().from(leadNotes).where(eq(leadNotes.leadId, lead.id))).toHaveLength(2);

    // Clearing the assignee and the date.
    expect((await patch(staff.agent, lead.id, { assigneeId: null, followUpOn: null })).status).toBe(200);
    expect((await list('?q=yacine')).items[0]).toMatchObject({ assignee: null, followUpOn: null });
  });

  it('refuses bad input with a French 4xx, never a 500', async () => {
    const lead = (await list()).items[0] as LeadItem;
    const cases: [string, () => Promise<Response>, number, string][] = [
      ['unknown status', () => patch(staff.agent, lead.id, { status: 'gagne' }), 400, 'Statut inconnu'],
      ['empty change', () => patch(staff.agent, lead.id, {}), 400, 'Rien à modifier'],
      ['impossible date', () => patch(staff.agent, lead.id, { followUpOn: '2026-02-31' }), 400, 'Cette date n’existe pas'],
      ['not staff', () => patch(staff.agent, lead.id, { assigneeId: '00000000-0000-4000-8000-000000000000' }), 422, 'équipe'],
      ['bad id', () => patch(staff.agent, 'pas-un-id', { status: 'contacte' }), 400, 'Identifiant invalide'],
      [
        'unknown lead',
        () => patch(staff.agent, '00000000-0000-4000-8000-000000000000', { status: 'contacte' }),
        404,
        'Prospect introuvable',
      ],
      ['empty note', () => staff.agent.post(`/api/v1/dashboard/leads/${lead.id}/notes`, { body: '   ' }), 400, 'Écrivez la note'],
      [
        'long note',
        () => staff.agent.post(`/api/v1/dashboard/leads/${lead.id}/notes`, { body: 'x'.repeat(2001) }),
        400,
        'Note trop longue',
      ],
      ['bad filter', () => staff.agent.get('/api/v1/dashboard/leads?status=gagne'), 400, 'Statut inconnu'],
      ['bad assignee filter', () => staff.agent.get('/api/v1/dashboard/leads?assignee=moi'), 400, 'Personne en charge inconnue'],
    ];
    for (const [name, call, status, message] of cases) {
      const response = await call();
      expect(response.status, name).toBe(status);
      expect(JSON.stringify(await response.json()), name).toContain(message);
    }
  });

  it('links a pre-registration to the member account opened with its address: converti, counted in the funnel', async () => {
    const before = await staff.agent.json<{ prospects: number; accounts: number; activeMembers: number }>(
      staff.agent.get('/api/v1/dashboard/leads-funnel'),
    );
    const email = `Futur.Membre.${Date.now()}@example.fr`;
    const id = await preRegister(email);
    const middle = await staff.agent.json<typeof before>(staff.agent.get('/api/v1/dashboard/leads-funnel'));
    expect(middle).toEqual({ ...before, prospects: before.prospects + 1 });
    expect((await patch(staff.agent, id, { status: 'contacte' })).status).toBe(200);

    const agent = product.agent();
    const created = await register(agent, {
      context: 'init',
      email: email.toLowerCase(),
      role: 'femme',
      password: 'bismillah-2026',
    });
    expect(created.status).toBe(201);
    const memberId = (await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'))).id;

    const lead = (await list(`?q=${encodeURIComponent(email.toLowerCase())}`)).items[0] as LeadItem;
    expect(lead).toMatchObject({ id, status: 'converti', member: { id: memberId } });
    expect((await list('?status=converti')).items.map((i) => i.id)).toContain(id);
    const after = await staff.agent.json<typeof before>(staff.agent.get('/api/v1/dashboard/leads-funnel'));
    expect(after).toEqual({ prospects: before.prospects + 1, accounts: before.accounts + 1, activeMembers: before.activeMembers });
    // Its status stays converti.
    const refused = await patch(staff.agent, id, { status: 'sans_suite' });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain('Converti');
  });

  it('answers only staff at aal2: anonymous 401, member 403, staff aal1 403, and changes nothing', async () => {
    const lead = (await list()).items[0] as LeadItem;
    const memberAgent = product.agent();
    await register(memberAgent, {
      context: 'init',
      email: `membre.${Date.now()}@example.fr`,
      role: 'homme',
      password: 'bismillah-2026',
    });
    const staffAal1 = await signInStaff(product);
    const callers: [string, TestAgent, number][] = [
      ['anonymous', product.agent(), 401],
      ['member', memberAgent, 403],
      ['staff aal1', staffAal1.agent, 403],
    ];
    for (const [who, agent, status] of callers) {
      expect((await agent.get('/api/v1/dashboard/leads')).status, who).toBe(status);
      expect((await agent.get('/api/v1/dashboard/leads-funnel')).status, who).toBe(status);
      expect((await agent.get(`/api/v1/dashboard/leads/${lead.id}/history`)).status, who).toBe(status);
      expect((await patch(agent, lead.id, { status: 'sans_suite' })).status, who).toBe(status);
      expect((await agent.post(`/api/v1/dashboard/leads/${lead.id}/notes`, { body: 'intrus' })).status, who).toBe(status);
      expect((await agent.post(`/api/v1/dashboard/leads/${lead.id}/erase`, {})).status, who).toBe(status);
    }
    expect((await list()).items.some((i) => i.id === lead.id)).toBe(true);
    expect((await list()).items.find((i) => i.id === lead.id)?.status).toBe(lead.status);
    expect((await product.database.db.select().from(leadNotes).where(eq(leadNotes.body, 'intrus'))).length).toBe(0);
  });

  it('erases a prospect on request: every lead of the address, its follow-up, notes, history and mails; nobody else’s; never an account’s', async () => {
    const db = product.database.db;
    const address = `Effacement.${Date.now()}@example.fr`;
    const lower = address.toLowerCase();
    const preId = await preRegister(lower);
    await contact('Nadia Effacée', address, 'Bonjour, je m’appelle Nadia Effacée.');
    await contact('Nadia Effacée', lower, 'Une seconde question sur les formules.');
    await contact('Quelqu’un d’autre', 'autre.personne@example.fr', 'Je reste, merci de me répondre bientôt.');
    const leads = (await list(`?q=${encodeURIComponent(lower)}`)).items;
    expect(leads).toHaveLength(3);
    for (const lead of leads) {
      expect((await staff.agent.post(`/api/v1/dashboard/leads/${lead.id}/notes`, { body: 'Nadia Effacée a rappelé.' })).status).toBe(201);
    }
    expect((await patch(staff.agent, preId, { status: 'contacte' })).status).toBe(200);
    const traces = async () => {
      const result = (await db.execute(sql`
        SELECT (SELECT count(*) FROM contact_messages WHERE lower(email) = ${lower})
             + (SELECT count(*) FROM pre_subscriptions WHERE lower(email) = ${lower})
             + (SELECT count(*) FROM lead_notes WHERE body LIKE '%Nadia%')
             + (SELECT count(*) FROM lead_follow_ups WHERE lead_id = ${preId})
             + (SELECT count(*) FROM lead_events WHERE lead_id = ${preId})
             + (SELECT count(*) FROM mail_outbox WHERE position(${lower} in lower(to_address || ' ' || text_body)) > 0) AS n`)) as unknown as {
        rows: { n: number | string }[];
      };
      return Number(result.rows[0]?.n);
    };
    expect(await traces()).toBeGreaterThan(6);
    const consentsBefore = (await db.execute(sql`SELECT count(*)::int AS n FROM consents WHERE anonymous_id = ${preId}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(consentsBefore.rows[0]?.n).toBeGreaterThanOrEqual(1);

    const answer = await staff.agent.post(`/api/v1/dashboard/leads/${leads[1]?.id}/erase`, {});
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ ok: true, erased: { contactMessages: 2, preRegistrations: 1, notes: 3 } });
    expect(await traces()).toBe(0);
    expect((await list(`?q=${encodeURIComponent(lower)}`)).total).toBe(0);
    // The consent proof stays, unlinked from the erased pre-registration.
    const consentsAfter = (await db.execute(sql`SELECT count(*)::int AS n FROM consents WHERE anonymous_id = ${preId}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(consentsAfter.rows[0]?.n).toBe(0);
    // Somebody else's message is untouched; the erased lead is gone (404).
    expect((await list('?q=autre.personne@example.fr')).total).toBe(1);
    expect((await staff.agent.post(`/api/v1/dashboard/leads/${leads[1]?.id}/erase`, {})).status).toBe(404);

    // An address with a member account: refused in French, nothing erased.
    const memberAddress = `compte.${Date.now()}@example.fr`;
    const memberPre = await preRegister(memberAddress);
    const created = await register(product.agent(), { context: 'init', email: memberAddress, role: 'femme', password: 'bismillah-2026' });
    expect(created.status).toBe(201);
    const refused = await staff.agent.post(`/api/v1/dashboard/leads/${memberPre}/erase`, {});
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: { code: 'LEAD_HAS_ACCOUNT', message: expect.stringContaining('compte de membre') },
    });
    expect((await list(`?q=${encodeURIComponent(memberAddress)}`)).total).toBe(1);
  });

  it('retention: contact messages go after 12 months, with their follow-up, notes and history', async () => {
    await contact('Ancien Contact', 'ancien@example.fr', 'Un message qui sera effacé un jour.');
    const lead = (await list('?q=ancien@example.fr')).items[0] as LeadItem;
    expect((await patch(staff.agent, lead.id, { status: 'sans_suite' })).status).toBe(200);
    expect((await staff.agent.post(`/api/v1/dashboard/leads/${lead.id}/notes`, { body: 'Pas de suite.' })).status).toBe(201);
    const db = product.database.db;
    const report = await runRetention({ db, clock: fakeClock(new Date(clock.now().getTime() + 366 * 86_400_000)) });
    expect(report.contactMessages).toBeGreaterThanOrEqual(1);
    expect(report.leadFollowUps).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(contactMessages).where(eq(contactMessages.id, lead.id))).toHaveLength(0);
    expect(await db.select().from(leadFollowUps).where(eq(leadFollowUps.leadId, lead.id))).toHaveLength(0);
    expect(await db.select().from(leadNotes).where(eq(leadNotes.leadId, lead.id))).toHaveLength(0);
    expect(await db.select().from(leadEvents).where(eq(leadEvents.leadId, lead.id))).toHaveLength(0);
    // The converted pre-registration (an account has its address) stays, with its follow-up.
    const remaining = await db.execute(sql`SELECT count(*)::int AS n FROM lead_follow_ups`);
    expect((remaining as unknown as { rows: { n: number }[] }).rows[0]?.n).toBeGreaterThanOrEqual(1);
  });
});
