// Stores the promotion codes and their redemptions.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { couponRedemptions, coupons } from '#bff/db/coupons-schema.ts';
import type { Db, Transaction } from '#bff/db/database.ts';

export type CouponRow = typeof coupons.$inferSelect;

/**
 * Takes one use of `code` if it is active, `today` (a Paris day) is inside its window and a use is
 * left: one conditional UPDATE, which PostgreSQL evaluates again on the row another redemption left.
 */
export async function takeCouponUse(tx: Transaction, code: string, today: string) {
  const [taken] = await tx
    .update(coupons)
    .set({ uses: sql`${coupons.uses} + 1` })
    .where(
      and(
        eq(coupons.code, code),
        eq(coupons.active, true),
        sql`${coupons.validFrom} <= ${today}::date`,
        sql`${coupons.validUntil} >= ${today}::date`,
        sql`${coupons.uses} < ${coupons.maxUses}`,
      ),
    )
    .returning({ id: coupons.id, discountKind: coupons.discountKind, amountCents: coupons.amountCents });
  return taken;
}

export async function insertRedemption(tx: Transaction, row: typeof couponRedemptions.$inferInsert): Promise<void> {
  await tx.insert(couponRedemptions).values(row);
}

export async function couponByCode(tx: Transaction, code: string): Promise<CouponRow | undefined> {
  const [coupon] = await tx.select().from(coupons).where(eq(coupons.code, code)).limit(1);
  return coupon;
}

/** The code of the member's latest redemption. */
export async function latestRedeemedCode(db: Db | Transaction, memberId: string) {
  const [row] = await db
    .select({ code: coupons.code })
    .from(couponRedemptions)
    .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
    .where(eq(couponRedemptions.memberId, memberId))
    .orderBy(desc(couponRedemptions.redeemedAt), desc(couponRedemptions.id))
    .limit(1);
  return row;
}

/** The discount of `code` (already normalised by the caller). */
export async function couponDiscountByCode(db: Db, code: string) {
  const [row] = await db
    .select({ discountKind: coupons.discountKind, amountCents: coupons.amountCents })
    .from(coupons)
    .where(eq(coupons.code, code))
    .limit(1);
  return row;
}

/** Every code, the active ones first, then by end of validity and code. */
export async function couponRows(db: Db): Promise<CouponRow[]> {
  return db.select().from(coupons).orderBy(desc(coupons.active), asc(coupons.validUntil), asc(coupons.code));
}

/** Inserts a code unless one has it already: the new row, or undefined. */
export async function insertCoupon(db: Db, row: typeof coupons.$inferInsert): Promise<CouponRow | undefined> {
  const [inserted] = await db.insert(coupons).values(row).onConflictDoNothing({ target: coupons.code }).returning();
  return inserted;
}

export async function updateCouponActive(db: Db, id: number, active: boolean): Promise<CouponRow | undefined> {
  const [row] = await db.update(coupons).set({ active }).where(eq(coupons.id, id)).returning();
  return row;
}
