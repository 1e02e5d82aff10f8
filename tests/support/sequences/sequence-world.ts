import { sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { type SignedUpMember, signUpMember } from '#tests/support/member-walk.ts';
import { type StaffSession, signInStaff } from '#tests/support/staff.ts';
import { startTestProduct, TEST_SITE, type TestProduct } from '#tests/support/test-product.ts';

/**
 * Where the contract sequences run (issue 59, point 9): the whole product in-process on a
 * template database, driven over HTTP, its agency's clock moved through `POST /_local/clock`
 * (decision 170), which runs the agency's jobs at each day it crosses.
 *
 * Every sequence must be reproducible from its seed alone, so each one starts on a clean slate at
 * its own absolute instant:
 * - **Clean slate.** Between sequences every table that was empty when the product started is
 *   emptied and every member but staff deleted (the agency's clock offset and the stand-ins'
 *   secrets, in `settings`, stay). A fresh product per sequence would cost 2–3 s each.
 * - **Absolute instants.** The agency's clock is its base clock plus an offset that only grows;
 *   the test owns the base clock and sets it so that the agency's time is the sequence's start.
 *   Sessions are issued on the base clock and checked by the BFF on real time, so the base clock
 *   must never be behind real time when a member signs up; and the embedded auth service's API
 *   keys, issued at the product's start, last ten years on that clock. The sequences therefore
 *   start in 2031–2033 (the calendar's years, `civil-calendar.ts`). Each one moves the offset
 *   forward; when the base clock would have to go behind real time, the product is restarted (an
 *   era): each era starts on real time, which staff need to pass their TOTP step. Once real time
 *   comes close to 2031 the years must be moved (the error says so).
 */

/** A sequence must not start less than this ahead of real time (the member's session must be valid). */
const SESSION_MARGIN_MS = 2 * 24 * 60 * 60 * 1000;

/** A staff session is opened again once the base clock is this far past its opening (retention ends sessions idle for 12 months). */
const STAFF_SESSION_AGE_MS = 300 * 24 * 60 * 60 * 1000;

interface Era {
  product: TestProduct;
  base: ReturnType<typeof fakeClock>;
  staff: StaffSession;
  /** The base clock's time when the staff session was opened. */
  staffAt: number;
  /** The public tables that were empty once the era's product and staff were ready: emptied between sequences. */
  wiped: string[];
}

/** One sequence's member, product and clock. */
export interface Run {
  product: TestProduct;
  staff: StaffSession;
  member: SignedUpMember;
  /** The agency's time, in ms. */
  now(): number;
  /** `POST /_local/clock` to instant `ms` (never back): every job due on the way runs, the mails are sent. */
  moveTo(ms: number): Promise<void>;
  /** `POST /_local/clock` with `{"days": 0}`: the jobs due now run. */
  runJobs(): Promise<void>;
  /**
   * One second passes (the base clock moves, no job runs): each step happens a little after the
   * one before, as a person's would, so that the ledger's instants say in which order things came.
   */
  tick(): void;
  db: TestProduct['database']['db'];
}

/**
 * A staff account signed in on the product's base clock, past its TOTP step: the code is computed
 * for the base clock's time, as an authenticator whose phone showed that time would.
 */
async function signInStaffAt(product: TestProduct, base: { now(): Date }): Promise<StaffSession> {
  const staff = await signInStaff(product);
  const enrolled = await staff.agent.json<{ factorId: string; secret: string }>(staff.agent.post('/api/v1/auth/mfa/enroll', {}));
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(enrolled.secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const verified = await staff.agent.post('/api/v1/auth/mfa/verify', {
    factorId: enrolled.factorId,
    code: totp.generate({ timestamp: base.now().getTime() }),
  });
  expect(verified.status, await verified.clone().text()).toBe(200);
  return staff;
}

export class SequenceWorld {
  private era: Era | null = null;
  eras = 0;

  private async startEra(): Promise<Era> {
    if (this.era) await this.era.product.stop();
    // Real time: the staff's second factor is computed on it by the authenticator (otpauth).
    const base = fakeClock(new Date());
    const product = await startTestProduct({ clock: base });
    const staff = await signInStaffAt(product, base);
    const tables = (await product.database.db.execute(
      sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    )) as unknown as { rows: { tablename: string }[] };
    const wiped: string[] = [];
    for (const { tablename } of tables.rows) {
      if (tablename === 'members' || tablename === 'settings') continue;
      const count = (await product.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM "${tablename}"`))) as unknown as {
        rows: { n: number }[];
      };
      if (count.rows[0]?.n === 0) wiped.push(tablename);
    }
    this.eras += 1;
    this.era = { product, base, staff, staffAt: base.now().getTime(), wiped };
    return this.era;
  }

  /** A clean slate at the agency's instant `startMs`, a new member signed up then, and what the commands need. */
  async beginRun(startMs: number): Promise<Run> {
    let era = this.era ?? (await this.startEra());
    const offset = () => era.product.clock.now().getTime() - era.base.now().getTime();
    if (startMs - offset() < Date.now() + SESSION_MARGIN_MS) {
      era = await this.startEra();
      if (startMs - offset() < Date.now() + SESSION_MARGIN_MS)
        throw new Error(`sequence start ${new Date(startMs).toISOString()} is too close to real time: move the sequences' years further`);
    }
    const { product, base } = era;
    // Whatever the previous sequence left on its way out (a mail being sent, a refund carried out).
    await product.flushMail();
    const db = product.database.db;
    await db.execute(sql.raw(`TRUNCATE ${era.wiped.map((t) => `"${t}"`).join(', ')} RESTART IDENTITY`));
    await db.execute(sql`DELETE FROM members WHERE role <> 'staff'`).catch((error: Error & { cause?: Error }) => {
      throw new Error(`clean slate: ${error.cause?.message ?? error.message}`);
    });
    base.set(new Date(startMs - offset()));
    expect(product.clock.now().getTime()).toBe(startMs);
    if (Math.abs(base.now().getTime() - era.staffAt) > STAFF_SESSION_AGE_MS) {
      era.staff = await signInStaffAt(product, base);
      era.staffAt = base.now().getTime();
    }
    const staff = era.staff;
    const member = await signUpMember(product, 'sequence');
    const post = async (body: unknown) => {
      const response = await product.app.request(`${TEST_SITE}/_local/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_SITE },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    };
    return {
      product,
      staff,
      member,
      db,
      now: () => product.clock.now().getTime(),
      moveTo: (ms) => post({ to: new Date(ms).toISOString() }),
      runJobs: () => post({ days: 0 }),
      tick: () => base.advance(1000),
    };
  }

  async close(): Promise<void> {
    await this.era?.product.stop();
    this.era = null;
  }
}
