import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { accessLog } from '#bff/db/access-log-schema.ts';
import { contractCopies } from '#bff/db/privacy-schema.ts';
import { ACCESS_RESOURCE_LABELS, STAFF_ROLE_LABEL } from '#bff/auth/access-log.ts';
import { RETENTION, runRetention } from '#bff/retention/retention-job.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import type { TestAgent, TestProduct } from '#tests/support/test-product.ts';
import { type StaffSession, startWithStaffForSuite } from '#tests/support/staff.ts';
import { signUp } from '#tests/support/sign-up.ts';

/**
 * The staff access log (decision 107, GDPR art. 5(2) and art. 9): every staff read of a member's
 * file is recorded in the same request; the member finds the entries in their export (by role);
 * staff review them per member; a read whose entry cannot be written fails; 12 months' retention.
 */

const clock = fakeClock(new Date());
let product: TestProduct;
let staff: StaffSession;
startWithStaffForSuite(clock, (started) => ({ product, staff } = started));

let n = 0;
async function memberWithProfile(): Promise<{ agent: TestAgent; id: string; email: string }> {
  n += 1;
  const agent = product.agent();
  const email = `consulte.${n}.${Date.now()}@example.fr`;
  const created = await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' });
  expect(created.status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  const answer = await agent.post('/api/v1/user/update', samplePayloads({ id, email, gender: 'femme' }, clock.now().getTime()).profil);
  expect(answer.status).toBe(200);
  return { agent, id, email };
}

interface StaffEntry {
  at: string;
  staff: { id: string; name: string };
  resource: string;
  label: string;
}

const entriesFor = async (id: string) =>
  (await staff.agent.json<{ entries: StaffEntry[] }>(staff.agent.get(`/api/v1/dashboard/members/${id}/access-log`))).entries;

describe('staff access log', () => {
  it('records each staff read of a member file, shows it to staff and, by role only, in the member’s export', async () => {
    const member = await memberWithProfile();
    expect(await entriesFor(member.id)).toEqual([]);

    const file = await staff.agent.get(`/api/v1/dashboard/members/${member.id}`);
    expect(file.status).toBe(200);
    const entries = await entriesFor(member.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      staff: { id: staff.id, name: expect.stringMatching(/^Équipe \d+$/) },
      resource: 'member_file',
      label: ACCESS_RESOURCE_LABELS.member_file,
    });
    expect(entries[0]?.at).toBe(clock.now().toISOString());
    // The entry carries the read's request id (what an operator finds in the logs).
    const [row] = await product.database.db.select().from(accessLog).where(eq(accessLog.memberId, member.id));
    expect(row?.requestId).toMatch(/^[0-9a-f-]{36}$/);

    // Reading the access log is not itself a read of the file; a refused read records nothing.
    expect((await member.agent.get(`/api/v1/dashboard/members/${member.id}`)).status).toBe(403);
    expect(await entriesFor(member.id)).toHaveLength(1);

    // The member's export: when, what, and who by role; never the staff member's address, name or id.
    const exported = await member.agent.get('/api/v1/user/export');
    expect(exported.status).toBe(200);
    const data = (await exported.json()) as { staffAccess: { at: string; by: string; what: string }[] };
    expect(data.staffAccess).toEqual([{ at: clock.now().toISOString(), by: STAFF_ROLE_LABEL, what: ACCESS_RESOURCE_LABELS.member_file }]);
    const text = JSON.stringify(data);
    expect(text).not.toContain(staff.email);
    expect(text).not.toContain(staff.id);
    expect(text).not.toMatch(/Équipe \d+/);
  });

  it('records the signed contract PDF read by staff, not a request for a contract that does not exist', async () => {
    const member = await memberWithProfile();
    const missing = await staff.agent.get(`/api/v1/dashboard/members/${member.id}/contract.pdf`);
    expect(missing.status).toBe(404);
    expect(await entriesFor(member.id)).toEqual([]);

    const pdf = new TextEncoder().encode('%PDF-1.7 contrat signé');
    await product.database.db.insert(contractCopies).values({
      memberId: member.id,
      signedAt: clock.now(),
      sha256: createHash('sha256').update(pdf).digest('hex'),
      pdf,
    });
    clock.advance(60_000);
    const read = await staff.agent.get(`/api/v1/dashboard/members/${member.id}/contract.pdf`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('application/pdf');
    const entries = await entriesFor(member.id);
    expect(entries.map((e) => e.resource)).toEqual(['signed_contract']);
    expect(entries[0]?.at).toBe(clock.now().toISOString());
  });

  it('fails the read, with nothing of the file, when its entry cannot be written', async () => {
    const member = await memberWithProfile();
    await product.database.db.execute(sql`ALTER TABLE access_log RENAME TO access_log_away`);
    try {
      const read = await staff.agent.get(`/api/v1/dashboard/members/${member.id}`);
      expect(read.status).toBe(500);
      const body = (await read.json()) as { error: { code: string; requestId: string }; profile?: unknown };
      expect(body.error.code).toBe('INTERNAL');
      expect(body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.profile).toBeUndefined();
      expect(JSON.stringify(body)).not.toContain(member.email);
    } finally {
      await product.database.db.execute(sql`ALTER TABLE access_log_away RENAME TO access_log`);
    }
    expect(await entriesFor(member.id)).toEqual([]);
  });

  it('is staff-only: 401 signed out, 403 for a member, 400 on a bad id, 404 for an unknown member', async () => {
    const member = await memberWithProfile();
    expect((await product.agent().get(`/api/v1/dashboard/members/${member.id}/access-log`)).status).toBe(401);
    expect((await member.agent.get(`/api/v1/dashboard/members/${member.id}/access-log`)).status).toBe(403);
    const bad = await staff.agent.get('/api/v1/dashboard/members/pas-un-id/access-log');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe('Paramètres invalides');
    const unknown = await staff.agent.get('/api/v1/dashboard/members/0b7e0f4e-8f5c-4c55-9a43-2a1f4f7c1d11/access-log');
    expect(unknown.status).toBe(404);
  });

  it('is append-only, and the retention job deletes entries older than 12 months', async () => {
    const member = await memberWithProfile();
    const db = product.database.db;
    const old = new Date(clock.now().getTime());
    old.setUTCMonth(old.getUTCMonth() - RETENTION.accessLogMonths - 1);
    await db.insert(accessLog).values({ memberId: member.id, staffId: staff.id, staffName: null, resource: 'member_file', createdAt: old });
    expect((await staff.agent.get(`/api/v1/dashboard/members/${member.id}`)).status).toBe(200);
    await expect(db.execute(sql`UPDATE access_log SET resource = 'signed_contract' WHERE member_id = ${member.id}`)).rejects.toThrow();

    const report = await runRetention({ db, clock });
    expect(report.accessLog).toBe(1);
    const left = await db.select().from(accessLog).where(eq(accessLog.memberId, member.id));
    expect(left.map((r) => r.createdAt.toISOString())).toEqual([clock.now().toISOString()]);
  });

  it('is told in the privacy policy: what is recorded, where the member finds it, and for how long', () => {
    const policy = readFileSync('content/pages/politique-de-confidentialite.md', 'utf8').replace(/\u00a0/g, ' ');
    expect(policy).toContain(
      'chaque consultation de votre dossier par l’équipe (profil, questionnaire, contrat) est enregistrée (qui, quand, quoi), et l’export de vos données vous en donne la date et la nature',
    );
    expect(policy).toContain(`| Journal des consultations de votre dossier par l’équipe | ${RETENTION.accessLogMonths} mois |`);
  });
});
