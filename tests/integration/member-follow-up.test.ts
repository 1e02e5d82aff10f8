import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { memberCounsellors, memberNotes, memberTags } from '#bff/db/follow-up-schema.ts';
import { onboardingEvents } from '#bff/db/schema.ts';
import { timeline } from '#src/features/dashboard/member-view.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** Staff's follow-up of a member (issue 21, decision 124), over HTTP: notes, counsellor, tags. */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let nadia: Awaited<ReturnType<typeof signInStaff>>;
let karim: Awaited<ReturnType<typeof signInStaff>>;
beforeAll(async () => {
  product = await startTestProduct({ clock });
  // The authenticator codes are computed from the real time: the clock starts from it.
  clock.set(new Date());
  nadia = await signInStaff(product);
  await nadia.passTotp();
  clock.set(new Date());
  karim = await signInStaff(product);
  await karim.passTotp();
});
afterAll(() => product.stop());

let n = 0;
async function member() {
  n += 1;
  const agent = product.agent();
  const email = `suivi.${n}.${Date.now()}@example.fr`;
  expect((await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' })).status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id, email };
}

type FollowUp = {
  counsellor: { id: string; name: string } | null;
  tags: string[];
  notes: { id: number; body: string; author: string; own: boolean; at: string; editedAt: string | null }[];
  staff: { id: string; name: string; self: boolean }[];
};
const followUp = (agent: TestAgent, id: string) => agent.json<FollowUp>(agent.get(`/api/v1/dashboard/members/${id}/follow-up`));
const code = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
const tick = () => clock.set(new Date(clock.now().getTime() + 60_000));

describe('internal notes on a member', () => {
  it('records author and date, lists newest first; only the author edits or deletes a note', async () => {
    const amina = await member();
    const add = (agent: TestAgent, body: string) => agent.post(`/api/v1/dashboard/members/${amina.id}/notes`, { body });
    tick();
    expect((await add(nadia.agent, '  Appelée ce matin : préfère être contactée le soir.  ')).status).toBe(201);
    tick();
    expect((await add(karim.agent, 'Pièce d’identité reçue.')).status).toBe(201);

    const seenByNadia = await followUp(nadia.agent, amina.id);
    expect(seenByNadia.notes.map((note) => [note.body, note.author, note.own])).toEqual([
      ['Pièce d’identité reçue.', 'Équipe 2', false],
      ['Appelée ce matin : préfère être contactée le soir.', 'Équipe 1', true],
    ]);
    expect(seenByNadia.notes[0]?.at).toBe(clock.now().toISOString());
    const [karimsNote, nadiasNote] = seenByNadia.notes as [FollowUp['notes'][0], FollowUp['notes'][0]];

    // Nadia cannot edit nor delete Karim's note; Karim can.
    const path = (id: number) => `/api/v1/dashboard/members/${amina.id}/notes/${id}`;
    const foreignEdit = await nadia.agent.request('PATCH', path(karimsNote.id), { body: 'Réécrite.' });
    expect(foreignEdit.status).toBe(403);
    expect(await code(foreignEdit)).toBe('NOTE_NOT_YOURS');
    expect((await nadia.agent.request('DELETE', path(karimsNote.id))).status).toBe(403);
    tick();
    expect((await nadia.agent.request('PATCH', path(nadiasNote.id), { body: 'Appelée : la rappeler le soir.' })).status).toBe(200);
    expect((await karim.agent.request('DELETE', path(karimsNote.id))).status).toBe(200);
    const after = await followUp(karim.agent, amina.id);
    expect(after.notes.map((note) => [note.body, note.own, note.editedAt])).toEqual([
      ['Appelée : la rappeler le soir.', false, clock.now().toISOString()],
    ]);

    // Bad input: a clear French 400 that changes nothing; unknown ids are 404.
    const empty = await add(nadia.agent, '   ');
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain('Écrivez la note');
    expect((await add(nadia.agent, 'x'.repeat(2001))).status).toBe(400);
    expect((await nadia.agent.request('PATCH', path(999_999), { body: 'Non.' })).status).toBe(404);
    expect((await nadia.agent.request('DELETE', `/api/v1/dashboard/members/${amina.id}/notes/abc`)).status).toBe(400);
    expect((await add(nadia.agent, '')).status).toBe(400);
    expect((await nadia.agent.post(`/api/v1/dashboard/members/${nadia.id}/notes`, { body: 'Sur un membre de l’équipe.' })).status).toBe(
      404,
    );
    const stored = await product.database.db.select().from(memberNotes).where(eq(memberNotes.memberId, amina.id));
    expect(stored).toHaveLength(1);
  });

  it('a member never reads a note, nor the counsellor’s notes or tags, through any route but their own export', async () => {
    const amina = await member();
    const secret = `Note interne confidentielle ${Date.now()}`;
    expect((await nadia.agent.post(`/api/v1/dashboard/members/${amina.id}/notes`, { body: secret })).status).toBe(201);
    expect((await nadia.agent.post(`/api/v1/dashboard/members/${amina.id}/tags`, { tag: 'Étiquette-secrète' })).status).toBe(201);

    // Every GET route of the API, as the member, with their own id wherever an id is asked.
    const paths = [...new Set(product.app.routes.filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/')).map((r) => r.path))];
    expect(paths).toContain('/api/v1/dashboard/members/:id/follow-up');
    for (const path of paths) {
      // Signing out would end the member's session for the routes after it.
      if (path === '/api/v1/auth/signout') continue;
      const concrete = path.replace(/:id\b/, amina.id).replace(/:[a-zA-Z]+/g, '1');
      const response = await amina.agent.get(concrete);
      const text = await response.text();
      if (path === '/api/v1/user/export') continue;
      expect(text, path).not.toContain(secret);
      expect(text, path).not.toContain('étiquette-secrète');
      if (path.startsWith('/api/v1/dashboard/members/:id/follow-up') || path === '/api/v1/dashboard/tags')
        expect(response.status, path).toBe(403);
    }
    // Writes are refused as well, and change nothing.
    expect((await amina.agent.post(`/api/v1/dashboard/members/${amina.id}/notes`, { body: 'Moi-même.' })).status).toBe(403);
    expect((await amina.agent.post(`/api/v1/dashboard/members/${amina.id}/tags`, { tag: 'vip' })).status).toBe(403);
    expect((await amina.agent.request('PUT', `/api/v1/dashboard/members/${amina.id}/counsellor`, { counsellorId: null })).status).toBe(403);
    expect((await product.database.db.select().from(memberNotes).where(eq(memberNotes.memberId, amina.id))).length).toBe(1);
  });
});

describe('the counsellor in charge', () => {
  it('assigns, changes and removes; each change is logged in the member’s timeline as a French sentence', async () => {
    const amina = await member();
    const put = (agent: TestAgent, body: unknown) => agent.request('PUT', `/api/v1/dashboard/members/${amina.id}/counsellor`, body);
    tick();
    let response = await put(nadia.agent, { counsellorId: karim.id });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ changed: true, counsellor: { id: karim.id, name: 'Équipe 2' } });
    // The same again changes and logs nothing.
    expect(await (await put(nadia.agent, { counsellorId: karim.id })).json()).toMatchObject({ changed: false });
    tick();
    expect((await put(karim.agent, { counsellorId: null })).status).toBe(200);

    // Not staff (a member, oneself as member) or malformed: refused, nothing changes.
    const other = await member();
    response = await put(nadia.agent, { counsellorId: other.id });
    expect(response.status).toBe(422);
    expect(await code(response)).toBe('COUNSELLOR_NOT_STAFF');
    expect((await put(nadia.agent, { counsellorId: 'nadia' })).status).toBe(400);
    expect((await nadia.agent.request('PUT', `/api/v1/dashboard/members/${nadia.id}/counsellor`, { counsellorId: karim.id })).status).toBe(
      404,
    );
    expect(await product.database.db.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, amina.id))).toEqual([]);

    const logged = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(eq(onboardingEvents.memberId, amina.id))
      .orderBy(onboardingEvents.id);
    expect(logged.map((e) => [e.context, e.event, e.actorId])).toEqual([
      ['counsellor', 'ASSIGN_COUNSELLOR', nadia.id],
      ['counsellor', 'UNASSIGN_COUNSELLOR', karim.id],
    ]);
    // The member file's timeline (the dashboard's own view) reads them as sentences.
    const file = await nadia.agent.json<{ events: Parameters<typeof timeline>[0] }>(
      nadia.agent.get(`/api/v1/dashboard/members/${amina.id}`),
    );
    const sentences = timeline(file.events).map((item) => item.sentence);
    expect(sentences[0]).toMatch(/^Suivi sans conseiller attitré par Équipe 2, /);
    expect(sentences[1]).toMatch(/^Suivi confié à Équipe 2 par Équipe 1, /);
    // The member keeps using their account: the logged event did not break their record.
    expect((await amina.agent.get('/api/v1/user/settings')).status).toBe(200);
  });
});

describe('tags and the member list', () => {
  it('adds and removes validated tags, and filters the member list by tag and by counsellor', async () => {
    const amina = await member();
    const sara = await member();
    const tags = (id: string) => `/api/v1/dashboard/members/${id}/tags`;
    let response = await nadia.agent.post(tags(amina.id), { tag: '  Dossier   Prioritaire ' });
    expect(response.status).toBe(201);
    // Kept as typed (issue 63), spaces tidied.
    expect(await response.json()).toEqual({ tag: 'Dossier Prioritaire', added: true });
    // Same tag, any case: one tag, spelled as first typed.
    response = await nadia.agent.post(tags(amina.id), { tag: 'DOSSIER prioritaire' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ tag: 'Dossier Prioritaire', added: false });
    // « VIP » stays « VIP »; « vip » on another member is the same tag in the list of tags in use.
    expect(await (await nadia.agent.post(tags(amina.id), { tag: 'VIP' })).json()).toEqual({ tag: 'VIP', added: true });
    expect((await nadia.agent.post(tags(sara.id), { tag: 'vip' })).status).toBe(201);
    expect((await nadia.agent.post(tags(amina.id), { tag: 'île-de-france' })).status).toBe(201);
    expect((await nadia.agent.post(tags(sara.id), { tag: 'île-de-france' })).status).toBe(201);
    for (const bad of ['', '<script>', 'x'.repeat(41), '-tiret', 42]) {
      const refused = await nadia.agent.post(tags(amina.id), { tag: bad });
      expect(refused.status, String(bad)).toBe(400);
    }
    expect((await followUp(nadia.agent, amina.id)).tags).toEqual(['Dossier Prioritaire', 'VIP', 'île-de-france']);
    const inUse = await nadia.agent.json<{ tags: { tag: string; members: number }[] }>(nadia.agent.get('/api/v1/dashboard/tags'));
    expect(inUse.tags).toEqual(
      expect.arrayContaining([
        { tag: 'île-de-france', members: 2 },
        { tag: 'VIP', members: 2 },
      ]),
    );
    expect(inUse.tags.filter((t) => t.tag.toLowerCase() === 'vip')).toHaveLength(1);

    const list = async (query: string) =>
      (await nadia.agent.json<{ items: { id: string }[] }>(nadia.agent.get(`/api/v1/dashboard/members?perPage=100&${query}`))).items.map(
        (m) => m.id,
      );
    // Remove through the URL (encoded accents and spaces), in any case.
    response = await nadia.agent.request('DELETE', `${tags(amina.id)}/${encodeURIComponent('Dossier prioritaire')}`);
    expect(await response.json()).toEqual({ tag: 'Dossier Prioritaire', removed: true });
    expect((await followUp(nadia.agent, amina.id)).tags).toEqual(['VIP', 'île-de-france']);
    expect((await list('tag=vip')).sort()).toEqual([amina.id, sara.id].sort());

    await nadia.agent.request('PUT', `/api/v1/dashboard/members/${sara.id}/counsellor`, { counsellorId: nadia.id });
    expect((await list(`tag=${encodeURIComponent('Île-de-France')}`)).sort()).toEqual([amina.id, sara.id].sort());
    expect(await list(`tag=${encodeURIComponent('Île-de-France')}&counsellor=${nadia.id}`)).toEqual([sara.id]);
    expect(await list(`tag=${encodeURIComponent('Île-de-France')}&counsellor=aucun`)).toEqual([amina.id]);
    expect(await list('tag=inconnue')).toEqual([]);
    expect((await nadia.agent.get('/api/v1/dashboard/members?counsellor=quelqu-un')).status).toBe(400);
    expect((await nadia.agent.get('/api/v1/dashboard/members?tag=%3Cb%3E')).status).toBe(400);
    const stored = await product.database.db.select().from(memberTags).where(eq(memberTags.memberId, sara.id));
    expect(stored.map((t) => t.tag).sort()).toEqual(['vip', 'île-de-france']);
  });
});

describe('privacy: export and erasure', () => {
  it('the member’s export carries the notes, counsellor and tags (authors unnamed); erasure deletes them', async () => {
    const amina = await member();
    await nadia.agent.post(`/api/v1/dashboard/members/${amina.id}/notes`, { body: 'Souhaite un premier échange par téléphone.' });
    await nadia.agent.post(`/api/v1/dashboard/members/${amina.id}/tags`, { tag: 'rappel' });
    await nadia.agent.request('PUT', `/api/v1/dashboard/members/${amina.id}/counsellor`, { counsellorId: karim.id });

    const exported = await amina.agent.json<{ staffFollowUp: Record<string, unknown> }>(amina.agent.get('/api/v1/user/export'));
    expect(exported.staffFollowUp).toMatchObject({
      notes: [{ text: 'Souhaite un premier échange par téléphone.', by: 'l’équipe' }],
      tags: ['rappel'],
      counsellorAssignedSince: expect.any(String),
    });
    expect(JSON.stringify(exported.staffFollowUp)).not.toContain(nadia.email);

    expect((await amina.agent.post('/api/v1/user/erase', { email: amina.email })).status).toBe(200);
    const db = product.database.db;
    expect(await db.select().from(memberNotes).where(eq(memberNotes.memberId, amina.id))).toEqual([]);
    expect(await db.select().from(memberTags).where(eq(memberTags.memberId, amina.id))).toEqual([]);
    expect(await db.select().from(memberCounsellors).where(eq(memberCounsellors.memberId, amina.id))).toEqual([]);
  });
});
