import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { mailbox } from '#bff/db/schema.ts';
import { PHONE_NEEDED_FOR_WALI } from '#machines/introductions/guardian.ts';
import { type ActiveMember, introductionsOf, startWithActiveMembers } from '#tests/support/active-member.ts';
import type { startTestProduct, TestAgent } from '#tests/support/test-product.ts';

/**
 * « Contact through my walī only » over HTTP (issue 62 point 4, decision 196): chosen once with the
 * walī or per introduction; at mutual acceptance the other member's answers carry the walī's name
 * and phone and never her own phone or e-mail (nor do the other's guardian's mails); staff see the
 * walī and the choice on the member's file and on the introduction.
 */

const clock = fakeClock(new Date());
let product: Awaited<ReturnType<typeof startTestProduct>>;
let staff: TestAgent;
let amina: ActiveMember;
let youssef: ActiveMember;
let sarah: ActiveMember;
let karim: ActiveMember;

const AMINA_PHONE = '+33612345678';
const WALI = { name: 'Ahmed Benali', relation: 'pere', email: '', phone: '06 55 44 33 22', receives: 'rien', informed: true };
const WALI_PHONE = '+33655443322';
const YOUSSEF_BROTHER = {
  name: 'Omar Haddad',
  relation: 'frere',
  email: 'omar.frere@example.fr',
  phone: '06 11 22 33 44',
  receives: 'coordonnees',
  informed: true,
};

type View = {
  id: string;
  contact: { via: string; email: string | null; phone: string | null; guardian: { name: string; phone: string | null } | null } | null;
  myContactVia: { via: string; label: string; fromSettings: boolean; waliPhone: boolean };
};

const put = (agent: TestAgent, body: unknown) => agent.request('PUT', '/api/v1/user/guardian', body);
const choose = (m: ActiveMember, id: string, via: unknown) => m.agent.request('PUT', `/api/v1/user/introductions/${id}/contact`, { via });
const act = (m: ActiveMember, id: string, body: unknown) => m.agent.post(`/api/v1/user/introductions/${id}/events`, body);

async function propose(a: ActiveMember, b: ActiveMember): Promise<string> {
  clock.advance(60_000);
  const response = await staff.post('/api/v1/dashboard/introductions', { a: a.id, b: b.id });
  const body = (await response.json()) as { introduction: { id: string } };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.introduction.id;
}

beforeAll(async () => {
  ({
    product,
    staff,
    members: [amina, youssef, sarah, karim],
  } = await startWithActiveMembers(clock, [
    ['Amina', 'femme', 29],
    ['Youssef', 'homme', 32],
    ['Sarah', 'femme', 27],
    ['Karim', 'homme', 30],
  ]));
}, 120_000);
afterAll(() => product.stop());

describe('contact through my walī only', () => {
  it('the choice needs the walī’s phone (French 400), and is kept with the walī', async () => {
    const refused = await put(amina.agent, { ...WALI, phone: '', email: 'pere@example.fr', contactVia: 'wali' });
    expect(refused.status).toBe(400);
    const error = ((await refused.json()) as { error: { issues: { message: string }[] } }).error;
    expect(error.issues.map((i) => i.message)).toContain(PHONE_NEEDED_FOR_WALI);
    expect((await put(amina.agent, { ...WALI, contactVia: 'par-pigeon' })).status).toBe(400);

    const saved = await put(amina.agent, { ...WALI, contactVia: 'wali' });
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(((await saved.json()) as { guardian: unknown }).guardian).toMatchObject({
      phone: WALI_PHONE,
      email: null,
      contactVia: 'wali',
      contactViaLabel: 'Uniquement par mon walī',
    });
    expect((await put(youssef.agent, YOUSSEF_BROTHER)).status).toBe(200);
  });

  it('at mutual acceptance Youssef gets her walī’s name and phone, never her phone or e-mail; his brother’s mail too', async () => {
    const id = await propose(amina, youssef);
    const [before] = await introductionsOf<View>(amina);
    expect(before?.myContactVia).toEqual({ via: 'wali', label: 'Uniquement par mon walī', fromSettings: true, waliPhone: true });
    clock.advance(3600_000);
    expect((await act(amina, id, { type: 'ACCEPT' })).status).toBe(200);
    expect((await act(youssef, id, { type: 'ACCEPT' })).status).toBe(200);

    const raw = await youssef.agent.get('/api/v1/user/introductions');
    const text = await raw.text();
    expect(text).toContain(WALI_PHONE);
    expect(text).toContain('Ahmed Benali');
    expect(text).not.toContain(AMINA_PHONE);
    expect(text).not.toContain(amina.email);
    const [his] = (JSON.parse(text) as { introductions: View[] }).introductions;
    expect(his?.contact).toEqual({
      via: 'wali',
      email: null,
      phone: null,
      guardian: { name: 'Ahmed Benali', relation: 'Père', email: null, phone: WALI_PHONE },
    });
    // Amina, who shares her own way, reads Youssef's own contact.
    const [hers] = await introductionsOf<View>(amina);
    expect(hers?.contact).toMatchObject({ via: 'moi', email: youssef.email });

    // Youssef's brother receives the walī's phone, not hers.
    await product.flushMail();
    const toBrother = await product.database.db.select().from(mailbox).where(eq(mailbox.toAddress, YOUSSEF_BROTHER.email));
    const contactMail = toBrother.find((m) => m.subject.includes('les coordonnées'));
    const mailText = (contactMail?.textBody ?? '').replace(/\s+/g, ' ');
    expect(mailText, mailText).toContain('uniquement par son walī');
    expect(mailText).toContain('06 55 44 33 22');
    expect(mailText).not.toContain(amina.email);
    expect(mailText).not.toContain('06 12 34 56 78');

    // Staff see the walī and the choice on the introduction and on her file.
    const detail = await staff.json<{ contact: { a: { via: string; fromSettings: boolean; guardian: { phone: string } | null } } }>(
      staff.get(`/api/v1/dashboard/introductions/${id}`),
    );
    expect(detail.contact.a).toMatchObject({ via: 'wali', fromSettings: true, guardian: { phone: WALI_PHONE } });
    const file = await staff.json<{ guardian: { contactVia: string; phone: string; email: string | null } | null }>(
      staff.get(`/api/v1/dashboard/members/${amina.id}`),
    );
    expect(file.guardian).toMatchObject({ contactVia: 'wali', phone: WALI_PHONE, email: null });

    // Chosen otherwise for this introduction: her own contact, then back to the settings' choice.
    const own = await choose(amina, id, 'moi');
    expect(own.status, await own.clone().text()).toBe(200);
    expect(((await own.json()) as { introduction: View }).introduction.myContactVia).toMatchObject({ via: 'moi', fromSettings: false });
    expect((await introductionsOf<View>(youssef))[0]?.contact).toMatchObject({ via: 'moi', email: amina.email, phone: AMINA_PHONE });
    expect((await choose(amina, id, 'reglages')).status).toBe(200);
    expect(JSON.stringify(await introductionsOf<View>(youssef))).not.toContain(AMINA_PHONE);
  });

  it('per introduction: « walī » without a walī’s phone is refused in French; not the member’s, 404; bad body, 400', async () => {
    const id = await propose(sarah, karim);
    const refused = await choose(sarah, id, 'wali');
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('numéro de téléphone');
    expect((await choose(amina, id, 'moi')).status).toBe(404);
    expect((await choose(sarah, id, 'tout')).status).toBe(400);
    expect((await choose(sarah, '00000000-0000-4000-8000-000000000000', 'moi')).status).toBe(404);

    // With a walī's phone, Sarah chooses it for this introduction only (her settings say « moi »).
    expect((await put(sarah.agent, { ...WALI, name: 'Yacine Amrani', relation: 'frere' })).status).toBe(200);
    const chosen = await choose(sarah, id, 'wali');
    expect(chosen.status, await chosen.clone().text()).toBe(200);
    clock.advance(3600_000);
    expect((await act(sarah, id, { type: 'ACCEPT' })).status).toBe(200);
    expect((await act(karim, id, { type: 'ACCEPT' })).status).toBe(200);
    const text = JSON.stringify(await introductionsOf<View>(karim));
    expect(text).toContain('Yacine Amrani');
    expect(text).not.toContain(sarah.email);
  });
});
