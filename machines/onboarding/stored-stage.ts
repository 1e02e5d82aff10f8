import { subscriptionPaymentOpensAt, withdrawalPeriodEndsAt } from '#machines/onboarding/legal-deadlines.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { type OnboardingStateValue, type TopState, topStateOf } from '#machines/onboarding/steps.ts';

/**
 * The member's stage as the database stores it (issue 64, decision 204): the chart's state with time
 * taken out, and the instants that move it. Written with every change of the record, so that the
 * back office filters, counts and sorts members by stage in SQL (`member_stage_key`, migration 0045)
 * instead of restoring every chart.
 *
 * - Before the signature, and for a contract ended or a disabled account, time changes nothing:
 *   `stage` (and `sub`) are the chart's state, the instants are null.
 * - Once signed, the chart is `attente-contrat.delai-renonciation` until `renunciationEndsAt`, then
 *   `contrat-termine` from `termEndsAt`; in between, `stage` is what the record has reached
 *   (`frais-de-dossier`, `attente` or `membre-actif`), `attente` being `delai-retractation` until
 *   `withdrawalEndsAt` (null: the member renounced the 14 days) and `entretien-matchmaking` after.
 */
export interface StoredStage {
  stage: TopState;
  sub: string | null;
  renunciationEndsAt: number | null;
  withdrawalEndsAt: number | null;
  termEndsAt: number | null;
}

export function storedStageOf(record: OnboardingRecord): StoredStage {
  const renunciationEndsAt = subscriptionPaymentOpensAt(record.subscriptionDate);
  // Before the end of the renunciation period the chart waits there, whatever else the record says.
  const before = renunciationEndsAt === null ? null : stateFromRecord(record, renunciationEndsAt - 1);
  const signed =
    before !== null && typeof before === 'object' && 'attente-contrat' in before && before['attente-contrat'] === 'delai-renonciation';
  if (!signed || renunciationEndsAt === null) {
    const value = stateFromRecord(record, Number.NaN);
    return { stage: topStateOf(value), sub: subOf(value), renunciationEndsAt: null, withdrawalEndsAt: null, termEndsAt: null };
  }
  const stage: TopState =
    !record.applicationFeesPaid || !record.subscriptionFeesPaid
      ? 'frais-de-dossier'
      : !record.matchmakingMeetingDone
        ? 'attente'
        : 'membre-actif';
  return {
    stage,
    sub: null,
    renunciationEndsAt,
    withdrawalEndsAt: record.renouncedWithdrawalRight === true ? null : withdrawalPeriodEndsAt(record.subscriptionDate),
    termEndsAt: termEndsAtMs(record),
  };
}

/** The chart's state at `now` from the stored stage: what `member_stage_key` computes in SQL. */
export function stageAt(stored: StoredStage, now: number): OnboardingStateValue {
  const { stage, sub } = stored;
  if (stored.renunciationEndsAt === null) return (sub === null ? stage : { [stage]: sub }) as OnboardingStateValue;
  if (now < stored.renunciationEndsAt) return { 'attente-contrat': 'delai-renonciation' };
  if (stored.termEndsAt !== null && now >= stored.termEndsAt) return 'contrat-termine';
  if (stage === 'attente')
    return { attente: stored.withdrawalEndsAt === null || now >= stored.withdrawalEndsAt ? 'entretien-matchmaking' : 'delai-retractation' };
  return stage as OnboardingStateValue;
}

/** The state value of a dotted key (`attente.delai-retractation` → `{ attente: 'delai-retractation' }`). */
export function stateOfKey(key: string): OnboardingStateValue {
  const dot = key.indexOf('.');
  return (dot < 0 ? key : { [key.slice(0, dot)]: key.slice(dot + 1) }) as OnboardingStateValue;
}

function subOf(value: OnboardingStateValue): string | null {
  return typeof value === 'string' ? null : (Object.values(value)[0] as string);
}
