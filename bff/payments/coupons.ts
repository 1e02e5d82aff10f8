import * as v from 'valibot';
import type { Db, Transaction } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import {
  type CouponRow,
  couponByCode,
  couponDiscountByCode,
  couponRows,
  insertCoupon,
  insertRedemption,
  latestRedeemedCode,
  takeCouponUse,
  updateCouponActive,
} from '#bff/payments/store/coupons.ts';
import { civilDayText } from '#machines/onboarding/deadline-texts.ts';
import { COUPON_CODE_PATTERN, couponDiscountCents, FILE_FEE_CENTS } from '#machines/onboarding/plans.ts';
import { parisDayOf } from '#machines/paris-time.ts';

/**
 * Codes a member types on the payment step (decision 195): created by staff, redeemed by the
 * server inside the transaction of the member's `coupon` event. The redemption is one conditional
 * UPDATE (`uses < max_uses`, active, today's Paris day inside the window): PostgreSQL takes the
 * row's lock and evaluates the condition again on the row as the other redemption left it, so
 * two members at the last use cannot both pass, and the table's CHECK (`uses <= max_uses`) backs
 * it. Any refusal throws: the event's transaction rolls back and nothing changes.
 */

function refusedCode(message: string): ApiError {
  return new ApiError(422, 'COUPON_REFUSED', message, { issues: [{ path: 'code', message }] });
}

/** Redeems `code` for `memberId` at `now` (the agency's clock): what it takes off the file fee, in cents. */
export async function redeemCoupon(tx: Transaction, input: { code: string; memberId: string; now: Date }): Promise<number> {
  const today = parisDayOf(input.now.getTime());
  const taken = await takeCouponUse(tx, input.code, today);
  if (!taken) throw await whyRefused(tx, input.code, today);
  const discountCents = couponDiscountCents(taken);
  await insertRedemption(tx, { couponId: taken.id, memberId: input.memberId, discountCents, redeemedAt: input.now });
  return discountCents;
}

/** The French reason a code was not taken, read after the UPDATE matched nothing. */
async function whyRefused(tx: Transaction, code: string, today: string): Promise<ApiError> {
  const coupon = await couponByCode(tx, code);
  if (!coupon?.active) return refusedCode('Ce code n’existe pas ou n’est plus proposé. Vérifiez-le, ou réglez sans code.');
  if (coupon.validFrom > today) return refusedCode(`Ce code n’est valable qu’à partir du ${civilDayText(coupon.validFrom)}.`);
  if (coupon.validUntil < today) return refusedCode(`Ce code n’est plus valable : il l’était jusqu’au ${civilDayText(coupon.validUntil)}.`);
  return refusedCode('Ce code a déjà été utilisé autant de fois que prévu : il n’est plus valable.');
}

/** The code the member's current coupon was redeemed with (the payment link's `prefilled_promo_code`). */
export async function redeemedCodeOf(db: Db | Transaction, memberId: string): Promise<string | null> {
  const row = await latestRedeemedCode(db, memberId);
  return row?.code ?? null;
}

/** What a Stripe-like checkout takes off the file fee for a promotion code (the local stand-in). */
export async function discountOfCode(db: Db, code: string): Promise<number | null> {
  const row = await couponDiscountByCode(db, code.trim().toUpperCase());
  return row ? couponDiscountCents(row) : null;
}

// ---------------------------------------------------------------------------
// Staff: create, list, switch on and off

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const daySchema = (what: string) =>
  v.pipe(
    v.string(`Indiquez la date ${what}.`),
    v.regex(ISO_DAY, `Indiquez la date ${what} (jour, mois, année).`),
    v.check(
      (day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
      `La date ${what} n’existe pas.`,
    ),
  );

export const couponCreateSchema = v.pipe(
  v.strictObject(
    {
      code: v.pipe(
        v.string('Indiquez le code.'),
        v.trim(),
        v.toUpperCase(),
        v.regex(COUPON_CODE_PATTERN, 'Le code compte de 3 à 40 caractères : lettres sans accent et chiffres, sans espace ni tiret.'),
      ),
      discount: v.variant(
        'kind',
        [
          v.strictObject({ kind: v.literal('waiver') }),
          v.strictObject({
            kind: v.literal('amount'),
            amountCents: v.pipe(
              v.number('Indiquez le montant de la remise.'),
              v.integer('Indiquez le montant en centimes entiers.'),
              v.minValue(100, 'La remise est d’au moins 1,00 €.'),
              v.maxValue(FILE_FEE_CENTS - 1, 'Une remise de tous les frais de dossier se choisit comme « frais de dossier offerts ».'),
            ),
          }),
        ],
        'Choisissez la remise.',
      ),
      validFrom: daySchema('de début'),
      validUntil: daySchema('de fin'),
      maxUses: v.pipe(
        v.number('Indiquez le nombre d’utilisations.'),
        v.integer('Indiquez un nombre entier d’utilisations.'),
        v.minValue(1, 'Le code doit pouvoir servir au moins une fois.'),
        v.maxValue(100_000, 'Au plus 100 000 utilisations.'),
      ),
    },
    'Données invalides',
  ),
  v.forward(
    v.check((input) => input.validFrom <= input.validUntil, 'La date de fin suit la date de début.'),
    ['validUntil'],
  ),
);
export type CouponCreate = v.InferOutput<typeof couponCreateSchema>;

export const couponActiveSchema = v.strictObject({ active: v.boolean('Indiquez si le code est actif.') }, 'Données invalides');

export interface CouponView {
  id: number;
  code: string;
  discount: { kind: 'waiver' } | { kind: 'amount'; amountCents: number };
  validFrom: string;
  validUntil: string;
  maxUses: number;
  uses: number;
  active: boolean;
  createdAt: string;
}

function viewOf(row: CouponRow): CouponView {
  return {
    id: row.id,
    code: row.code,
    discount: row.discountKind === 'waiver' ? { kind: 'waiver' } : { kind: 'amount', amountCents: row.amountCents ?? 0 },
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    maxUses: row.maxUses,
    uses: row.uses,
    active: row.active,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listCoupons(db: Db): Promise<CouponView[]> {
  const rows = await couponRows(db);
  return rows.map(viewOf);
}

export async function createCoupon(db: Db, input: CouponCreate, options: { staffId: string | null; now: Date }): Promise<CouponView> {
  const row = await insertCoupon(db, {
    code: input.code,
    discountKind: input.discount.kind,
    amountCents: input.discount.kind === 'amount' ? input.discount.amountCents : null,
    validFrom: input.validFrom,
    validUntil: input.validUntil,
    maxUses: input.maxUses,
    uses: 0,
    active: true,
    createdBy: options.staffId,
    createdAt: options.now,
  });
  if (!row)
    throw new ApiError(409, 'COUPON_EXISTS', 'Ce code existe déjà : choisissez-en un autre.', {
      issues: [{ path: 'code', message: 'Ce code existe déjà.' }],
    });
  return viewOf(row);
}

export async function setCouponActive(db: Db, id: number, active: boolean): Promise<CouponView> {
  const row = await updateCouponActive(db, id, active);
  if (!row) throw new ApiError(404, 'COUPON_NOT_FOUND', 'Code introuvable.');
  return viewOf(row);
}
