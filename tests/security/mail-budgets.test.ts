import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '#bff/stand-ins/auth-service/rate-limit.ts';
import { mailOutbox } from '#bff/db/schema.ts';
import { type OutsideProduct, startOutsideProduct, tally } from '#tests/security/outsider.ts';

/**
 * Issue 60, point 2: nobody can silence a member's account mail. Before, 29 anonymous
 * `/auth/v1/recover` for made-up addresses emptied the service-wide budget (30 an hour, taken before
 * the address was looked up), and a member's reset then answered 200 and sent nothing. Now the
 * flood empties only the flooder's own budget, made-up addresses cost the service nothing, and
 * the answer is the same for an address with an account and one without.
 */
let target: OutsideProduct;
beforeAll(async () => {
  target = await startOutsideProduct({ TRUST_PROXY: '1' });
});
afterAll(() => target.stop());

const from = (address: string) => ({ 'x-forwarded-for': address });

async function recoveryMails(email: string) {
  return target.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'auth-recovery')))
    .orderBy(desc(mailOutbox.id));
}

describe('account mail budgets', () => {
  it('a flood of resets for made-up addresses from one client leaves a member’s reset going out', async () => {
    const { email } = await target.registeredMember();
    const flood = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        target.outside('/auth/v1/recover', { body: { email: `invente.${i}.${Date.now()}@example.fr` }, headers: from('203.0.113.9') }),
      ),
    );
    const counts = tally(flood.map((r) => r.status));
    // The flooder's own budget: the first few answered as any address would be, then 429.
    expect(counts[200] ?? 0).toBeLessThanOrEqual(DEFAULT_LIMITS.mailPerClient.points);
    expect(counts[429] ?? 0).toBeGreaterThan(0);
    // More flooding from many addresses, in sequence (each within its own budget).
    for (let i = 0; i < 40; i += 1) {
      const response = await target.outside('/auth/v1/recover', {
        body: { email: `invente.bis.${i}.${Date.now()}@example.fr` },
        headers: from(`198.51.100.${i + 1}`),
      });
      expect(response.status).toBe(200);
    }
    // The member's own request, from the member's address: answered and mailed.
    const reset = await target.outside('/auth/v1/recover', { body: { email }, headers: from('192.0.2.33') });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toEqual({});
    expect(await recoveryMails(email)).toHaveLength(1);
  });

  it('answers the same for an address with an account and one without, and a budget refusal alike', async () => {
    const { email } = await target.registeredMember();
    const unknown = `personne.${Date.now()}@example.fr`;
    const known = await target.outside('/auth/v1/recover', { body: { email }, headers: from('192.0.2.40') });
    const nobody = await target.outside('/auth/v1/recover', { body: { email: unknown }, headers: from('192.0.2.40') });
    expect([known.status, await known.text()]).toEqual([nobody.status, await nobody.text()]);
    // A client that spent its budget is refused alike, whatever the address.
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_LIMITS.mailPerClient.points + 1; i += 1) {
      statuses.push(
        (await target.outside('/auth/v1/recover', { body: { email: `x.${i}.${unknown}` }, headers: from('192.0.2.41') })).status,
      );
    }
    expect(statuses.at(-1)).toBe(429);
    const knownRefused = await target.outside('/auth/v1/recover', { body: { email: `zz.${email}` }, headers: from('192.0.2.41') });
    const knownAfter = await target.outside('/auth/v1/recover', { body: { email }, headers: from('192.0.2.41') });
    expect([knownAfter.status, await knownAfter.text()]).toEqual([knownRefused.status, await knownRefused.text()]);
  });
});
