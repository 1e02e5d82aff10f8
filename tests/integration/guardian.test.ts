import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { contractEndDate } from '#bff/contract/contract-text.ts';
import { memberGuardians } from '#bff/db/guardian-schema.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
import { mailbox, mailOutbox } from '#bff/db/schema.ts';
import { CONTACT_NEEDED, EMAIL_NEEDED_FOR_COPIES, INFORMED_NEEDED } from '#machines/introductions/guardian.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { type ActiveMember, introductionsOf, startWithActiveMembers } from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * The guardian (wali) and the member's view of progress over HTTP (issue 22, decision 117):
 * French 400s; a copy of each proposal to the guardian who asked for it, once; the contact details
 * exchanged at mutual acceptance per each side's choice, never before; the feedback flag; the
 * progress page; the export; the erasure.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let sarah: ActiveMember;
let introductionId: string;

const AMINA_GUARDIAN = {
  name: 'Ahmed Benali',
  relation: 'pere',
  email: 'ahmed.pere@example.fr',
  phone: '',
  receives: 'copie-propositions',
  informed: true,
};
const YOUSSEF_GUARDIAN = {
  name: 'Omar Haddad',
  relation: 'frere',
  email: 'omar.frere@example.fr',
  phone: '06 11 22 33 44',
  receives: 'coordonnees',
  informed: true,
};

type View = {
  id: string;
  state: string;
  contact: {
    email: string;
    phone: string | null;
    guardian: { name: string; relation: string; email: string | null; phone: string | null } | null;
  } | null;
  myFeedback: { outcome: string; outcomeLabel: string; at: string } | null;
  contactAlsoToGuardian: string | null;
  other: { firstName: string | null } | null;
};

const put = (agent: TestAgent, body: unknown) => agent.request('PUT', '/api/v1/user/guardian', body);
const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string; issues?: { path: string; message: string }[] } }).error;
const mine = (m: ActiveMember) => introductionsOf<View>(m);
const act = (m: ActiveMember, id: string, body: unknown) => m.agent.post(`/api/v1/user/introductions/${id}/events`, body);
const staffAct = (id: string, body: unknown) => staff.post(`/api/v1/dashboard/introductions/${id}/events`, body);
async function mailsTo(email: string) {
  await product.flushMail();
  return product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, email));
}

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, youssef, sarah],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
    ['Sarah', 'femme', 27],
  ]));
}, 120_000);
afterAll(() => product.stop());

describe('the guardian and the member’s progress over HTTP', () => {
  it('validates the guardian in French, normalises the phone, and lets the member change or remove it', async () => {
    expect(await amina.agent.json(amina.agent.get('/api/v1/user/guardian'))).toEqual({ guardian: null });

    const cases: [unknown, string][] = [
      [{ ...AMINA_GUARDIAN, relation: 'cousin' }, 'Lien inconnu : choisissez dans la liste'],
      [{ ...AMINA_GUARDIAN, email: 'pas-une-adresse' }, 'Adresse e-mail invalide'],
      [{ ...AMINA_GUARDIAN, receives: 'coordonnees', email: '', phone: '12' }, 'Numéro de téléphone invalide'],
      [{ ...AMINA_GUARDIAN, email: '', phone: '0611223344' }, EMAIL_NEEDED_FOR_COPIES],
      [{ ...AMINA_GUARDIAN, receives: 'rien', email: '', phone: '' }, CONTACT_NEEDED],
      [{ ...AMINA_GUARDIAN, informed: false }, INFORMED_NEEDED],
      [{ ...AMINA_GUARDIAN, name: '' }, 'Nom requis'],
      [{ ...AMINA_GUARDIAN, receives: 'tout' }, 'Choix inconnu : choisissez dans la liste'],
    ];
    for (const [body, message] of cases) {
      const response = await put(amina.agent, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = await errorOf(response);
      expect(error.message).toBe('Données invalides');
      expect(error.issues?.map((i) => i.message)).toContain(message);
    }
    expect((await put(amina.agent, ['x'])).status).toBe(400);
    expect((await put(amina.agent, { ...AMINA_GUARDIAN, extra: 1 })).status).toBe(400);
    expect(await amina.agent.json(amina.agent.get('/api/v1/user/guardian'))).toEqual({ guardian: null });

    // A phone-only guardian who receives the contact details; then changed; then removed; then set.
    const phoneOnly = await put(amina.agent, { ...AMINA_GUARDIAN, receives: 'coordonnees', email: '', phone: '06 12 34 56 78' });
    expect(phoneOnly.status, await phoneOnly.clone().text()).toBe(200);
    expect((await amina.agent.json<{ guardian: unknown }>(phoneOnly)).guardian).toMatchObject({
      name: 'Ahmed Benali',
      relation: 'pere',
      relationLabel: 'Père',
      email: null,
      phone: '+33612345678',
      receives: 'coordonnees',
      receivesLabel: 'Les coordonnées à l’acceptation mutuelle',
    });
    const removed = await amina.agent.request('DELETE', '/api/v1/user/guardian');
    expect(await amina.agent.json(removed)).toEqual({ guardian: null, removed: true });
    expect((await put(amina.agent, AMINA_GUARDIAN)).status).toBe(200);
    expect((await put(youssef.agent, YOUSSEF_GUARDIAN)).status).toBe(200);
    // Staff have no guardian of their own.
    expect((await put(staff, AMINA_GUARDIAN)).status).toBe(403);
  });

  it('a proposal: a copy to the guardian who asked for it (summary only, once), nothing to the other', async () => {
    clock.advance(60_000);
    const response = await staff.post('/api/v1/dashboard/introductions', { a: amina.id, b: youssef.id });
    const body = (await response.json()) as { introduction: { id: string } };
    expect(response.status, JSON.stringify(body)).toBe(201);
    introductionId = body.introduction.id;

    const copies = await mailsTo(AMINA_GUARDIAN.email);
    expect(copies.map((m) => m.subject)).toEqual(['Copie d’une proposition de mise en relation']);
    const text = copies[0]?.textBody ?? '';
    for (const shown of ['Bonjour Ahmed Benali', 'Amina', 'Youssef', '32 ans', 'Île-de-France', 'Infirmière'])
      expect(text).toContain(shown);
    // No surname, no contact of anyone.
    for (const hidden of ['Youssef Exemple', 'Amina Exemple', youssef.email, amina.email, '+33612345678', '06 12 34 56 78'])
      expect(text).not.toContain(hidden);
    expect(await mailsTo(YOUSSEF_GUARDIAN.email)).toEqual([]);

    // Amina learns that Youssef's brother will receive her contact details if both accept; nothing else yet.
    const [view] = await mine(amina);
    expect(view).toMatchObject({ id: introductionId, contact: null, contactAlsoToGuardian: 'Frère', myFeedback: null });
    const [his] = await mine(youssef);
    expect(his?.contactAlsoToGuardian).toBeNull();
  });

  it('contact details at mutual acceptance per each side’s choice, never before, and never twice', async () => {
    clock.advance(3600_000);
    expect((await act(youssef, introductionId, { type: 'ACCEPT' })).status).toBe(200);
    expect(JSON.stringify(await mine(amina))).not.toContain(YOUSSEF_GUARDIAN.email);
    expect(JSON.stringify(await mine(youssef))).not.toContain(AMINA_GUARDIAN.email);
    expect(await mailsTo(YOUSSEF_GUARDIAN.email)).toEqual([]);

    clock.advance(3600_000);
    expect((await act(amina, introductionId, { type: 'ACCEPT' })).status).toBe(200);
    const [hers] = await mine(amina);
    expect(hers?.contact).toEqual({
      via: 'moi',
      email: youssef.email,
      phone: '+33612345678',
      guardian: { name: 'Omar Haddad', relation: 'Frère', email: 'omar.frere@example.fr', phone: '+33611223344' },
    });
    // Amina chose copies, not contact details: Youssef gets hers only.
    const [his] = await mine(youssef);
    expect(his?.contact).toEqual({ via: 'moi', email: amina.email, phone: '+33612345678', guardian: null });
    expect(JSON.stringify(his)).not.toContain(AMINA_GUARDIAN.email);

    // Youssef's brother receives Amina's contact details; Amina's father receives no contact mail.
    const toBrother = await mailsTo(YOUSSEF_GUARDIAN.email);
    expect(toBrother.map((m) => m.subject)).toEqual(['Acceptation mutuelle : les coordonnées']);
    expect(toBrother[0]?.textBody).toContain(amina.email);
    // The phone as a person writes it (decision 122), never the stored E.164.
    expect(toBrother[0]?.textBody).toContain('Téléphone : 06 12 34 56 78');
    expect(toBrother[0]?.textBody).not.toContain('+33612345678');
    expect((await mailsTo(AMINA_GUARDIAN.email)).map((m) => m.subject)).toEqual(['Copie d’une proposition de mise en relation']);
    const keyed = await product.database.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.dedupeKey, `guardian-%:${introductionId}:%`));
    expect(keyed.map((m) => m.dedupeKey).sort()).toEqual([
      `guardian-contact:${introductionId}:0:${youssef.id}`,
      `guardian-copy:${introductionId}:0:${amina.id}`,
    ]);
  });

  it('tells whether the caller already gave feedback', async () => {
    clock.advance(DAY_MS);
    const meetingAt = toIsoInstant(clock.now().getTime() + 2 * DAY_MS);
    expect((await staffAct(introductionId, { type: 'PLAN_MEETING', meetingAt, place: 'Locaux de l’agence' })).status).toBe(200);
    clock.advance(3 * DAY_MS);
    expect((await staffAct(introductionId, { type: 'RECORD_MEETING_HELD' })).status).toBe(200);
    expect((await mine(amina))[0]?.myFeedback).toBeNull();
    const fb = await act(amina, introductionId, { type: 'FEEDBACK', outcome: 'continuer' });
    expect(fb.status, await fb.clone().text()).toBe(200);
    const [hers] = await mine(amina);
    expect(hers?.state).toBe('retours');
    expect(hers?.myFeedback).toMatchObject({ outcome: 'continuer', outcomeLabel: 'Continuer à se connaître' });
    // Youssef has not answered: his flag is off, and he does not learn hers.
    const [his] = await mine(youssef);
    expect(his?.myFeedback).toBeNull();
    expect(JSON.stringify(his)).not.toContain('Continuer à se connaître');
  });

  it('answers the progress page: introductions, outcome, fit with the annex, the term’s end', async () => {
    const response = await amina.agent.get('/api/v1/user/progress');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      counts: { proposals: number; mutual: number; meetings: number };
      introductions: { id: string; firstName: string | null; outcome: string; fit: string | null; open: boolean }[];
      term: { plan: string | null; durationMonths: number | null; endsOn: string | null; note: string | null; signedAt: string | null };
    };
    expect(body.counts).toEqual({ proposals: 1, mutual: 1, meetings: 1 });
    expect(body.introductions).toHaveLength(1);
    expect(body.introductions[0]).toMatchObject({
      id: introductionId,
      firstName: 'Youssef',
      outcome: 'Rencontre faite : votre retour est enregistré',
      open: true,
    });
    // What matched, in a sentence (decision 193), never a count of what did not.
    expect(body.introductions[0]?.fit).toMatch(/^Il correspond à vos (critères indispensables|souhaits)\s: /);
    // activeMember signed 40 days before the clock's start, on the 12-month plan.
    expect(body.term.durationMonths).toBe(12);
    expect(body.term.plan).toBeTruthy();
    expect(body.term.note).toBeNull();
    const signedAt = new Date(body.term.signedAt as string);
    expect(body.term.endsOn).toBe(contractEndDate(signedAt, 12).toISOString().slice(0, 10));
    expect(body.term.endsOn && Date.parse(body.term.endsOn)).toBeGreaterThan(clock.now().getTime() + 300 * DAY_MS);
    // Nothing of anyone's contact on this page.
    expect(JSON.stringify(body)).not.toContain(youssef.email);

    const empty = await sarah.agent.json<{ counts: unknown; introductions: unknown[] }>(sarah.agent.get('/api/v1/user/progress'));
    expect(empty.counts).toEqual({ proposals: 0, mutual: 0, meetings: 0 });
    expect(empty.introductions).toEqual([]);
    expect((await staff.get('/api/v1/user/progress')).status).toBe(403);
    expect((await product.agent().get('/api/v1/user/progress')).status).toBe(401);
  });

  it('puts the introductions (her side only) and the guardian in the export', async () => {
    const response = await amina.agent.get('/api/v1/user/export');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      introductions: { id: string; withPerson: string; current: { answer: { status: string }; feedback: { outcome: string } | null } }[];
      guardian: { name: string; relation: string; email: string | null; receives: string } | null;
    };
    expect(body.introductions).toHaveLength(1);
    expect(body.introductions[0]).toMatchObject({
      id: introductionId,
      withPerson: 'la personne présentée',
      current: { answer: { status: 'acceptée' }, feedback: { outcome: 'Continuer à se connaître' } },
    });
    const section = JSON.stringify(body.introductions);
    for (const other of [youssef.id, youssef.email, 'Youssef', YOUSSEF_GUARDIAN.email]) expect(section).not.toContain(other);
    expect(body.guardian).toMatchObject({
      name: 'Ahmed Benali',
      relation: 'Père',
      email: AMINA_GUARDIAN.email,
      receives: 'Une copie de chaque proposition',
    });
  });

  it('erasure removes the guardian and the guardians’ mails; the other side keeps the record without her', async () => {
    const db = product.database.db;
    const answer = await amina.agent.post('/api/v1/user/erase', { email: amina.email });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(await db.select().from(memberGuardians).where(eq(memberGuardians.memberId, amina.id))).toEqual([]);
    expect(
      await db
        .select()
        .from(mailOutbox)
        .where(like(mailOutbox.dedupeKey, `guardian-%:${introductionId}:%`)),
    ).toEqual([]);
    const [row] = await db.select().from(introductions).where(eq(introductions.id, introductionId));
    // The erasure ended it, as the agency's event (decision 194): nothing is shared any more.
    expect(row?.state).toBe('close');
    expect((row?.context as { ended: unknown } | undefined)?.ended).toMatchObject({ cause: 'compte-efface' });
    expect(row?.noteA).toBeNull();
    // Youssef keeps his introduction, with nothing of her: no summary, no first name, no contact.
    const [his] = await mine(youssef);
    expect(his).toMatchObject({ id: introductionId, other: null, otherFirstName: null, contact: null });
    expect(JSON.stringify(his)).not.toContain('Amina');
    expect(JSON.stringify(his)).not.toContain(AMINA_GUARDIAN.name);
    // Nothing of her guardian anywhere in the database.
    const found = (await db.execute(
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE position(${AMINA_GUARDIAN.email} in to_address) > 0`,
    )) as unknown as { rows: { n: number }[] };
    expect(found.rows[0]?.n).toBe(0);
    // Youssef's own guardian stays.
    expect(await youssef.agent.json<{ guardian: { name: string } | null }>(youssef.agent.get('/api/v1/user/guardian'))).toMatchObject({
      guardian: { name: 'Omar Haddad' },
    });
  });
});
