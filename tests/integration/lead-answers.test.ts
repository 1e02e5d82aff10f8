import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { parseConfig } from '#bff/config.ts';
import { contactMessages, leadAnswers, leadEvents, leadFollowUps } from '#bff/db/leads-schema.ts';
import { mailbox, mailOutbox } from '#bff/db/schema.ts';
import { LIMITS } from '#bff/http/rate-limit.ts';
import { PRE_REGISTRATION_SUBJECT } from '#machines/leads/labels.ts';
import { signInStaff, type StaffSession } from '#tests/support/staff.ts';
import { startTestProduct, TEST_SITE, type TestProduct } from '#tests/support/test-product.ts';

/**
 * Answering a lead by mail (issue 63 point 3, decision 211): the lead's subject in the inbox, a
 * template for prospects filled and previewed, the mail through the real SMTP path (the embedded
 * stand-in receives it) from the agency with Reply-To the agency, the answer in the lead's
 * history, the status moved; refused input and another counsellor's lead change nothing.
 */

/** The test product's configuration: the sending address and the agency's. */
const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: TEST_SITE });
const clock = fakeClock(new Date());
let product: TestProduct;
let admin: StaffSession;
let counsellor: StaffSession;
let other: StaffSession;

type Template = { id: number; title: string; kind: string };
type LeadItem = {
  id: string;
  kind: string;
  name: string | null;
  email: string;
  subject: string;
  status: string;
  assignee: { id: string } | null;
};
type History = {
  events: { field: string; from: string | null; to: string | null; actor: string }[];
  answers: { subject: string; body: string; author: string; to: string; delivery: string }[];
};

const tick = () => clock.set(new Date(clock.now().getTime() + 60_000));
const list = (session: StaffSession, query = '') =>
  session.agent.json<{ items: LeadItem[]; total: number }>(session.agent.get(`/api/v1/dashboard/leads${query}`));
const history = (session: StaffSession, id: string) =>
  session.agent.json<History>(session.agent.get(`/api/v1/dashboard/leads/${id}/history`));

async function contact(name: string, email: string, subject: string) {
  tick();
  const response = await product.agent().post('/api/v1/contact', {
    name,
    email,
    subject,
    message: 'Bonjour, je voudrais en savoir plus sur votre accompagnement.',
    consent: true,
  });
  expect(response.status).toBe(201);
  const { items } = await list(admin, `?q=${encodeURIComponent(email)}`);
  return items[0] as LeadItem;
}

/** What a refused request must leave as it was. */
async function snapshot() {
  const db = product.database.db;
  const [answers, outbox, events, followUps] = await Promise.all([
    db.select({ n: sql<number>`count(*)::int` }).from(leadAnswers),
    db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox),
    db.select({ n: sql<number>`count(*)::int` }).from(leadEvents),
    db.select().from(leadFollowUps),
  ]);
  return { answers: answers[0]?.n, outbox: outbox[0]?.n, events: events[0]?.n, followUps };
}

beforeAll(async () => {
  product = await startTestProduct({ clock });
  admin = await signInStaff(product);
  await admin.passTotp();
  counsellor = await signInStaff(product, { staffRole: 'conseil' });
  await counsellor.passTotp();
  other = await signInStaff(product, { staffRole: 'conseil' });
  await other.passTotp();
});
afterAll(() => product.stop());

describe('answering a lead by mail', () => {
  it('shows the subject, fills a prospect template, previews it, sends it through SMTP and keeps it in the history', async () => {
    const lead = await contact('Khadija Benali', 'khadija.answer@example.fr', 'Les formules et les prix');
    expect(lead).toMatchObject({ kind: 'contact', subject: 'Les formules et les prix', status: 'nouveau', assignee: null });

    const { templates } = await admin.agent.json<{ templates: Template[] }>(admin.agent.get('/api/v1/dashboard/message-templates'));
    const prospect = templates.filter((t) => t.kind === 'prospect');
    expect(prospect.map((t) => t.title)).toContain('Prospect — formules et prix');
    const template = prospect.find((t) => t.title === 'Prospect — formules et prix') as Template;
    const body = 'Bonjour {prenom},\n\nNos formules commencent par un entretien sans engagement.\n\n{agence}';
    const input = { subject: 'Nos formules, {prenom}', body, templateId: template.id };

    const preview = await admin.agent.json<{ to: string; replyTo: string; subject: string; text: string }>(
      admin.agent.post(`/api/v1/dashboard/leads/${lead.id}/answers/preview`, input),
    );
    expect(preview.to).toBe('khadija.answer@example.fr');
    expect(preview.subject).toBe('Nos formules, Khadija Benali');
    expect(preview.text).toMatch(/^Bonjour Khadija Benali,\n\nNos formules commencent/);
    expect(preview.text).not.toContain('{');

    tick();
    const sent = await admin.agent.post(`/api/v1/dashboard/leads/${lead.id}/answers`, input);
    expect(sent.status).toBe(201);
    expect(((await sent.json()) as { changed: string[] }).changed.sort()).toEqual(['assignee', 'status']);

    // Through the real dispatcher to the embedded SMTP stand-in: the agency's words, its Reply-To.
    await product.flushMail();
    const received = await product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, 'khadija.answer@example.fr'));
    expect(received).toHaveLength(1);
    const mail = received[0] as typeof mailbox.$inferSelect;
    expect(mail.subject).toBe('Nos formules, Khadija Benali');
    expect(mail.textBody).toContain('Bonjour Khadija Benali,');
    expect(mail.textBody).toContain('entretien sans engagement');
    expect(mail.textBody.trim()).toBe(preview.text.trim());
    expect(mail.fromAddress).toBe(config.mailFrom.match(/<(.+)>/)?.[1]);
    expect(mail.raw).toMatch(new RegExp(`^Reply-To: ${config.agencyEmail.replace('.', '\\.')}`, 'mi'));

    // The history: the answer (subject, body, who, delivered) and the moves it made.
    const { events, answers } = await history(admin, lead.id);
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ subject: 'Nos formules, Khadija Benali', to: 'khadija.answer@example.fr', delivery: 'sent' });
    expect(answers[0]?.body).toContain('entretien sans engagement');
    expect(answers[0]?.author).toMatch(/^Équipe \d+$/);
    expect(events.map((e) => [e.field, e.to])).toEqual(
      expect.arrayContaining([
        ['answer', 'Nos formules, Khadija Benali'],
        ['status', 'contacte'],
        ['assignee', admin.id],
      ]),
    );
    const [row] = await product.database.db.select().from(leadAnswers).where(eq(leadAnswers.leadId, lead.id));
    expect(row).toMatchObject({ authorId: admin.id, templateId: template.id, toAddress: 'khadija.answer@example.fr' });
    expect((await list(admin, '?q=khadija.answer')).items[0]).toMatchObject({ status: 'contacte', assignee: { id: admin.id } });
  });

  it('says when the mail could not leave yet: the outbox retries it', async () => {
    const lead = await contact('Nadia', 'nadia.retry@example.fr', 'Mon inscription');
    const sent = await admin.agent.post(`/api/v1/dashboard/leads/${lead.id}/answers`, { subject: 'Bonjour', body: 'Bonjour {prenom}.' });
    expect(sent.status).toBe(201);
    await product.flushMail();
    const [row] = await product.database.db.select().from(leadAnswers).where(eq(leadAnswers.leadId, lead.id));
    const mailId = row?.mailId as number;
    // The relay refused it once: the dispatcher keeps it pending with the error, and retries it.
    await product.database.db
      .update(mailOutbox)
      .set({ status: 'pending', sentAt: null, attempts: 1, lastError: 'connect ECONNREFUSED' })
      .where(eq(mailOutbox.id, mailId));
    expect((await history(admin, lead.id)).answers[0]?.delivery).toBe('retrying');
    await product.flushMail();
    expect((await history(admin, lead.id)).answers[0]?.delivery).toBe('sent');
    // Given up after its attempts: said so.
    await product.database.db.update(mailOutbox).set({ status: 'failed' }).where(eq(mailOutbox.id, mailId));
    expect((await history(admin, lead.id)).answers[0]?.delivery).toBe('failed');
  });

  it('refuses bad input in French and changes nothing', async () => {
    const lead = await contact('Samir', 'samir.refused@example.fr', 'Autre');
    const { templates } = await admin.agent.json<{ templates: Template[] }>(admin.agent.get('/api/v1/dashboard/message-templates'));
    const forMembers = await admin.agent.post('/api/v1/dashboard/message-templates', {
      title: 'Pour les membres',
      subject: 'Bonjour',
      body: 'Bonjour {prenom}',
    });
    const memberTemplate = ((await forMembers.json()) as Template).id;
    expect(templates.length).toBeGreaterThan(0);
    const before = await snapshot();
    const cases: [unknown, number, RegExp][] = [
      [{ subject: 'Bonjour', body: '   ' }, 400, /Écrivez le message/],
      [{ subject: '', body: 'Bonjour.' }, 400, /objet/],
      [{ subject: 'Bonjour', body: 'Bonjour {prénom}' }, 400, /Champ inconnu/],
      [{ subject: 'Bonjour', body: 'x'.repeat(5001) }, 400, /trop long/],
      [{ subject: 'Bonjour', body: 'Bonjour.', to: 'autre@example.fr' }, 400, /Champ inconnu/],
      [{ subject: 'Bonjour', body: 'Bonjour.', templateId: memberTemplate }, 422, /modèle pour les prospects/],
    ];
    for (const [body, status, message] of cases) {
      const response = await admin.agent.post(`/api/v1/dashboard/leads/${lead.id}/answers`, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(JSON.stringify(await response.json())).toMatch(message);
    }
    const unknown = await admin.agent.post('/api/v1/dashboard/leads/00000000-0000-4000-8000-000000000000/answers', {
      subject: 'Bonjour',
      body: 'Bonjour.',
    });
    expect(unknown.status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('a counsellor answers an unassigned lead (it becomes theirs), never another counsellor’s', async () => {
    const lead = await contact('Yacine', 'yacine.scope@example.fr', 'Une question sur l’accompagnement');
    // Visible to both counsellors while nobody has it.
    expect((await list(other, '?q=yacine.scope')).total).toBe(1);
    const taken = await counsellor.agent.post(`/api/v1/dashboard/leads/${lead.id}/answers`, {
      subject: 'Bonjour',
      body: 'Bonjour {prenom}.',
    });
    expect(taken.status).toBe(201);
    expect((await list(counsellor, '?q=yacine.scope')).items[0]?.assignee?.id).toBe(counsellor.id);

    const before = await snapshot();
    for (const path of ['answers', 'answers/preview']) {
      const refused = await other.agent.post(`/api/v1/dashboard/leads/${lead.id}/${path}`, { subject: 'Moi aussi', body: 'Bonjour.' });
      expect(refused.status, path).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 'NOT_YOUR_LEAD', message: expect.stringContaining('autre membre') } });
    }
    expect(await snapshot()).toEqual(before);
    // Nor does the other counsellor see it any more.
    expect((await list(other, '?q=yacine.scope')).total).toBe(0);
  });

  it('filters the inbox by subject and by period (days in Paris)', async () => {
    // 23:30 on 20 December and 00:30 on 21 December in Paris (UTC+1).
    await product.database.db.insert(contactMessages).values([
      {
        name: 'Inès',
        email: 'ines.period@example.fr',
        subject: 'Mon inscription',
        message: 'Un message.',
        createdAt: new Date('2026-12-20T22:30:00Z'),
      },
      {
        name: 'Lina',
        email: 'lina.period@example.fr',
        subject: 'Mon inscription',
        message: 'Un message.',
        createdAt: new Date('2026-12-20T23:30:00Z'),
      },
    ]);
    const pre = await product.agent().post('/api/v1/subscription/pre-subscription', {
      gender: 'femme',
      email: 'pre.period@example.fr',
      age: 30,
      zip_code: '75011',
      city: 'Paris',
      consent: true,
    });
    expect(pre.status).toBe(201);
    const inscription = await list(admin, `?subject=${encodeURIComponent('Mon inscription')}`);
    expect(inscription.items.every((i) => i.subject === 'Mon inscription')).toBe(true);
    expect(inscription.items.map((i) => i.email)).toEqual(expect.arrayContaining(['ines.period@example.fr', 'lina.period@example.fr']));
    const pres = await list(admin, `?subject=${encodeURIComponent(PRE_REGISTRATION_SUBJECT)}`);
    expect(pres.items.map((i) => [i.kind, i.subject])).toEqual([['pre_subscription', PRE_REGISTRATION_SUBJECT]]);
    expect((await list(admin, '?from=2026-12-21&to=2026-12-21')).items.map((i) => i.email)).toEqual(['lina.period@example.fr']);
    expect((await list(admin, '?from=2026-12-20&to=2026-12-20')).items.map((i) => i.email)).toEqual(['ines.period@example.fr']);
    expect((await admin.agent.get('/api/v1/dashboard/leads?subject=Inconnu')).status).toBe(400);
    expect((await admin.agent.get('/api/v1/dashboard/leads?from=2026-02-31')).status).toBe(400);
  });

  it('bounds how many answers one colleague sends', async () => {
    const lead = await contact('Rania', 'rania.rate@example.fr', 'Autre');
    const answer = () => other.agent.post(`/api/v1/dashboard/leads/${lead.id}/answers`, { subject: 'Bonjour', body: 'Bonjour.' });
    for (let i = 0; i < LIMITS.leadAnswerPerStaff.points; i += 1) expect((await answer()).status).toBe(201);
    const refused = await answer();
    expect(refused.status).toBe(429);
    expect(JSON.stringify(await refused.json())).toMatch(/Trop de|réessayez/i);
    const rows = await product.database.db.select().from(leadAnswers).where(eq(leadAnswers.leadId, lead.id));
    expect(rows).toHaveLength(LIMITS.leadAnswerPerStaff.points);
  });
});
