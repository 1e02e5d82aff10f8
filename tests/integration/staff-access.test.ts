import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, type TestAgent } from '#tests/support/test-product.ts';
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
  const email = `matrice.${n}.${Date.now()}@example.fr`;
  expect((await signUp(agent, { context: 'init', email, role: 'homme', password: 'bismillah-2026' })).status).toBe(201);
  const { id } = await agent.json<{ id: string }>(agent.get('/api/v1/user/settings'));
  return { agent, id };
}

describe('staff second factor and the ban', () => {
  it('staff reaches aal2 only with a valid TOTP code from the enrolled secret', async () => {
    const staff = await signInStaff(product);
    expect((await staff.agent.json<{ aal: string }>(staff.agent.get('/api/v1/user/settings'))).aal).toBe('aal1');
    const enrolled = await staff.agent.json<{ factorId: string; secret: string; qrCode: string; uri: string }>(
      staff.agent.post('/api/v1/auth/mfa/enroll', {}),
    );
    expect(enrolled.qrCode).toContain('svg');
    expect(enrolled.uri).toMatch(/^otpauth:\/\/totp\//);
    const wrong = await staff.agent.post('/api/v1/auth/mfa/verify', { factorId: enrolled.factorId, code: '000000' });
    expect(wrong.status).toBe(400);
    const { TOTP, Secret } = await import('otpauth');
    const code = new TOTP({ secret: Secret.fromBase32(enrolled.secret) }).generate();
    expect((await staff.agent.post('/api/v1/auth/mfa/verify', { factorId: enrolled.factorId, code })).status).toBe(200);
    expect((await staff.agent.json<{ aal: string }>(staff.agent.get('/api/v1/user/settings'))).aal).toBe('aal2');
  });

  it('members cannot enrol a second factor through the staff route', async () => {
    const m = await member();
    expect((await m.agent.post('/api/v1/auth/mfa/enroll', {})).status).toBe(403);
  });

  it('POST /api/v1/auth/ban: anonymous 401, member 403, disabled member 401, staff aal1 403, staff aal2 200', async () => {
    const target = await member();
    const body = { disable: true, uid: target.id };
    const anonymous = product.agent();
    const someMember = await member();
    const disabledMember = await member();
    const staffAal1 = await signInStaff(product);
    const staffAal2 = await signInStaff(product);
    await staffAal2.passTotp();
    expect((await staffAal2.agent.post('/api/v1/auth/ban', { disable: true, uid: disabledMember.id })).status).toBe(200);

    const callers: [string, TestAgent, number][] = [
      ['anonymous', anonymous, 401],
      ['member', someMember.agent, 403],
      ['disabled member', disabledMember.agent, 401],
      ['staff aal1', staffAal1.agent, 403],
    ];
    for (const [who, agent, status] of callers) {
      const response = await agent.post('/api/v1/auth/ban', body);
      expect(response.status, who).toBe(status);
      expect((await target.agent.get('/api/v1/user/settings')).status, `${who} must not have banned`).toBe(200);
    }
    expect((await staffAal2.agent.post('/api/v1/auth/ban', body)).status).toBe(200);
    // The member's open session stops working at once (401, decision 100), and signing in again is refused.
    const refused = await target.agent.get('/api/v1/user/settings');
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Ce compte est désactivé. Contactez l’agence.',
    });
    // Lifting the ban restores access.
    expect((await staffAal2.agent.post('/api/v1/auth/ban', { disable: false, uid: target.id })).status).toBe(200);
  });

  it('refuses malformed ban payloads with the error shape', async () => {
    const staff = await signInStaff(product);
    await staff.passTotp();
    const bad = await staff.agent.post('/api/v1/auth/ban', { disable: 'oui', uid: 42 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('VALIDATION_FAILED');
  });
});
