import { instantMs } from '#machines/onboarding/instant.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * How and when the member's current contract ended, if it did (decision 176): the one answer the
 * screens and their APIs give (« Mon accompagnement », « Mes droits », the proposals), so that none
 * says « prend fin le … » of a contract already renounced, withdrawn, terminated or over.
 */

export const contractEndReasons = ['renonciation', 'retractation', 'resiliation', 'terme'] as const;
export type ContractEndReason = (typeof contractEndReasons)[number];

/** The words of each reason, as the contract and the mails say them. */
export const contractEndReasonLabels: Readonly<Record<ContractEndReason, string>> = {
  renonciation: 'renonciation dans les 7 jours',
  retractation: 'rétractation dans les 14 jours',
  resiliation: 'résiliation pour motif légitime',
  terme: 'arrivée à son terme',
};

export interface ContractEnd {
  /** When it ended (ms): the right exercised or accepted, or midnight (Paris) after the last day. */
  at: number;
  reason: ContractEndReason;
}

type EndFields = Pick<
  OnboardingRecord,
  'subscriptionDate' | 'selectedPlanId' | 'contractRenouncedAt' | 'contractWithdrawnAt' | 'terminatedAt'
>;

export function contractEnd(record: EndFields, now: number): ContractEnd | null {
  if (!record.subscriptionDate) return null;
  const stops: [string | null | undefined, ContractEndReason][] = [
    [record.contractRenouncedAt, 'renonciation'],
    [record.contractWithdrawnAt, 'retractation'],
    [record.terminatedAt, 'resiliation'],
  ];
  for (const [at, reason] of stops) if (at && Number.isFinite(instantMs(at))) return { at: instantMs(at), reason };
  const term = termEndsAtMs(record);
  return term !== null && now >= term ? { at: term, reason: 'terme' } : null;
}
