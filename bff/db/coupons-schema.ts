import { bigint, bigserial, boolean, date, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Codes staff create for the file fee (migration `0037_coupons.sql`, decision 195). */
export const coupons = pgTable('coupons', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** In capitals, `^[A-Z0-9]{3,40}$`. */
  code: text('code').notNull(),
  discountKind: text('discount_kind').$type<'waiver' | 'amount'>().notNull(),
  /** Only with `amount`. */
  amountCents: integer('amount_cents'),
  /** First and last civil days (Europe/Paris), both included: `YYYY-MM-DD`. */
  validFrom: date('valid_from', { mode: 'string' }).notNull(),
  validUntil: date('valid_until', { mode: 'string' }).notNull(),
  maxUses: integer('max_uses').notNull(),
  uses: integer('uses').notNull(),
  active: boolean('active').notNull(),
  createdBy: uuid('created_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** One row per code redeemed by a member (decision 195). */
export const couponRedemptions = pgTable('coupon_redemptions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  couponId: bigint('coupon_id', { mode: 'number' }).notNull(),
  memberId: uuid('member_id').notNull(),
  discountCents: integer('discount_cents').notNull(),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }).notNull(),
});
