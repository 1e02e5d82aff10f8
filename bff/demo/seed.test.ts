import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, statelessClient } from '#bff/auth/supabase.ts';
import { members, settings } from '#bff/db/schema.ts';
import { passwordWeakness } from '#bff/auth/password-strength.ts';
import { PASSWORD_MIN_LENGTH } from '#machines/auth/credentials.ts';
import { DEMO_ACCOUNTS, seedDemo } from '#bff/demo/seed.ts';
import { startTestProduct } from '#tests/support/test-product.ts';

let product: Awaited<ReturnType<typeof startTestProduct>>;
beforeAll(async () => {
  product = await startTestProduct();
});
afterAll(() => product.stop());

const account = (kind: string) => DEMO_ACCOUNTS.find((a) => a.kind === kind) as (typeof DEMO_ACCOUNTS)[number];

async function signsIn(email: string, password: string) {
  const { error } = await statelessClient(product.auth).auth.signInWithPassword({ email, password });
  return error === null;
}

describe('seedDemo', () => {
  it('replaces an auth user without its member row, never adopts it: a stopped start, or a stranger from before sign-up closed', async () => {
    const admin = adminClient(product.auth);
    // A start killed between the two writes of `ensureAccount` leaves the auth user only.
    const member = account('femme');
    const stopped = await admin.auth.admin.createUser({ email: member.email, password: member.password, email_confirm: true });
    expect(stopped.error).toBeNull();
    // Public sign-up is closed (decision 101)…
    const staff = account('staff');
    const refused = await statelessClient(product.auth).auth.signUp({ email: staff.email, password: 'mot-de-passe-du-squatteur' });
    expect(refused.error).toMatchObject({ status: 422, code: 'signup_disabled' });
    // …but an account a stranger made while it was open (or by any other way) may still exist.
    const squatted = await admin.auth.admin.createUser({ email: staff.email, password: 'mot-de-passe-du-squatteur', email_confirm: true });
    expect(squatted.error).toBeNull();
    const orphanIds = [stopped.data.user?.id, squatted.data.user?.id];

    await seedDemo(admin, product.database.db);
    const rows = await product.database.db.select({ id: members.id, email: members.email }).from(members);
    expect(rows.map((row) => row.email).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    const { data } = await admin.auth.admin.listUsers({ page: 1, perPage: 50 });
    for (const a of DEMO_ACCOUNTS) {
      // One auth user per address, the one the member row names, and new.
      const users = data.users.filter((user) => user.email === a.email);
      expect(users, a.email).toHaveLength(1);
      expect(rows.find((row) => row.email === a.email)?.id).toBe(users[0]?.id);
      expect(orphanIds).not.toContain(users[0]?.id);
      expect(users[0]?.app_metadata.role, a.email).toBe(a.kind);
    }
    // The stranger's password opens nothing; the staff account has the password the seed gave it.
    expect(await signsIn(staff.email, 'mot-de-passe-du-squatteur')).toBe(false);
    expect(await signsIn(staff.email, staff.password)).toBe(true);

    // A later start finds everything and creates nothing.
    await seedDemo(admin, product.database.db);
    expect(await product.database.db.select({ id: members.id }).from(members).where(eq(members.email, member.email))).toHaveLength(1);
    const after = await admin.auth.admin.listUsers({ page: 1, perPage: 50 });
    expect(after.data.users.map((user) => user.id).sort()).toEqual(data.users.map((user) => user.id).sort());
  });

  it('demo passwords meet the policy of a new password; a data folder seeded with the former ones gets these once', async () => {
    for (const a of DEMO_ACCOUNTS) {
      expect(a.password.length, a.email).toBeGreaterThanOrEqual(PASSWORD_MIN_LENGTH);
      expect(await passwordWeakness(a.password, [a.email, 'name' in a ? a.name : undefined]), a.email).toBeNull();
    }
    // An older data folder: the accounts hold the former passwords, and no marker says otherwise.
    const admin = adminClient(product.auth);
    const member = account('homme');
    const { data } = await admin.auth.admin.listUsers({ page: 1, perPage: 50 });
    const id = data.users.find((user) => user.email === member.email)?.id as string;
    expect((await admin.auth.admin.updateUserById(id, { password: 'demo-youssef-2026' })).error).toBeNull();
    await product.database.db.delete(settings).where(eq(settings.key, 'demo-passwords'));
    expect(await signsIn(member.email, member.password)).toBe(false);
    await seedDemo(admin, product.database.db);
    expect(await signsIn(member.email, member.password)).toBe(true);
    expect(await signsIn(member.email, 'demo-youssef-2026')).toBe(false);
  });
});
