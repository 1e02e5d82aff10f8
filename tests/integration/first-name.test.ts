import { describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { samplePayloads } from '#tests/support/happy-path.ts';
import { sendUpdate, signUpMember } from '#tests/support/member-walk.ts';
import { startTestProduct, type TestProduct } from '#tests/support/test-product.ts';
import { afterAll, beforeAll } from 'vitest';

/** Members are greeted by first name (issue 63): the session and the settings carry the one of their answers. */
const clock = fakeClock(new Date());
let product: TestProduct;
beforeAll(async () => {
  product = await startTestProduct({ clock });
});
afterAll(() => product?.stop());

describe('the member’s first name in the session', () => {
  it('is null before step 1, then the first name of the answers, in the session and the settings', async () => {
    const member = await signUpMember(product, 'prenom');
    const session = async () =>
      (await member.agent.json<{ user: { firstName: string | null } }>(member.agent.get('/api/v1/auth/session'))).user;
    expect((await session()).firstName).toBeNull();
    const profil = { ...samplePayloads(member, clock.now().getTime()).profil, firstName: 'Amina' };
    expect((await sendUpdate(member.agent, profil)).status).toBe(200);
    expect((await session()).firstName).toBe('Amina');
    const settings = await member.agent.json<{ firstName: string | null; email: string }>(member.agent.get('/api/v1/user/settings'));
    expect(settings.firstName).toBe('Amina');
  });
});
