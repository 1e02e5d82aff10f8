import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agendaItems } from '#bff/agenda/agenda.ts';
import { adminClient, statelessClient } from '#bff/auth/supabase.ts';
import { contracts } from '#bff/db/contracts-schema.ts';
import { memberCounsellors } from '#bff/db/follow-up-schema.ts';
import { instalments } from '#bff/db/instalments-schema.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
import { invoices } from '#bff/db/invoices-schema.ts';
import { contactMessages } from '#bff/db/leads-schema.ts';
import { directMessages } from '#bff/db/messages-schema.ts';
import { memberPhotos } from '#bff/db/photos-schema.ts';
import { refunds } from '#bff/db/refunds-schema.ts';
import { members, preSubscriptions } from '#bff/db/schema.ts';
import { seedDemoAgency } from '#bff/demo/agency.ts';
import { CAST, DEMO_AGENCY_ACCOUNTS } from '#bff/demo/cast.ts';
import { DEMO_ACCOUNTS, seedDemo } from '#bff/demo/seed.ts';
import { passwordWeakness } from '#bff/auth/password-strength.ts';
import { stateLabels } from '#machines/introductions/labels.ts';
import { recordOf } from '#bff/members/members.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stepIds } from '#machines/onboarding/step-ids.ts';
import { topStateOf } from '#machines/onboarding/steps.ts';
import { startTestProduct } from '#tests/support/test-product.ts';
import { parseConfig } from '#bff/config.ts';

let product: Awaited<ReturnType<typeof startTestProduct>>;
let firstRunMs = 0;
const staff = DEMO_ACCOUNTS.filter((a) => a.kind === 'staff');
const counsellor = DEMO_ACCOUNTS.find((a) => 'staffRole' in a && a.staffRole === 'conseil');
const config = parseConfig({ NODE_ENV: 'test', PORT: '3999', PUBLIC_SITE_URL: 'http://localhost:3999' });

beforeAll(async () => {
  product = await startTestProduct();
  const admin = adminClient(product.auth);
  await seedDemo(admin, product.database.db);
  const started = performance.now();
  const report = await seedDemoAgency(admin, product.database.db, config, {
    now: product.clock.now(),
    staffEmail: staff[0]?.email as string,
    counsellorEmail: counsellor?.email as string,
  });
  firstRunMs = performance.now() - started;
  expect(report.seeded).toBe(true);
}, 120_000);
afterAll(() => product.stop());

const db = () => product.database.db;

describe('the demo agency (issue 63)', () => {
  it('spreads about forty members over every step of the onboarding and every end of a contract', async () => {
    console.info(`agence de démonstration : ${CAST.length} membres en ${Math.round(firstRunMs)} ms`);
    const rows = await db().select().from(members).where(eq(members.role, 'member'));
    const now = product.clock.now().getTime();
    const states = new Map<string, number>();
    for (const row of rows) {
      const top = topStateOf(stateFromRecord(recordOf(row), now));
      states.set(top, (states.get(top) ?? 0) + 1);
    }
    expect(rows.length).toBeGreaterThanOrEqual(40);
    for (const step of stepIds) expect(states.get(step) ?? 0, step).toBeGreaterThan(0);
    for (const state of ['membre-actif', 'resiliation-demandee', 'renonce', 'retracte', 'resilie', 'contrat-termine', 'desactive'])
      expect(states.get(state) ?? 0, state).toBeGreaterThan(0);
    expect(states.get('membre-actif')).toBeGreaterThanOrEqual(14);
    // The contracts' ledger says the same ends.
    const stops = await db().select({ reason: contracts.stopReason, n: count() }).from(contracts).groupBy(contracts.stopReason);
    expect(Object.fromEntries(stops.map((s) => [s.reason ?? 'en-cours', Number(s.n)]))).toMatchObject({
      renunciation: 1,
      withdrawal: 1,
      termination: 1,
      term: 1,
    });
    // Pictures: made, never a face, through the photo store; and the counsellor's members.
    const [photos] = await db().select({ n: count() }).from(memberPhotos);
    expect(Number(photos?.n)).toBeGreaterThanOrEqual(30);
    const [assigned] = await db().select({ n: count() }).from(memberCounsellors);
    expect(Number(assigned?.n)).toBeGreaterThanOrEqual(8);
    const [role] = await db()
      .select({ role: members.staffRole })
      .from(members)
      .where(eq(members.email, counsellor?.email as string));
    expect(role?.role).toBe('conseil');
  });

  it('has an introduction in each state, with their events', async () => {
    const rows = await db().select({ state: introductions.state }).from(introductions);
    const states = new Set(rows.map((r) => r.state));
    for (const state of Object.keys(stateLabels).filter((s) => s !== 'proposee')) expect(states, state).toContain(state);
  });

  it('has payments with their invoices, instalments paid and failed, refunds with credit notes, leads, messages and the week’s meetings', async () => {
    const [invoiceCount] = await db().select({ n: count() }).from(invoices);
    expect(Number(invoiceCount?.n)).toBeGreaterThanOrEqual(40);
    const instalmentRows = await db().select({ status: instalments.status }).from(instalments);
    expect(instalmentRows.some((r) => r.status === 'paid')).toBe(true);
    expect(instalmentRows.some((r) => r.status === 'failed')).toBe(true);
    const refundRows = await db().select().from(refunds);
    expect(new Set(refundRows.map((r) => `${r.reason}:${r.status}`))).toEqual(new Set(['termination:pending', 'withdrawal:succeeded']));
    // Every signed member has the signed copy of their contract.
    const copies = await db().execute(sql`SELECT count(DISTINCT member_id)::int AS n FROM contract_copies`);
    expect(((copies as { rows: { n: number }[] }).rows[0] as { n: number }).n).toBe(
      CAST.filter((m) => m.signedDaysAgo !== undefined).length,
    );
    const creditNotes = await db().execute(sql`SELECT count(*)::int AS n FROM credit_notes`);
    expect(((creditNotes as { rows: { n: number }[] }).rows[0] as { n: number }).n).toBeGreaterThanOrEqual(2);
    // The leads: contact messages, and pre-registrations of which some opened an account and three did not.
    const pres = await db().select({ memberId: preSubscriptions.memberId }).from(preSubscriptions);
    expect(pres.filter((p) => p.memberId !== null).length).toBeGreaterThanOrEqual(15);
    expect(pres.filter((p) => p.memberId === null)).toHaveLength(3);
    const [leads] = await db().select({ n: count() }).from(contactMessages);
    expect(Number(leads?.n)).toBeGreaterThanOrEqual(3);
    const unread = await db().select().from(directMessages);
    expect(unread.filter((m) => m.direction === 'to_agency' && m.staffReadAt === null).length).toBeGreaterThanOrEqual(1);
    const now = product.clock.now().getTime();
    const week = await agendaItems(db(), now - 2 * 86_400_000, now + 7 * 86_400_000);
    const kinds = new Set(week.map((item) => item.kind));
    expect(week.length).toBeGreaterThanOrEqual(5);
    expect(kinds.size).toBeGreaterThanOrEqual(2);
  });

  it('lets the documented members sign in, with passwords a member could choose', async () => {
    for (const account of DEMO_AGENCY_ACCOUNTS) {
      expect(await passwordWeakness(account.password, [account.email])).toBeNull();
      const { error } = await statelessClient(product.auth).auth.signInWithPassword({ email: account.email, password: account.password });
      expect(error, account.email).toBeNull();
    }
  });

  it('is seeded once: a later start adds nothing', async () => {
    const before = await db().select({ n: count() }).from(members);
    const report = await seedDemoAgency(adminClient(product.auth), db(), config, {
      now: product.clock.now(),
      staffEmail: staff[0]?.email as string,
      counsellorEmail: counsellor?.email as string,
    });
    expect(report.seeded).toBe(false);
    const after = await db().select({ n: count() }).from(members);
    expect(after).toEqual(before);
    const [intros] = await db().select({ n: count() }).from(introductions);
    expect(Number(intros?.n)).toBe(10);
  });
});
