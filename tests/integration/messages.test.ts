import { and, eq, getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MEMBER_MESSAGES_PER_HOUR } from '#bff/api/message-routes.ts';
import { MEMBER_SEARCH_LIMIT } from '#bff/messages/messages.ts';
import { fakeClock } from '#bff/clock.ts';
import { directMessages, messageTemplates } from '#bff/db/messages-schema.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { DEMO_AGENCY_IDENTITY } from '#machines/public-site/agency-identity.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import type { TestAgent, TestProduct } from '#tests/support/test-product.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** Two-way messages, unread counts, notices without content, recipient search, templates (decision 121). */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

let n = 0;
async function newMember(tag = 'messagerie') {
  n += 1;
  const agent = product.agent();
  const email = `${tag}.${String(n).padStart(3, '0')}.${Date.now()}@example.fr`;
  const response = await signUp(agent, {
    context: 'init',
    email,
    role: 'femme',
    password: 'bismillah-2026',
  });
  expect(response.status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id, email };
}
type Member = Awaited<ReturnType<typeof newMember>>;

const memberUnread = async (m: Member) => (await m.agent.json<{ unread: number }>(m.agent.get('/api/v1/user/messages/unread'))).unread;
const staffUnread = async () =>
  staff.agent.json<{ total: number; members: { memberId: string; unread: number; email: string }[] }>(
    staff.agent.get('/api/v1/dashboard/messages/unread'),
  );
const staffUnreadOf = async (m: Member) => (await staffUnread()).members.find((row) => row.memberId === m.id)?.unread ?? 0;
const mailsTo = async (to: string) =>
  (await product.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to))).filter(
    // The welcome and the sign-up confirmation (decision 187) are not notices.
    (mail) => mail.kind !== 'agency-welcome' && mail.kind !== 'auth-signup-confirmation',
  );
const staffWrites = (m: Member, body: string, subject = '') =>
  staff.agent.post(`/api/v1/dashboard/members/${m.id}/messages`, { subject, body });

describe('the direct_messages and message_templates tables', () => {
  it('have the columns their drizzle schemas declare (migration 0021)', async () => {
    for (const table of [directMessages, messageTemplates]) {
      const name = table === directMessages ? 'direct_messages' : 'message_templates';
      const rows = await product.database.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '${name}'`,
      );
      expect(rows.map((r) => r.column_name).sort()).toEqual(
        Object.values(getTableColumns(table))
          .map((c) => c.name)
          .sort(),
      );
    }
  });
});

describe('a conversation between a member and the agency', () => {
  it('staff write, the member reads (1 → 0), replies, staff see it unread and mark it read (1 → 0)', async () => {
    const member = await newMember();
    expect(await memberUnread(member)).toBe(0);
    expect((await staffWrites(member, 'Bonjour, votre entretien est confirmé pour jeudi.', 'Votre entretien')).status).toBe(201);
    expect(await memberUnread(member)).toBe(1);
    // Staff's own message is not unread for staff.
    expect(await staffUnreadOf(member)).toBe(0);

    const read = await member.agent.json<{ marked: number }>(member.agent.post('/api/v1/user/messages/read', {}));
    expect(read.marked).toBe(1);
    expect(await memberUnread(member)).toBe(0);

    const reply = await member.agent.post('/api/v1/user/messages', { subject: '  Re : votre entretien ', body: '  Merci, je serai là.  ' });
    expect(reply.status).toBe(201);
    expect(await reply.json()).toMatchObject({ direction: 'to_agency', subject: 'Re : votre entretien', body: 'Merci, je serai là.' });
    // The member's own reply is not unread for them; for staff it is.
    expect(await memberUnread(member)).toBe(0);
    expect(await staffUnreadOf(member)).toBe(1);
    const list = await staffUnread();
    expect(list.members.find((row) => row.memberId === member.id)).toMatchObject({ email: member.email, unread: 1 });
    expect(list.total).toBeGreaterThanOrEqual(1);

    const mine = await member.agent.json<{ messages: { direction: string; body: string; memberReadAt: string | null }[] }>(
      member.agent.get('/api/v1/user/messages'),
    );
    expect(mine.messages.map((m) => [m.direction, m.body])).toEqual([
      ['to_agency', 'Merci, je serai là.'],
      ['to_member', 'Bonjour, votre entretien est confirmé pour jeudi.'],
    ]);
    const conversation = await staff.agent.json<{ messages: { direction: string; authorEmail: string | null }[] }>(
      staff.agent.get(`/api/v1/dashboard/messages?memberId=${member.id}`),
    );
    expect(conversation.messages.map((m) => [m.direction, m.authorEmail])).toEqual([
      ['to_agency', member.email],
      ['to_member', staff.email],
    ]);

    expect(
      (await staff.agent.json<{ marked: number }>(staff.agent.post(`/api/v1/dashboard/members/${member.id}/messages/read`, {}))).marked,
    ).toBe(1);
    expect(await staffUnreadOf(member)).toBe(0);
    // Marking again marks nothing.
    expect(
      (await staff.agent.json<{ marked: number }>(staff.agent.post(`/api/v1/dashboard/members/${member.id}/messages/read`, {}))).marked,
    ).toBe(0);
  });

  it('counts and read marks move only for the right party: a member never reads nor marks another member’s messages', async () => {
    const amina = await newMember();
    const sara = await newMember();
    expect((await staffWrites(amina, 'Un message pour Amina.')).status).toBe(201);
    expect((await sara.agent.post('/api/v1/user/messages', { body: 'Une question de Sara.' })).status).toBe(201);

    // Sara sees only her own conversation, and marking read touches only hers.
    const saraMessages = await sara.agent.json<{ messages: { body: string }[] }>(sara.agent.get('/api/v1/user/messages'));
    expect(saraMessages.messages.map((m) => m.body)).toEqual(['Une question de Sara.']);
    expect((await sara.agent.json<{ marked: number }>(sara.agent.post('/api/v1/user/messages/read', {}))).marked).toBe(0);
    expect(await memberUnread(amina)).toBe(1);
    // A member opening their messages never marks the agency's side read.
    expect(await staffUnreadOf(sara)).toBe(1);
    // Nor can a member reach the staff routes for anyone (theirs included).
    for (const response of [
      await sara.agent.post(`/api/v1/dashboard/members/${amina.id}/messages/read`, {}),
      await sara.agent.post(`/api/v1/dashboard/members/${sara.id}/messages/read`, {}),
      await sara.agent.get(`/api/v1/dashboard/messages?memberId=${amina.id}`),
      await sara.agent.get('/api/v1/dashboard/messages/unread'),
    ])
      expect(response.status).toBe(403);
    // Extra fields (a member id, a direction) are refused, not used.
    const forged = await sara.agent.post('/api/v1/user/messages', { body: 'Coucou', memberId: amina.id, direction: 'to_member' });
    expect(forged.status).toBe(400);
    expect(await memberUnread(amina)).toBe(1);
    // Staff marking Amina's conversation read leaves the member's own unread count alone.
    await staff.agent.post(`/api/v1/dashboard/members/${amina.id}/messages/read`, {});
    expect(await memberUnread(amina)).toBe(1);
    // Staff have no member side: a member-only route refuses them.
    expect((await staff.agent.post('/api/v1/user/messages', { body: 'Test' })).status).toBe(403);
    expect((await staff.agent.post('/api/v1/user/messages/read', {})).status).toBe(403);
    expect((await product.agent().get('/api/v1/user/messages/unread')).status).toBe(401);
  });

  it('refuses a blank or too long message with a French error, changing nothing', async () => {
    const member = await newMember();
    const before = (await product.database.db.select().from(directMessages).where(eq(directMessages.memberId, member.id))).length;
    const blank = await member.agent.post('/api/v1/user/messages', { subject: 'Bonjour', body: '   ' });
    expect(blank.status).toBe(400);
    expect((await blank.json()).error.issues[0]).toEqual({ path: 'body', message: 'Message requis' });
    const long = await member.agent.post('/api/v1/user/messages', { body: 'a'.repeat(5001) });
    expect(long.status).toBe(400);
    expect((await long.json()).error.issues[0].message).toBe('Message trop long (5 000 caractères au plus)');
    const subject = await member.agent.post('/api/v1/user/messages', { subject: 's'.repeat(151), body: 'Bonjour' });
    expect((await subject.json()).error.issues[0].message).toBe('Objet trop long (150 caractères au plus)');
    expect((await product.database.db.select().from(directMessages).where(eq(directMessages.memberId, member.id))).length).toBe(before);
    expect(await mailsTo(DEMO_AGENCY_IDENTITY.email).then((mails) => mails.filter((m) => m.textBody.includes(member.id)))).toEqual([]);
  });

  it('limits how many messages a member writes in an hour (429 in French)', async () => {
    const member = await newMember();
    for (let i = 0; i < MEMBER_MESSAGES_PER_HOUR.points; i += 1)
      expect((await member.agent.post('/api/v1/user/messages', { body: `Message ${i}` })).status).toBe(201);
    const refused = await member.agent.post('/api/v1/user/messages', { body: 'Encore un' });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toMatch(/^Trop de tentatives\. Réessayez dans \d+ minutes?\.$/);
    const stored = await product.database.db.select().from(directMessages).where(eq(directMessages.memberId, member.id));
    expect(stored).toHaveLength(MEMBER_MESSAGES_PER_HOUR.points);
  });
});

describe('mailed notices', () => {
  it('one notice per message, without the subject nor the body: to the member, or to the agency’s address', async () => {
    const member = await newMember();
    const secret = 'Ma pratique religieuse et ma situation familiale';
    expect((await staffWrites(member, `Au sujet de : ${secret}`, 'Sujet confidentiel')).status).toBe(201);
    const toMember = await mailsTo(member.email);
    expect(toMember).toHaveLength(1);
    expect(toMember[0]).toMatchObject({ kind: 'message-notice-member', subject: 'Un nouveau message vous attend dans votre espace' });
    for (const part of [toMember[0]?.textBody, toMember[0]?.htmlBody]) {
      expect(part).not.toContain(secret);
      expect(part).not.toContain('Sujet confidentiel');
      expect(part).toContain('/mon-compte/messages');
    }

    expect((await member.agent.post('/api/v1/user/messages', { subject: 'Sujet privé', body: secret })).status).toBe(201);
    // The agency's address also receives the notices of the other tests' members, some of them
    // delivered late by the outbox: this member's notice is the one that links to their conversation.
    const toAgency = (await mailsTo(DEMO_AGENCY_IDENTITY.email)).filter((m) =>
      m.textBody.includes(`/dashboard/message-direct?memberId=${member.id}`),
    );
    expect(toAgency).toHaveLength(1);
    expect(toAgency[0]).toMatchObject({ kind: 'message-notice-agency', subject: 'Nouveau message d’un membre' });
    for (const part of [toAgency[0]?.textBody, toAgency[0]?.htmlBody]) {
      expect(part).not.toContain(secret);
      expect(part).not.toContain('Sujet privé');
      expect(part).not.toContain(member.email);
      expect(part).toContain(`/dashboard/message-direct?memberId=${member.id}`);
    }
    // Each message points at its one notice, de-duplicated by the message id.
    const rows = await product.database.db.select().from(directMessages).where(eq(directMessages.memberId, member.id));
    expect(rows.every((r) => r.mailId !== null)).toBe(true);
    const keys = await product.database.db
      .select({ key: mailOutbox.dedupeKey })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'message-notice-agency')));
    expect(new Set(keys.map((k) => k.key)).size).toBe(keys.length);
  });
});

describe('recipient search', () => {
  it('finds members by name or address, at most a few, never staff', async () => {
    const tag = `cherche${Date.now()}`;
    const found = await newMember(tag);
    await found.agent.post('/api/v1/user/update', samplePayloads({ ...found, gender: 'femme' }, clock.now().getTime()).profil);
    const search = (q: string) =>
      staff.agent.json<{ items: { id: string; email: string; name: string | null }[] }>(
        staff.agent.get(`/api/v1/dashboard/member-search?q=${encodeURIComponent(q)}`),
      );
    expect((await search(tag)).items).toEqual([{ id: found.id, email: found.email, name: 'Amina Benali' }]);
    expect((await search('amina benali')).items.map((i) => i.id)).toContain(found.id);
    expect((await search('')).items).toEqual([]);
    for (let i = 0; i < MEMBER_SEARCH_LIMIT + 1; i += 1) await newMember(`${tag}x`);
    expect((await search(`${tag}x`)).items).toHaveLength(MEMBER_SEARCH_LIMIT);
    expect((await search(staff.email)).items).toEqual([]);
    const long = await staff.agent.get(`/api/v1/dashboard/member-search?q=${'a'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect((await long.json()).error.issues[0].message).toBe('Recherche trop longue (100 caractères au plus)');
  });
});

describe('message templates', () => {
  const put = (agent: TestAgent, path: string, body: unknown) => agent.request('PUT', path, body);
  const del = (agent: TestAgent, path: string) => agent.request('DELETE', path, undefined, { origin: 'http://localhost:3999' });

  it('staff create, list, edit, fill for a member and delete a template', async () => {
    const title = `Confirmation ${Date.now()}`;
    const created = await staff.agent.post('/api/v1/dashboard/message-templates', {
      title,
      subject: 'Votre entretien, {prenom}',
      body: 'Bonjour {prenom} {nom},\nVotre entretien est confirmé.\n{agence}',
    });
    expect(created.status).toBe(201);
    const template = (await created.json()) as { id: number };
    const list = await staff.agent.json<{ templates: { id: number; title: string }[] }>(
      staff.agent.get('/api/v1/dashboard/message-templates'),
    );
    expect(list.templates).toContainEqual(expect.objectContaining({ id: template.id, title }));

    const member = await newMember();
    await member.agent.post('/api/v1/user/update', samplePayloads({ ...member, gender: 'femme' }, clock.now().getTime()).profil);
    const filled = await staff.agent.json<{ subject: string; body: string }>(
      staff.agent.get(`/api/v1/dashboard/message-templates/${template.id}/fill?memberId=${member.id}`),
    );
    expect(filled).toEqual({
      subject: 'Votre entretien, Amina',
      body: `Bonjour Amina Benali,\nVotre entretien est confirmé.\n${DEMO_AGENCY_IDENTITY.legalName}`,
    });
    // A member without a profile yet: the placeholder and its space go.
    const unnamed = await newMember();
    const plain = await staff.agent.json<{ subject: string }>(
      staff.agent.get(`/api/v1/dashboard/message-templates/${template.id}/fill?memberId=${unnamed.id}`),
    );
    expect(plain.subject).toBe('Votre entretien,');

    const edited = await put(staff.agent, `/api/v1/dashboard/message-templates/${template.id}`, {
      title,
      subject: '',
      body: 'Salam {prenom}.',
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id: template.id, subject: '', body: 'Salam {prenom}.' });

    expect((await del(staff.agent, `/api/v1/dashboard/message-templates/${template.id}`)).status).toBe(200);
    expect((await del(staff.agent, `/api/v1/dashboard/message-templates/${template.id}`)).status).toBe(404);
    expect((await staff.agent.get(`/api/v1/dashboard/message-templates/${template.id}/fill?memberId=${member.id}`)).status).toBe(404);
  });

  it('refuses unknown placeholders, a duplicate title and an unknown template in French, changing nothing', async () => {
    const count = async () => (await product.database.db.select().from(messageTemplates)).length;
    const before = await count();
    const unknown = await staff.agent.post('/api/v1/dashboard/message-templates', {
      title: 'Inconnu',
      body: 'Bonjour {prénom} {telephone} {prenom}',
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.issues[0]).toEqual({
      path: 'body',
      message: 'Champ inconnu : {prénom}, {telephone}. Champs possibles : {prenom}, {nom}, {agence}.',
    });
    const noTitle = await staff.agent.post('/api/v1/dashboard/message-templates', { title: '  ', body: 'Bonjour' });
    expect((await noTitle.json()).error.issues[0]).toEqual({ path: 'title', message: 'Titre requis' });
    expect(await count()).toBe(before);

    const title = `Doublon ${Date.now()}`;
    expect((await staff.agent.post('/api/v1/dashboard/message-templates', { title, body: 'Un' })).status).toBe(201);
    const twice = await staff.agent.post('/api/v1/dashboard/message-templates', { title: title.toUpperCase(), body: 'Deux' });
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.message).toBe('Un modèle porte déjà ce titre.');
    expect(await count()).toBe(before + 1);

    expect((await put(staff.agent, '/api/v1/dashboard/message-templates/999999', { title: 'X', body: 'Y' })).status).toBe(404);
    expect((await put(staff.agent, '/api/v1/dashboard/message-templates/abc', { title: 'X', body: 'Y' })).status).toBe(400);
    // Members never reach templates.
    const member = await newMember();
    expect((await member.agent.get('/api/v1/dashboard/message-templates')).status).toBe(403);
    expect((await member.agent.post('/api/v1/dashboard/message-templates', { title: 'X', body: 'Y' })).status).toBe(403);
  });
});
