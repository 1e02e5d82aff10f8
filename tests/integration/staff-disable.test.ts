import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct } from '#tests/support/test-product.ts';
import { signUp } from '#tests/support/sign-up.ts';

/** Disabling and re-enabling a colleague from `/dashboard/equipe` (issue 21, decision 124). */

let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

const code = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
const sessionsOf = async (userId: string) =>
  (
    (await product.database.db.execute(
      sql`SELECT count(*)::int AS n FROM embedded_auth.sessions WHERE user_id = ${userId}::uuid`,
    )) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]?.n;

describe('POST /api/v1/dashboard/staff/:id/disable and /enable', () => {
  it('disables a colleague: their open sessions end (401), sign-in is refused; re-enabling lets them back in', async () => {
    const admin = await signInStaff(product);
    await admin.passTotp();
    const colleague = await signInStaff(product);
    await colleague.passTotp();
    expect((await colleague.agent.get('/api/v1/dashboard/staff')).status).toBe(200);
    expect(await sessionsOf(colleague.id)).toBeGreaterThan(0);

    const disabled = await admin.agent.post(`/api/v1/dashboard/staff/${colleague.id}/disable`, {});
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toEqual({ id: colleague.id, disabled: true, changed: true });
    // The copied cookie is refused at once; the sessions are gone; a new sign-in is refused.
    expect((await colleague.agent.get('/api/v1/dashboard/staff')).status).toBe(401);
    expect((await colleague.agent.get('/api/v1/user/settings')).status).toBe(401);
    expect(await sessionsOf(colleague.id)).toBe(0);
    const again = await product.agent().post('/api/v1/auth/signin', { email: colleague.email, password: 'equipe-solide-2026' });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    // The list says so; the change is logged with who did it.
    const list = await admin.agent.json<{ staff: { id: string; disabled: boolean }[] }>(admin.agent.get('/api/v1/dashboard/staff'));
    expect(list.staff.find((s) => s.id === colleague.id)?.disabled).toBe(true);
    const logged = await product.database.db
      .select()
      .from(onboardingEvents)
      .where(and(eq(onboardingEvents.memberId, colleague.id), eq(onboardingEvents.context, 'ban')));
    expect(logged.map((e) => [e.event, e.actorId])).toEqual([['DISABLE', admin.id]]);
    // Twice changes nothing more.
    expect(await (await admin.agent.post(`/api/v1/dashboard/staff/${colleague.id}/disable`, {})).json()).toMatchObject({ changed: false });

    const enabled = await admin.agent.post(`/api/v1/dashboard/staff/${colleague.id}/enable`, {});
    expect(enabled.status).toBe(200);
    const back = product.agent();
    expect((await back.post('/api/v1/auth/signin', { email: colleague.email, password: 'equipe-solide-2026' })).status).toBe(200);
    const [row] = await product.database.db.select().from(members).where(eq(members.id, colleague.id));
    expect(row?.disabled).toBe(false);
  });

  it('never oneself, never a member, never for members or staff at aal1; malformed ids are 400', async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    const aal1 = await signInStaff(product);
    const agent = product.agent();
    const email = `equipe-membre.${Date.now()}@example.fr`;
    expect((await signUp(agent, { context: 'init', email, role: 'femme', password: 'bismillah-2026' })).status).toBe(201);
    const { id: memberId } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));

    const self = await staff.agent.post(`/api/v1/dashboard/staff/${staff.id}/disable`, {});
    expect(self.status).toBe(400);
    expect(await code(self)).toBe('SELF_DISABLE_REFUSED');
    const notStaff = await staff.agent.post(`/api/v1/dashboard/staff/${memberId}/disable`, {});
    expect(notStaff.status).toBe(404);
    expect(await code(notStaff)).toBe('STAFF_NOT_FOUND');
    expect((await staff.agent.post('/api/v1/dashboard/staff/pas-un-id/disable', {})).status).toBe(400);
    expect((await agent.post(`/api/v1/dashboard/staff/${staff.id}/disable`, {})).status).toBe(403);
    expect(await code(await aal1.agent.post(`/api/v1/dashboard/staff/${staff.id}/disable`, {}))).toBe('MFA_REQUIRED');
    expect((await staff.agent.get('/api/v1/dashboard/staff')).status).toBe(200);
    expect((await agent.get('/api/v1/user/settings')).status).toBe(200);
  });
});
