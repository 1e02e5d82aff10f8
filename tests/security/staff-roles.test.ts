import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_ROUTE_POLICY } from '#bff/auth/staff-policy.ts';
import { accessLog } from '#bff/db/access-log-schema.ts';
import { onboardingEvents } from '#bff/db/schema.ts';
import { type SecurityProduct, signUpMember, startTestProduct } from '#tests/security/support.ts';
import { type StaffSession, signInStaff } from '#tests/support/staff.ts';

/**
 * Staff roles and the recorded reads (issue 63 points 4 and 5, decision 206): one table says who
 * on the team may call each staff route; every staff route is in it; a counsellor reaches only
 * the members assigned to them; every read of members' data leaves an entry in the access log;
 * the administration reads the agency's journal and changes roles, with a log entry.
 */

let product: SecurityProduct;
let admin: StaffSession;
let counsellor: StaffSession;
let mine: Awaited<ReturnType<typeof signUpMember>>;
let theirs: Awaited<ReturnType<typeof signUpMember>>;

beforeAll(async () => {
  product = await startTestProduct();
  admin = await signInStaff(product);
  await admin.passTotp();
  counsellor = await signInStaff(product, { staffRole: 'conseil' });
  await counsellor.passTotp();
  mine = await signUpMember(product);
  theirs = await signUpMember(product, 'homme');
  const assigned = await admin.agent.request('PUT', `/api/v1/dashboard/members/${mine.id}/counsellor`, { counsellorId: counsellor.id });
  expect(assigned.status).toBe(200);
});
afterAll(() => product.stop());

const code = async (response: Response) => ((await response.json()) as { error?: { code?: string } }).error?.code;

/** The access log's entries written by `staffId` since `sinceId`. */
async function entriesSince(staffId: string, sinceId: number) {
  const rows = await product.database.db.select().from(accessLog).where(eq(accessLog.staffId, staffId));
  return rows.filter((r) => r.id > sinceId);
}
async function lastEntryId(): Promise<number> {
  const rows = await product.database.db.select({ id: accessLog.id }).from(accessLog);
  return rows.reduce((max, r) => Math.max(max, r.id), 0);
}

describe('the roles’ table covers every staff route', () => {
  it('each /api/v1/dashboard route (but the public sign-up) and the ban is in the table, and the table names no route that is gone', () => {
    const routes = new Set(
      product.app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/')).map((r) => `${r.method} ${r.path}`),
    );
    const staffRoutes = [...routes].filter(
      (key) => (key.includes(' /api/v1/dashboard/') && key !== 'POST /api/v1/dashboard/subscription') || key === 'POST /api/v1/auth/ban',
    );
    expect(staffRoutes.length).toBeGreaterThan(70);
    expect(staffRoutes.filter((key) => !(key in STAFF_ROUTE_POLICY))).toEqual([]);
    expect(Object.keys(STAFF_ROUTE_POLICY).filter((key) => !routes.has(key))).toEqual([]);
  });

  it('no route answers the administration « open to no role »: none uses the staff guard outside the table', async () => {
    const refusedToAll: string[] = [];
    for (const route of product.app.routes) {
      if (route.method === 'ALL' || !route.path.startsWith('/api/v1/') || route.path.includes('/webhooks/')) continue;
      if (route.path === '/api/v1/auth/signout' || route.path === '/api/v1/dashboard/subscription') continue;
      const url = route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? theirs.id : '1'));
      const response = await admin.agent.request(route.method, url, route.method === 'GET' || route.method === 'DELETE' ? undefined : {});
      if (response.status === 403 && (await code(response)) === 'ROLE_FORBIDDEN') refusedToAll.push(`${route.method} ${route.path}`);
    }
    expect(refusedToAll).toEqual([]);
  });

  it('every GET of the team that reads members’ data records it; the few that read none are named here', () => {
    const readsNothingPersonal = new Set([
      'GET /api/v1/dashboard/funnel', // counts only
      'GET /api/v1/dashboard/tags', // the agency's labels
      'GET /api/v1/dashboard/leads-funnel', // counts only
      'GET /api/v1/dashboard/message-templates', // the agency's texts
      'GET /api/v1/dashboard/coupons',
      'GET /api/v1/dashboard/settings/plans',
      'GET /api/v1/dashboard/staff', // the team, not members
      'GET /api/v1/dashboard/staff-invitations',
      'GET /api/v1/dashboard/members/:id/photos', // the photos' ids: each photo read is recorded
      'GET /api/v1/dashboard/members/:id/access-log', // the log of the reads, not a read of the member
    ]);
    const unrecorded = Object.entries(STAFF_ROUTE_POLICY)
      .filter(([key, policy]) => key.startsWith('GET ') && !policy.reads && !readsNothingPersonal.has(key))
      .map(([key]) => key);
    expect(unrecorded).toEqual([]);
  });
});

describe('a counsellor works with their members only', () => {
  it('reads their member’s file, not another’s; billing, the team and the journal are the administration’s', async () => {
    expect((await counsellor.agent.get(`/api/v1/dashboard/members/${mine.id}`)).status).toBe(200);
    const other = await counsellor.agent.get(`/api/v1/dashboard/members/${theirs.id}`);
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({
      error: { code: 'NOT_YOUR_MEMBER', message: expect.stringContaining('n’est pas suivi par vous') },
    });
    for (const path of [
      `/api/v1/dashboard/members/${mine.id}/billing`,
      '/api/v1/dashboard/billing',
      '/api/v1/dashboard/staff',
      '/api/v1/dashboard/access-journal',
      `/api/v1/dashboard/members/${mine.id}/access-log`,
    ]) {
      const response = await counsellor.agent.get(path);
      expect(response.status, path).toBe(403);
      expect(await code(response), path).toBe('ROLE_FORBIDDEN');
    }
    // The administration reads both.
    expect((await admin.agent.get(`/api/v1/dashboard/members/${theirs.id}`)).status).toBe(200);
    expect((await admin.agent.get(`/api/v1/dashboard/members/${mine.id}/billing`)).status).toBe(200);
  });

  it('acts for their member only: a staff event for another member is refused before anything is written', async () => {
    const before = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, theirs.id));
    const refused = await counsellor.agent.post('/api/v1/user/update', { context: 'onb_meet_resa', status: true, uid: theirs.id });
    expect(refused.status).toBe(403);
    const after = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, theirs.id));
    expect(after).toHaveLength(before.length);
    const note = await counsellor.agent.post(`/api/v1/dashboard/members/${theirs.id}/notes`, { body: 'Une note.' });
    expect(note.status).toBe(403);
    expect((await counsellor.agent.post(`/api/v1/dashboard/members/${mine.id}/notes`, { body: 'Une note.' })).status).toBe(201);
  });

  it('searches and lists their members only', async () => {
    const search = async (agent: StaffSession['agent']) =>
      (await agent.json<{ items: { id: string }[] }>(agent.get('/api/v1/dashboard/member-search?q=securite'))).items.map((i) => i.id);
    expect(await search(counsellor.agent)).toContain(mine.id);
    expect(await search(counsellor.agent)).not.toContain(theirs.id);
    expect(await search(admin.agent)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    // A message from each member: the counsellor's inbox holds their member's only.
    for (const m of [mine, theirs]) {
      expect((await m.agent.post('/api/v1/user/messages', { subject: 'Question', body: 'Bonjour, une question.' })).status).toBe(201);
    }
    // The member list and the funnel count theirs only; the administration's, everyone.
    const list = await counsellor.agent.json<{ items: { id: string }[]; total: number }>(counsellor.agent.get('/api/v1/dashboard/members'));
    expect(list.items.map((m) => m.id)).toEqual([mine.id]);
    expect(list.total).toBe(1);
    const everyone = await admin.agent.json<{ total: number }>(admin.agent.get('/api/v1/dashboard/members'));
    expect(everyone.total).toBeGreaterThanOrEqual(2);
    const funnel = await counsellor.agent.json<{ total: number }>(counsellor.agent.get('/api/v1/dashboard/funnel'));
    expect(funnel.total).toBe(1);
    const unread = await counsellor.agent.json<{ members: { memberId: string }[] }>(
      counsellor.agent.get('/api/v1/dashboard/messages/unread'),
    );
    expect(unread.members.map((m) => m.memberId)).toEqual([mine.id]);
    const conversation = await counsellor.agent.get(`/api/v1/dashboard/messages?memberId=${theirs.id}`);
    expect(conversation.status).toBe(403);
  });
});

describe('every staff read is recorded', () => {
  it('a member’s file, their photos list, follow-up and billing each leave an entry naming the member; a failed read none', async () => {
    const since = await lastEntryId();
    for (const path of [
      '',
      '/summary',
      '/introductions',
      '/follow-up',
      '/billing',
      '/change-requests',
      '/shortlist',
      '/candidates?limit=5',
    ]) {
      const response = await admin.agent.get(`/api/v1/dashboard/members/${theirs.id}${path}`);
      expect(response.status, path).toBe(200);
    }
    expect((await admin.agent.get('/api/v1/dashboard/members/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const entries = await entriesSince(admin.id, since);
    expect(entries.map((e) => [e.memberId, e.resource])).toEqual([
      [theirs.id, 'member_file'],
      [theirs.id, 'member_file'],
      [theirs.id, 'member_introductions'],
      [theirs.id, 'member_follow_up'],
      [theirs.id, 'member_billing'],
      [theirs.id, 'member_change_requests'],
      [theirs.id, 'member_lists'],
      [theirs.id, 'member_candidates'],
    ]);
  });

  it('an agency-wide read leaves one entry naming nobody, with what it asked', async () => {
    const since = await lastEntryId();
    expect((await counsellor.agent.get('/api/v1/dashboard/member-search?q=securite.')).status).toBe(200);
    expect((await admin.agent.get('/api/v1/dashboard/billing?status=echouee')).status).toBe(200);
    const entries = [...(await entriesSince(counsellor.id, since)), ...(await entriesSince(admin.id, since))];
    expect(entries.map((e) => [e.memberId, e.resource, e.detail])).toEqual([
      // The search's words are not kept: they may name someone (erasure could not find them there).
      [null, 'member_search', 'q=(9 caractères)'],
      [null, 'agency_billing', 'status=echouee'],
    ]);
  });

  it('the same list asked again within ten minutes (a polling badge, a reload) is one read; another filter is another read', async () => {
    const since = await lastEntryId();
    for (let i = 0; i < 3; i++) expect((await admin.agent.get('/api/v1/dashboard/billing?status=payee')).status).toBe(200);
    expect((await admin.agent.get('/api/v1/dashboard/billing?status=a-venir')).status).toBe(200);
    expect((await entriesSince(admin.id, since)).map((e) => e.detail)).toEqual(['status=payee', 'status=a-venir']);
    // A member's file is recorded at every read.
    for (let i = 0; i < 2; i++) expect((await admin.agent.get(`/api/v1/dashboard/members/${theirs.id}`)).status).toBe(200);
    expect((await entriesSince(admin.id, since)).filter((e) => e.resource === 'member_file')).toHaveLength(2);
  });

  it('the member still finds the reads of their file in their export, by role, never by name', async () => {
    const exported = await mine.agent.json<{ staffAccess: { by: string; what: string }[] }>(mine.agent.get('/api/v1/user/export'));
    expect(exported.staffAccess.length).toBeGreaterThan(0);
    expect(exported.staffAccess.map((e) => e.what)).toContain(
      'Dossier du membre (profil, questionnaire, paiements, rendez-vous, historique)',
    );
    expect(JSON.stringify(exported.staffAccess)).not.toContain('Équipe');
  });
});

describe('the agency’s access journal and the roles, for the administration', () => {
  it('lists every read, filtered by colleague and by what was read; the export is CSV; reading it is recorded too', async () => {
    const journal = await admin.agent.json<{
      entries: { staff: { id: string }; resource: string; member: { id: string } | null }[];
      total: number;
    }>(admin.agent.get(`/api/v1/dashboard/access-journal?equipe=${counsellor.id}`));
    expect(journal.total).toBeGreaterThan(0);
    expect(journal.entries.every((e) => e.staff.id === counsellor.id)).toBe(true);
    expect(journal.entries.map((e) => e.resource)).toEqual(expect.arrayContaining(['member_file', 'member_search']));
    const files = await admin.agent.json<{ entries: { resource: string }[] }>(
      admin.agent.get('/api/v1/dashboard/access-journal?quoi=member_file'),
    );
    expect(new Set(files.entries.map((e) => e.resource))).toEqual(new Set(['member_file']));

    const csv = await admin.agent.get(`/api/v1/dashboard/access-journal/export?equipe=${counsellor.id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Date (heure de Paris);Membre de l’équipe;Membre;Lecture;Filtres');
    expect(lines.length).toBe(journal.total + 1);

    const own = await product.database.db
      .select()
      .from(accessLog)
      .where(and(eq(accessLog.staffId, admin.id), eq(accessLog.resource, 'access_journal'), isNull(accessLog.memberId)));
    expect(own.map((e) => e.detail)).toEqual(expect.arrayContaining([`equipe=${counsellor.id}`, 'quoi=member_file']));
  });

  it('refuses a filter that is not one, in French, and writes nothing', async () => {
    const since = await lastEntryId();
    for (const query of ['du=2026-02-30', 'quoi=tout', 'equipe=quelquun', 'page=0']) {
      const response = await admin.agent.get(`/api/v1/dashboard/access-journal?${query}`);
      expect(response.status, query).toBe(400);
      expect(await code(response), query).toBe('VALIDATION_FAILED');
    }
    expect(await entriesSince(admin.id, since)).toEqual([]);
  });

  it('changes a colleague’s role with a log entry; the change holds at once; the last administrator stays one', async () => {
    const staffList = await admin.agent.json<{ staff: { id: string; role: string }[] }>(admin.agent.get('/api/v1/dashboard/staff'));
    expect(staffList.staff.find((s) => s.id === counsellor.id)?.role).toBe('conseil');
    expect(staffList.staff.find((s) => s.id === admin.id)?.role).toBe('administration');

    // A counsellor cannot promote themselves.
    expect(
      (await counsellor.agent.request('PUT', `/api/v1/dashboard/staff/${counsellor.id}/role`, { role: 'administration' })).status,
    ).toBe(403);
    const bad = await admin.agent.request('PUT', `/api/v1/dashboard/staff/${counsellor.id}/role`, { role: 'chef' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('Choisissez un rôle');

    const promoted = await admin.agent.request('PUT', `/api/v1/dashboard/staff/${counsellor.id}/role`, { role: 'administration' });
    expect(await promoted.json()).toEqual({ id: counsellor.id, role: 'administration', changed: true });
    expect((await counsellor.agent.get(`/api/v1/dashboard/members/${theirs.id}`)).status).toBe(200);
    const logged = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(and(eq(onboardingEvents.memberId, counsellor.id), eq(onboardingEvents.context, 'staff_role')));
    expect(logged.map((e) => [e.event, e.payload, e.actorId])).toEqual([['ROLE', { from: 'conseil', to: 'administration' }, admin.id]]);

    // Both administrators: each may step down once; the second would leave none.
    expect((await admin.agent.request('PUT', `/api/v1/dashboard/staff/${counsellor.id}/role`, { role: 'conseil' })).status).toBe(200);
    const alone = await admin.agent.request('PUT', `/api/v1/dashboard/staff/${admin.id}/role`, { role: 'conseil' });
    // This product's only administrator now: stepping down would leave the agency without one.
    const admins = (
      await admin.agent.json<{ staff: { role: string; disabled: boolean }[] }>(admin.agent.get('/api/v1/dashboard/staff'))
    ).staff.filter((s) => s.role === 'administration' && !s.disabled);
    expect(admins.length).toBe(1);
    expect(alone.status).toBe(409);
    expect(await code(alone)).toBe('LAST_ADMINISTRATOR');
    expect((await counsellor.agent.get(`/api/v1/dashboard/members/${theirs.id}`)).status).toBe(403);
  });
});
