import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { members } from '#bff/db/schema.ts';
import { DEMO_ACCOUNTS, seedDemo } from '#bff/demo/seed.ts';
import { startTestProduct } from '#tests/support/test-product.ts';

let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

describe('seedDemo', () => {
  it('completes the demo accounts a start stopped half-way left behind: an auth user without its member row', async () => {
    const admin = adminClient(product.auth);
    const half = DEMO_ACCOUNTS[0] as (typeof DEMO_ACCOUNTS)[number];
    // What a start killed between the two writes of `ensureAccount` leaves: the auth user only.
    const created = await admin.auth.admin.createUser({ email: half.email, password: half.password, email_confirm: true });
    expect(created.error).toBeNull();
    const authId = created.data.user?.id as string;

    await seedDemo(admin, product.database.db);
    const rows = await product.database.db.select({ id: members.id, email: members.email }).from(members);
    expect(rows.map((row) => row.email).sort()).toEqual(DEMO_ACCOUNTS.map((account) => account.email).sort());
    // The half-made account is adopted, not duplicated: its member row carries the auth user's id.
    expect(rows.find((row) => row.email === half.email)?.id).toBe(authId);

    // A later start finds everything and creates nothing.
    await seedDemo(admin, product.database.db);
    expect(await product.database.db.select({ id: members.id }).from(members).where(eq(members.email, half.email))).toHaveLength(1);
    const { data } = await admin.auth.admin.listUsers({ page: 1, perPage: 50 });
    expect(data.users.filter((user) => user.email === half.email)).toHaveLength(1);
  });
});
