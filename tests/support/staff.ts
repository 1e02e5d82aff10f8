import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, expect } from 'vitest';
import { adminClient } from '#bff/auth/supabase.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import type { Clock } from '#bff/clock.ts';
import type { Product } from '#bff/start.ts';
import type { StaffRole } from '#machines/staff/roles.ts';
import { startTestProduct, type TestAgent, type TestProduct } from '#tests/support/test-product.ts';

/**
 * Staff accounts are numbered per product (« Équipe 1 », « Équipe 2 »…), not per module: the
 * product tests share their modules from file to file (decision 199), and a file's names must not
 * depend on the files run before it in the same worker.
 */
const staffCounts = new WeakMap<object, number>();

/** A staff account signed in with password only (aal1), and a way to pass the TOTP step (aal2). */
export async function signInStaff(product: Product & { agent(): TestAgent }, options: { staffRole?: StaffRole } = {}) {
  const n = (staffCounts.get(product.database) ?? 0) + 1;
  staffCounts.set(product.database, n);
  const email = `equipe.${n}.${Date.now()}@example.fr`;
  const password = 'equipe-solide-2026';
  const { id } = await ensureAccount(adminClient(product.auth), product.database.db, {
    email,
    password,
    kind: 'staff',
    name: `Équipe ${n}`,
    ...(options.staffRole && { staffRole: options.staffRole }),
  });
  const agent = product.agent();
  const signin = await agent.post('/api/v1/auth/signin', { email, password });
  expect(signin.status).toBe(200);
  return {
    id,
    email,
    agent,
    /** Enrols a TOTP factor and verifies a code computed like an authenticator app would. */
    async passTotp() {
      const enrolled = await agent.json<{ factorId: string; secret: string; qrCode: string }>(agent.post('/api/v1/auth/mfa/enroll', {}));
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.secret), digits: 6, period: 30, algorithm: 'SHA1' });
      const verified = await agent.post('/api/v1/auth/mfa/verify', { factorId: enrolled.factorId, code: totp.generate() });
      expect(verified.status).toBe(200);
      return enrolled;
    },
  };
}

/** The product on `clock` and a staff account signed in past the TOTP step. */
export async function startWithStaff(clock: Clock) {
  const product = await startTestProduct({ clock });
  const staff = await signInStaff(product);
  await staff.passTotp();
  return { product, staff };
}

export type StaffSession = Awaited<ReturnType<typeof signInStaff>>;

/**
 * For the file or block that calls it: before its tests, `startWithStaff(clock)`, handed to `use`
 * (which keeps the product and the staff session); after them, the product stopped.
 */
export function startWithStaffForSuite(clock: Clock, use: (started: { product: TestProduct; staff: StaffSession }) => void): void {
  let product: TestProduct | undefined;
  beforeAll(async () => {
    const started = await startWithStaff(clock);
    product = started.product;
    use(started);
  });
  afterAll(() => product?.stop());
}
