import * as v from 'valibot';
import { lazy } from '#machines/lazy.ts';

/**
 * Plans, file fee and offers (spec §3, §9; decisions §3 and §5). Every amount is
 * an integer number of euro cents.
 */

export const planIds = [
  'plan_horizon_month',
  'plan_serenity_month',
  'plan_horizon_year',
  'plan_serenity_year',
  'plan_horizon_year_cachback',
  'plan_serenity_year_cachback',
] as const;
export type PlanId = (typeof planIds)[number];
export const planIdSchema = v.picklist(planIds, 'Formule inconnue');

export type PlanName = 'horizon' | 'serenity';
/** `monthly`: paid every month; `cash`: paid in full; `cashback`: paid in full with 10 % off. */
export type PlanType = 'monthly' | 'cash' | 'cashback';

export interface Discount {
  /** Short label shown next to the price, e.g. '−10 %'. */
  label: string;
  /**
   * The price the discount is measured against, offered at the same time: the total of the same
   * pack's monthly instalments (decision 195). Never shown struck as a former price.
   */
  originalPriceCents: number;
}

export interface PlanButton {
  label: string;
  /** Key of the payment link in the configuration (links differ in test and live mode). */
  offerId: OfferId;
}

export interface Plan {
  id: PlanId;
  name: PlanName;
  type: PlanType;
  durationMonths: 6 | 12;
  title: string;
  description: string;
  /** Amount of one payment: the monthly amount for monthly plans, the full price otherwise. */
  priceCents: number;
  /** Number of payments: 6 or 12 for monthly plans, 1 otherwise. */
  installments: number;
  /** What the member pays over the whole contract. */
  totalCents: number;
  cycleLabel: string;
  discount: Discount | null;
  highlight: boolean;
  button: PlanButton;
  orientation: 'vertical' | 'horizontal';
  /** Where the button sits on the card. */
  align: 'top' | 'bottom';
  features: readonly string[];
}

const HORIZON_MONTHLY_CENTS = 9_500;
const SERENITY_MONTHLY_CENTS = 8_500;
const HORIZON_CASH_CENTS = 57_000;
const SERENITY_CASH_CENTS = 102_000;
const HORIZON_CASHBACK_CENTS = 51_300;
const SERENITY_CASHBACK_CENTS = 91_800;

const horizonFeatures = [
  'Entretien personnalisé avec une conseillère',
  'Sélection de profils compatibles, vérifiés par l’agence',
  'Présentations encadrées, dans le respect de vos valeurs',
  'Suivi régulier pendant 6 mois',
  'Contrat à durée déterminée, sans reconduction tacite',
] as const;

const serenityFeatures = [
  'Entretien personnalisé avec une conseillère',
  'Sélection de profils compatibles, vérifiés par l’agence',
  'Présentations encadrées, en présence de votre tuteur si vous le souhaitez',
  'Conseils personnalisés avant et après chaque rencontre',
  'Bilan à mi-parcours et suivi régulier pendant 12 mois',
  'Contrat à durée déterminée, sans reconduction tacite',
] as const;

export const plans: readonly Plan[] = [
  {
    id: 'plan_horizon_month',
    name: 'horizon',
    type: 'monthly',
    durationMonths: 6,
    title: 'Horizon',
    description: 'Six mois d’accompagnement, réglés en 6 mensualités de 95 €.',
    priceCents: HORIZON_MONTHLY_CENTS,
    installments: 6,
    totalCents: HORIZON_MONTHLY_CENTS * 6,
    cycleLabel: '/mois pendant 6 mois',
    discount: null,
    highlight: false,
    button: { label: 'Choisir Horizon mensuel', offerId: 'plan_horizon_month' },
    orientation: 'vertical',
    align: 'bottom',
    features: horizonFeatures,
  },
  {
    id: 'plan_serenity_month',
    name: 'serenity',
    type: 'monthly',
    durationMonths: 12,
    title: 'Sérénité',
    description: 'Douze mois d’accompagnement, réglés en 12 mensualités de 85 €.',
    priceCents: SERENITY_MONTHLY_CENTS,
    installments: 12,
    totalCents: SERENITY_MONTHLY_CENTS * 12,
    cycleLabel: '/mois pendant 12 mois',
    discount: null,
    highlight: true,
    button: { label: 'Choisir Sérénité mensuel', offerId: 'plan_serenity_month' },
    orientation: 'vertical',
    align: 'bottom',
    features: serenityFeatures,
  },
  {
    id: 'plan_horizon_year',
    name: 'horizon',
    type: 'cash',
    durationMonths: 6,
    title: 'Horizon',
    description: 'Six mois d’accompagnement, réglés en une seule fois.',
    priceCents: HORIZON_CASH_CENTS,
    installments: 1,
    totalCents: HORIZON_CASH_CENTS,
    cycleLabel: 'en une fois',
    discount: null,
    highlight: false,
    button: { label: 'Choisir Horizon en une fois', offerId: 'plan_horizon_year' },
    orientation: 'vertical',
    align: 'bottom',
    features: horizonFeatures,
  },
  {
    id: 'plan_serenity_year',
    name: 'serenity',
    type: 'cash',
    durationMonths: 12,
    title: 'Sérénité',
    description: 'Douze mois d’accompagnement, réglés en une seule fois.',
    priceCents: SERENITY_CASH_CENTS,
    installments: 1,
    totalCents: SERENITY_CASH_CENTS,
    cycleLabel: 'en une fois',
    discount: null,
    highlight: false,
    button: { label: 'Choisir Sérénité en une fois', offerId: 'plan_serenity_year' },
    orientation: 'vertical',
    align: 'bottom',
    features: serenityFeatures,
  },
  {
    id: 'plan_horizon_year_cachback',
    name: 'horizon',
    type: 'cashback',
    durationMonths: 6,
    title: 'Horizon',
    description: 'Six mois d’accompagnement, réglés en une seule fois avec 10 % de remise.',
    priceCents: HORIZON_CASHBACK_CENTS,
    installments: 1,
    totalCents: HORIZON_CASHBACK_CENTS,
    cycleLabel: 'en une fois',
    discount: { label: '−10 %', originalPriceCents: 6 * HORIZON_MONTHLY_CENTS },
    highlight: false,
    button: { label: 'Choisir Horizon en une fois', offerId: 'plan_horizon_year_cachback' },
    orientation: 'vertical',
    align: 'bottom',
    features: horizonFeatures,
  },
  {
    id: 'plan_serenity_year_cachback',
    name: 'serenity',
    type: 'cashback',
    durationMonths: 12,
    title: 'Sérénité',
    description: 'Douze mois d’accompagnement, réglés en une seule fois avec 10 % de remise.',
    priceCents: SERENITY_CASHBACK_CENTS,
    installments: 1,
    totalCents: SERENITY_CASHBACK_CENTS,
    cycleLabel: 'en une fois',
    discount: { label: '−10 %', originalPriceCents: 12 * SERENITY_MONTHLY_CENTS },
    highlight: false,
    button: { label: 'Choisir Sérénité en une fois', offerId: 'plan_serenity_year_cachback' },
    orientation: 'vertical',
    align: 'bottom',
    features: serenityFeatures,
  },
];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (planIds as readonly string[]).includes(value);
}

export function planById(id: PlanId): Plan {
  const plan = plans.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan id: ${id}`);
  return plan;
}

// ---------------------------------------------------------------------------
// Active plans (decisions §5)

/** Which pay-in-full plan is offered: plain cash, or cash with 10 % off. Set by staff. */
export const payInFullSettings = ['cash', 'cashback'] as const;
export type PayInFullSetting = (typeof payInFullSettings)[number];
export const payInFullSettingSchema = v.picklist(payInFullSettings, 'Réglage inconnu');

/**
 * The four plans shown on `formules`: per pack (Horizon, then Sérénité) the monthly
 * plan and the pay-in-full plan chosen by `setting`. Exactly one is highlighted:
 * the selected plan when it is among them, otherwise the default recommendation.
 */
export function activePlans(setting: PayInFullSetting, selectedPlanId: PlanId | null = null): Plan[] {
  const chosen = (['horizon', 'serenity'] as const).flatMap((name) =>
    plans.filter((p) => p.name === name && (p.type === 'monthly' || p.type === setting)),
  );
  const highlighted = chosen.some((p) => p.id === selectedPlanId) ? selectedPlanId : (chosen.find((p) => p.highlight)?.id ?? null);
  return chosen.map((p) => ({ ...p, highlight: p.id === highlighted }));
}

export function isPlanActive(id: PlanId, setting: PayInFullSetting): boolean {
  return activePlans(setting).some((p) => p.id === id);
}

// ---------------------------------------------------------------------------
// File fee (frais de dossier)

export interface FileFee {
  id: 'frais_de_dossier';
  title: string;
  description: string;
  /** Amount charged. */
  priceCents: number;
  /** None: 169 € is the file fee's only price ever charged (decision 195). */
  discount: null;
  highlight: boolean;
  button: PlanButton;
}

export const FILE_FEE_CENTS = 16_900;
/**
 * Amount of the file fee once a code waiving it is applied (decision 195: a code staff created,
 * typed by the member). Nothing is then paid for it: no checkout, no invoice.
 */
export const FILE_FEE_WITH_COUPON_CENTS = 0;

export const fileFee: FileFee = {
  id: 'frais_de_dossier',
  title: 'Frais de dossier',
  description: 'Ouverture et étude de votre dossier, vérification de votre identité et entretien personnalisé avec une conseillère.',
  priceCents: FILE_FEE_CENTS,
  discount: null,
  highlight: true,
  button: { label: 'Régler les frais de dossier', offerId: 'file_fee' },
};

// ---------------------------------------------------------------------------
// Coupon (spec §4, decisions §4)

export interface CouponState {
  couponApplied: boolean;
  renouncedWithdrawalRight: boolean | null;
}

/** What a member types: letters and digits (as Stripe's promotion codes), read in capitals (decision 195). */
export const COUPON_CODE_PATTERN = /^[A-Z0-9]{3,40}$/;

/** The code as stored: trimmed, in capitals. */
export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

/** What a code takes off the file fee (cents): all of it, or its amount, never more than the fee. */
export function couponDiscountCents(coupon: { discountKind: 'waiver' | 'amount'; amountCents: number | null }): number {
  return coupon.discountKind === 'waiver' ? FILE_FEE_CENTS : Math.min(FILE_FEE_CENTS, coupon.amountCents ?? 0);
}

/** The coupon applies once, and never once the member has renounced the withdrawal period. */
export function canApplyCoupon(state: CouponState): boolean {
  return !state.couponApplied && state.renouncedWithdrawalRight !== true;
}

export function couponDescription(durationMonths: number): string {
  return `Un accompagnement de ${durationMonths} mois sans frais supplémentaires`;
}

/** The description shown for a plan: the coupon replaces it. */
export function planDescription(plan: Plan, couponApplied: boolean): string {
  return couponApplied ? couponDescription(plan.durationMonths) : plan.description;
}

// ---------------------------------------------------------------------------
// Offers: one payment link each (spec §7 "Payment")

export const offerIds = ['file_fee', ...planIds] as const;
export type OfferId = (typeof offerIds)[number];
export const offerIdSchema = v.picklist(offerIds, 'Offre inconnue');

export interface Offer {
  id: OfferId;
  /** `application` pays the file fee (`app`), `subscription` the plan (`sub`). */
  kind: 'application' | 'subscription';
  /** Amount of the checkout session that pays it: for monthly plans, the first month. */
  amountCents: number;
  /** Monthly plans stop after this many payments (decisions §3); null when paid once. */
  monthlyPayments: number | null;
}

export const offers: readonly Offer[] = [
  { id: 'file_fee', kind: 'application', amountCents: FILE_FEE_CENTS, monthlyPayments: null },
  ...plans.map(
    (p): Offer => ({
      id: p.id,
      kind: 'subscription',
      amountCents: p.priceCents,
      monthlyPayments: p.type === 'monthly' ? p.installments : null,
    }),
  ),
];

export function offerById(id: OfferId): Offer {
  const offer = offers.find((o) => o.id === id);
  if (!offer) throw new Error(`Unknown offer id: ${id}`);
  return offer;
}

/**
 * Amount (cents) a paid checkout session must show for this offer. The file fee costs less the
 * discount of the code the member applied (decision 195); a record from before codes were typed
 * (`couponApplied` without a discount) had the whole fee waived.
 */
export function expectedAmountCents(
  id: OfferId,
  options: { couponApplied: boolean; fileFeeDiscountCents?: number | null | undefined },
): number {
  if (id === 'file_fee' && options.couponApplied) {
    const discount = options.fileFeeDiscountCents ?? FILE_FEE_CENTS;
    return Math.max(FILE_FEE_WITH_COUPON_CENTS, FILE_FEE_CENTS - discount);
  }
  return offerById(id).amountCents;
}

// ---------------------------------------------------------------------------

const euros = lazy(() => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }));

/** 9500 → '95,00 €' (French grouping and spacing). */
export function formatEuros(cents: number): string {
  if (!Number.isInteger(cents)) throw new Error(`Amount must be an integer of cents: ${cents}`);
  return euros().format(cents / 100);
}
