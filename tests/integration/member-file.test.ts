import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { parseConfig } from '#bff/config.ts';
import { accessLog } from '#bff/db/access-log-schema.ts';
import { memberGuardians } from '#bff/db/guardian-schema.ts';
import { members } from '#bff/db/schema.ts';
import { seedDemoAgency } from '#bff/demo/agency.ts';
import { DEMO_AGENCY_ACCOUNTS } from '#bff/demo/cast.ts';
import { DEMO_ACCOUNTS, seedDemo } from '#bff/demo/seed.ts';
import type { MemberSummary } from '#bff/dashboard/member-summary.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct } from '#tests/support/test-product.ts';

/**
 * A member's file on one screen (issue 63 point 2, decision 209): the header's one answer
 * (`GET /dashboard/members/:id/summary`) and the member's introductions, on the demo agency:
 * words, never codes; a counsellor reaches their own members only; every read is recorded.
 */

let product: Awaited<ReturnType<typeof startTestProduct>>;
let admin: Awaited<ReturnType<typeof signInStaff>>;
let counsellor: Awaited<ReturnType<typeof signInStaff>>;
let salma: string;
const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: 'http://localhost:3999' });

beforeAll(async () => {
  product = await startTestProduct();
  const client = adminClient(product.auth);
  await seedDemo(client, product.database.db);
  const staff = DEMO_ACCOUNTS.filter((a) => a.kind === 'staff');
  const demoCounsellor = DEMO_ACCOUNTS.find((a) => 'staffRole' in a && a.staffRole === 'conseil');
  await seedDemoAgency(client, product.database.db, config, {
    now: product.clock.now(),
    staffEmail: staff[0]?.email as string,
    counsellorEmail: demoCounsellor?.email as string,
  });
  const [row] = await product.database.db.select({ id: members.id }).from(members).where(eq(members.email, DEMO_AGENCY_ACCOUNTS[0].email));
  salma = row?.id as string;
  admin = await signInStaff(product);
  await admin.passTotp();
  counsellor = await signInStaff(product, { staffRole: 'conseil' });
  await counsellor.passTotp();
}, 120_000);
afterAll(() => product.stop());

const summaryOf = (id: string) => admin.agent.json<MemberSummary>(admin.agent.get(`/api/v1/dashboard/members/${id}/summary`));

describe('the file’s header', () => {
  it('says who the member is and where they stand, in words', async () => {
    await product.database.db.insert(memberGuardians).values({
      memberId: salma,
      name: 'Ahmed Demo',
      relation: 'pere',
      phone: '+33612345678',
      receives: 'coordonnees',
      contactVia: 'wali',
      informedAt: new Date(),
    });
    const summary = await summaryOf(salma);
    expect(summary.firstName).toBe('Salma');
    expect(summary.lastName).toEqual(expect.any(String));
    expect(summary.age).toBe(28);
    expect(summary.city).toEqual(expect.any(String));
    expect(summary.stage.label).toBe('Membre actif');
    // The demo counsellor follows Salma.
    expect(summary.counsellor?.name).toEqual(expect.any(String));
    expect(summary.contract).toMatchObject({ planLabel: 'Sérénité, 12 mois en 12 mensualités', statusLabel: 'En cours' });
    expect(Date.parse(summary.contract.signedAt ?? '')).toBeLessThan(Date.parse(summary.contract.endsAt ?? ''));
    expect(summary.guardian).toEqual({
      name: 'Ahmed Demo',
      relationLabel: 'Père',
      phone: '06 12 34 56 78',
      contactLabel: 'Uniquement par son walī',
    });
    // Tags as typed.
    expect((await admin.agent.post(`/api/v1/dashboard/members/${salma}/tags`, { tag: 'VIP' })).status).toBe(201);
    expect((await summaryOf(salma)).tags).toEqual(['VIP']);
  });

  it('lists every introduction of the member with the other person’s first name and the state in words', async () => {
    const { introductions } = await admin.agent.json<{
      introductions: { other: { firstName: string | null }; stateLabel: string; open: boolean }[];
    }>(admin.agent.get(`/api/v1/dashboard/members/${salma}/introductions`));
    expect(introductions.length).toBeGreaterThanOrEqual(2);
    expect(introductions.map((i) => i.other.firstName)).toEqual(expect.arrayContaining(['Karim', 'Adam']));
    for (const i of introductions) expect(i.stateLabel).toMatch(/^[A-ZÀ-Ü]/);
    expect(introductions.map((i) => i.stateLabel).join(' ')).not.toMatch(/[a-z]+-[a-z]+\.|attente\./);
  });

  it('answers 400 to a malformed id and 404 to an unknown member, in French', async () => {
    expect((await admin.agent.get('/api/v1/dashboard/members/pas-un-id/summary')).status).toBe(400);
    const unknown = await admin.agent.get('/api/v1/dashboard/members/00000000-0000-4000-8000-000000000000/summary');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { message: 'Membre introuvable.' } });
  });
});

describe('the counsellor’s scope and the access log', () => {
  it('a counsellor gets 403 on a member who is not theirs, and reads nothing', async () => {
    for (const path of ['summary', 'introductions']) {
      const response = await counsellor.agent.get(`/api/v1/dashboard/members/${salma}/${path}`);
      expect(response.status, path).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'NOT_YOUR_MEMBER' } });
    }
    const entries = await product.database.db.select().from(accessLog).where(eq(accessLog.staffId, counsellor.id));
    expect(entries).toEqual([]);
    // Once the member is theirs, they read the header.
    const assigned = await admin.agent.request('PUT', `/api/v1/dashboard/members/${salma}/counsellor`, { counsellorId: counsellor.id });
    expect(assigned.status).toBe(200);
    expect((await counsellor.agent.get(`/api/v1/dashboard/members/${salma}/summary`)).status).toBe(200);
  });

  it('each read of the header and of the introductions is recorded, naming the member', async () => {
    const [last] = await product.database.db.select({ id: accessLog.id }).from(accessLog).orderBy(accessLog.id);
    const rows = await product.database.db.select({ id: accessLog.id }).from(accessLog);
    const since = rows.reduce((max, r) => Math.max(max, r.id), last?.id ?? 0);
    expect((await admin.agent.get(`/api/v1/dashboard/members/${salma}/summary`)).status).toBe(200);
    expect((await admin.agent.get(`/api/v1/dashboard/members/${salma}/introductions`)).status).toBe(200);
    const entries = await product.database.db
      .select()
      .from(accessLog)
      .where(and(eq(accessLog.staffId, admin.id), gt(accessLog.id, since)))
      .orderBy(accessLog.id);
    expect(entries.map((e) => [e.memberId, e.resource])).toEqual([
      [salma, 'member_file'],
      [salma, 'member_introductions'],
    ]);
  });
});
