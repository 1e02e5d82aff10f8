import { FILE_FEE_CENTS, formatEuros, type Plan } from '#machines/onboarding/plans.ts';
import { WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-periods.ts';
import { deadlinesOfSignature } from '#machines/onboarding/legal-deadlines.ts';
import { contractEndsAtMs, withdrawalRefundCents } from '#machines/onboarding/periods.ts';

/**
 * What the law asks the member to read before signing (L221-5, L111-1, L224-90 of the Code de la
 * consommation; decision 198), from the sources the contract itself reads: the agency's identity and
 * its consumer mediator as the same `{{agence.*}}` sentences (filled with `agencyValues`, the
 * configuration), the prices from the plans, and the cost of an early start from the same
 * computation as the refund after a withdrawal (`withdrawalRefundCents`).
 */

/** The agency's identity, as the contract's first party names it. */
export const AGENCY_IDENTITY_TEXT =
  '{{agence.raison-sociale}}, {{agence.forme}}, dont le siège est situé {{agence.adresse}}, {{agence.rcs}}, SIRET {{agence.siret}}, téléphone {{agence.telephone}}, e-mail {{agence.email}}';

/** The consumer mediator the agency belongs to (L612-1), as the contract names it. */
export const MEDIATOR_TEXT = '{{agence.mediateur}} ({{agence.mediateur-site}})';

/**
 * What an early start costs if the member then withdraws (L221-25): the days elapsed since
 * signature, pro rata of the whole price (file fee and plan); at most this on the last day of the
 * withdrawal period, counted in civil days (`deadlinesOfSignature`: 14 days, moved past a weekend
 * or a public holiday), so at the period's last instant.
 */
export function earlyStartCost(plan: Plan, signedAtMs: number): { lastDayCents: number; totalCents: number } {
  const totalCents = plan.totalCents + FILE_FEE_CENTS;
  const endsAtMs = contractEndsAtMs(new Date(signedAtMs).toISOString(), plan.durationMonths) ?? signedAtMs;
  const { keptCents } = withdrawalRefundCents({
    paidCents: totalCents,
    contractPriceCents: totalCents,
    earlyStart: true,
    signedAtMs,
    endsAtMs,
    now: deadlinesOfSignature(signedAtMs).withdrawal.endsAtMs - 1,
  });
  return { lastDayCents: keptCents, totalCents };
}

/** The sentence of the pre-contract step on the cost of an early start. */
export function earlyStartCostText(plan: Plan | null, signedAtMs: number): string {
  const base = `Si vous demandez que l’accompagnement commence avant la fin du délai de rétractation, puis que vous vous rétractez, vous payez le service déjà fourni\u00a0: les jours écoulés depuis la signature, au prorata du prix total convenu (frais de dossier et formule), article L221‑25.`;
  if (!plan) return base;
  const cost = earlyStartCost(plan, signedAtMs);
  return `${base} Pour la formule ${plan.title} (${formatEuros(cost.totalCents)} au total), une rétractation le dernier jour des ${WITHDRAWAL_PERIOD_DAYS} jours coûterait au plus ${formatEuros(cost.lastDayCents)}. Sans cette demande, la rétractation ne coûte rien.`;
}
