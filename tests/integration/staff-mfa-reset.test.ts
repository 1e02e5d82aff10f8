import { and, eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { mailOutbox, onboardingEvents } from '#bff/db/schema.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, TEST_SITE } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

let n = 0;
async function member() {
  n += 1;
  const agent = product.agent();
  const email = `equipe-reset.${n}.${Date.now()}@example.fr`;
  expect((await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' })).status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id, email };
}

const resetPath = (id: string) => `/api/v1/dashboard/staff/${id}/reset-mfa`;
const factorsOf = async (userId: string) => (await adminClient(product.auth).auth.admin.mfa.listFactors({ userId })).data?.factors ?? [];
const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe('POST /api/v1/dashboard/staff/:id/reset-mfa — a colleague’s lost second factor', () => {
  it('refuses anonymous (401), members and staff at aal1 (403), a cross-site write (403), and deletes nothing', async () => {
    const colleague = await signInStaff(product);
    await colleague.passTotp();
    const someMember = await member();
    const staffAal1 = await signInStaff(product);
    const staffAal2 = await signInStaff(product);
    await staffAal2.passTotp();

    expect((await product.agent().post(resetPath(colleague.id), {})).status).toBe(401);
    const asMember = await someMember.agent.post(resetPath(colleague.id), {});
    expect(asMember.status).toBe(403);
    expect(await errorCode(asMember)).toBe('FORBIDDEN');
    const asAal1 = await staffAal1.agent.post(resetPath(colleague.id), {});
    expect(asAal1.status).toBe(403);
    expect(await errorCode(asAal1)).toBe('MFA_REQUIRED');
    // Staff at aal2, but the write comes from another site.
    const crossSite = await staffAal2.agent.post(resetPath(colleague.id), {}, { origin: 'https://ailleurs.example' });
    expect(crossSite.status).toBe(403);
    expect(await errorCode(crossSite)).toBe('CROSS_SITE_REQUEST');
    // The list is staff-at-aal2 only too.
    expect((await someMember.agent.get('/api/v1/dashboard/staff')).status).toBe(403);
    expect((await staffAal1.agent.get('/api/v1/dashboard/staff')).status).toBe(403);

    expect(await factorsOf(colleague.id)).toEqual([expect.objectContaining({ status: 'verified' })]);
    const logged = await product.database.db.select().from(onboardingEvents).where(eq(onboardingEvents.memberId, colleague.id));
    expect(logged).toEqual([]);
  });

  it('refuses one’s own factor, a member, an unknown or malformed id', async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    const someMember = await member();

    const self = await staff.agent.post(resetPath(staff.id), {});
    expect(self.status).toBe(400);
    expect(await errorCode(self)).toBe('SELF_RESET_REFUSED');
    expect(await factorsOf(staff.id)).toHaveLength(1);

    const notStaff = await staff.agent.post(resetPath(someMember.id), {});
    expect(notStaff.status).toBe(404);
    expect(await errorCode(notStaff)).toBe('STAFF_NOT_FOUND');
    const unknown = await staff.agent.post(resetPath('00000000-0000-4000-8000-000000000000'), {});
    expect(unknown.status).toBe(404);
    const malformed = await staff.agent.post(resetPath('pas-un-identifiant'), {});
    expect(malformed.status).toBe(400);
    expect(await errorCode(malformed)).toBe('VALIDATION_FAILED');
    // The member's own account is untouched.
    expect((await someMember.agent.get('/api/v1/user/settings')).status).toBe(200);
  });

  it('resets a colleague: factors deleted, logged with who and when, French notice mailed; the colleague enrols again', async () => {
    const colleague = await signInStaff(product);
    await colleague.passTotp();
    const staff = await signInStaff(product);
    await staff.passTotp();

    const before = await staff.agent.json<{ staff: { id: string; secondFactor: string; self: boolean }[] }>(
      staff.agent.get('/api/v1/dashboard/staff'),
    );
    expect(before.staff.find((s) => s.id === colleague.id)).toMatchObject({ secondFactor: 'actif', self: false });
    expect(before.staff.find((s) => s.id === staff.id)).toMatchObject({ self: true });

    expect((await colleague.agent.get('/api/v1/dashboard/funnel')).status).toBe(200);
    const reset = await staff.agent.post(resetPath(colleague.id), {});
    expect(reset.status).toBe(200);
    // The colleague's open session was raised by the deleted factor: it is refused at once.
    expect((await colleague.agent.get('/api/v1/dashboard/funnel')).status).toBe(401);
    expect((await colleague.agent.get('/api/v1/user/settings')).status).toBe(401);
    const body = (await reset.json()) as { id: string; removedFactors: number; resetAt: string; resetBy: string };
    expect(body).toMatchObject({ id: colleague.id, removedFactors: 1, resetBy: staff.email });
    expect(await factorsOf(colleague.id)).toEqual([]);

    // Logged: who did it, to whom, when.
    const [event] = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(and(eq(onboardingEvents.memberId, colleague.id), eq(onboardingEvents.context, 'mfa_reset')));
    expect(event).toMatchObject({ event: 'RESET_MFA', actorId: staff.id, actorRole: 'staff' });
    expect(event?.createdAt.toISOString()).toBe(body.resetAt);
    const after = await staff.agent.json<{
      staff: { id: string; secondFactor: string; lastReset: { at: string; byEmail: string } | null }[];
    }>(staff.agent.get('/api/v1/dashboard/staff'));
    expect(after.staff.find((s) => s.id === colleague.id)).toMatchObject({
      secondFactor: 'aucun',
      lastReset: { at: body.resetAt, byEmail: staff.email },
    });

    // The French notice, to the colleague.
    const mails = await product.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, colleague.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: 'staff-mfa-reset', subject: 'Votre second facteur a été réinitialisé' });
    expect(mails[0]?.textBody).toContain(`${TEST_SITE}/dashboard/connexion`);
    expect(mails[0]?.textBody).toContain(staff.email);
    expect(mails[0]?.textBody).toContain('nouveau QR code');

    // At the next sign-in the colleague has no factor to give a code for: enrolment starts again.
    const again = product.agent();
    expect((await again.post('/api/v1/auth/signin', { email: colleague.email, password: 'equipe-solide-2026' })).status).toBe(200);
    expect(await again.json(again.get('/api/v1/auth/mfa'))).toEqual({ aal: 'aal1', factors: [] });
    expect((await again.get('/api/v1/dashboard/funnel')).status).toBe(403);
    const enrolled = await again.json<{ factorId: string; secret: string }>(again.post('/api/v1/auth/mfa/enroll', {}));
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.secret) }).generate();
    expect((await again.post('/api/v1/auth/mfa/verify', { factorId: enrolled.factorId, code })).status).toBe(200);
    expect((await again.get('/api/v1/dashboard/funnel')).status).toBe(200);
  });

  it('enrolment after a reload replaces the unfinished factor: a new QR code at once, and its code verifies', async () => {
    const staff = await signInStaff(product);
    const first = await staff.agent.json<{ factorId: string; secret: string }>(staff.agent.post('/api/v1/auth/mfa/enroll', {}));
    // The page is reloaded before any code was typed: the SPA finds no verified factor and enrols again.
    expect(await staff.agent.json(staff.agent.get('/api/v1/auth/mfa'))).toEqual({ aal: 'aal1', factors: [] });
    const second = await staff.agent.post('/api/v1/auth/mfa/enroll', {});
    expect(second.status).toBe(201);
    const enrolled = (await second.json()) as { factorId: string; secret: string; qrCode: string };
    expect(enrolled.factorId).not.toBe(first.factorId);
    expect(enrolled.qrCode).toContain('svg');
    expect((await factorsOf(staff.id)).map((f) => f.id)).toEqual([enrolled.factorId]);
    const stale = new TOTP({ secret: Secret.fromBase32(first.secret) }).generate();
    expect((await staff.agent.post('/api/v1/auth/mfa/verify', { factorId: first.factorId, code: stale })).status).toBe(400);
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.secret) }).generate();
    expect((await staff.agent.post('/api/v1/auth/mfa/verify', { factorId: enrolled.factorId, code })).status).toBe(200);
    expect((await staff.agent.get('/api/v1/dashboard/funnel')).status).toBe(200);
  });
});
