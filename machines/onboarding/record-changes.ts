import { instantMs, toIsoInstant } from '#machines/onboarding/instant.ts';
import { emptyRecord, type OnboardingRecord } from '#machines/onboarding/record.ts';
import { FILE_FEE_CENTS } from '#machines/onboarding/plans.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';
import type { ContextName, UpdatePayload, UpdatePayloads } from '#machines/onboarding/update-payloads.ts';

/**
 * What each update context changes in the member's record, and the chart event it becomes: the
 * part of the update table (`update-contexts.ts`) that the onboarding chart runs. It imports no
 * payload schema, so the chart in the browser does not load the forms' validation (and its phone
 * metadata) with the member area's first page; the server validates with `update-contexts.ts`,
 * whose table takes its `apply` functions from here (one function for both).
 */
// ---------------------------------------------------------------------------
// Machine events

/** The chart event each context becomes. */
export const eventTypes = {
  profil: 'SAVE_PROFILE',
  questionnaire: 'SAVE_QUESTIONNAIRE',
  form_per_inf: 'MARK_PERSONAL_INFO',
  sel_plan: 'SELECT_PLAN',
  sel_plan_res: 'RESET_PLAN',
  coupon: 'APPLY_COUPON',
  app: 'PAY_FILE_FEE',
  pre_contract_ok: 'ACKNOWLEDGE_PRE_CONTRACT',
  onb_meet: 'SELECT_MEETING_DATE',
  onb_meet_resa: 'RESERVE_MEETING',
  onb_meet_cancel: 'CANCEL_MEETING',
  onb_meet_ok: 'RECORD_ONBOARDING_MEETING',
  contractForm: 'SUBMIT_CONTRACT_FORM',
  sub_date: 'SIGN_CONTRACT',
  sub: 'PAY_SUBSCRIPTION',
  meeting_mm: 'RECORD_MATCHMAKING_MEETING',
  lmnop: 'RESET_ONBOARDING',
  renounce: 'RENOUNCE_CONTRACT',
  withdraw: 'WITHDRAW_CONTRACT',
  renew: 'RENEW_CONTRACT',
  terminate: 'REQUEST_TERMINATION',
  terminate_letter: 'RECORD_TERMINATION_LETTER',
  terminate_ok: 'ACCEPT_TERMINATION',
  terminate_no: 'REFUSE_TERMINATION',
} as const satisfies Record<ContextName, string>;

/** An event of the chart made from an update: its type, the clock, and the payload. */
export type UpdateEvent = {
  [C in ContextName]: { type: (typeof eventTypes)[C]; now: number; update: UpdatePayloads[C] };
}[ContextName];

export function toMachineEvent(update: UpdatePayload, now: number): UpdateEvent {
  return { type: eventTypes[update.context], now, update } as UpdateEvent;
}

// ---------------------------------------------------------------------------
// Record changes (pure)

const noMeeting = {
  onboardingMeetingDateSelected: false,
  onboardingMeetingReserved: false,
  onboardingMeetingDate: null,
} as const satisfies Partial<OnboardingRecord>;

/**
 * Clears the end of a contract (decision 118). `undefined`, not null: the chart's `assign` merges
 * the new record into its context, so a key must be present to be cleared, and older records
 * (and emptyRecord) simply lack it.
 */
const noContractEnd = {
  contractRenouncedAt: undefined,
  contractWithdrawnAt: undefined,
  terminationRequestedAt: undefined,
  terminatedAt: undefined,
  fileFeeDiscountCents: undefined,
} as const satisfies Partial<OnboardingRecord>;

/** The new record after each context's (validated) payload. The BFF persists it with the event-log row. */
export const recordChanges: {
  readonly [C in ContextName]: (record: OnboardingRecord, payload: UpdatePayloads[C], now: number) => OnboardingRecord;
} = {
  profil: (record, _payload, now) => ({ ...record, profileCompleted: true, sensitiveDataConsentAt: toIsoInstant(now) }),
  questionnaire: (record) => ({ ...record, questionnaireCompleted: true }),
  form_per_inf: (record, payload) =>
    payload.completed
      ? { ...record, formPersonnalInfoCompleted: true }
      : { ...record, formPersonnalInfoCompleted: false, profileCompleted: false },
  sel_plan: (record, payload) => ({
    ...record,
    selectedPlanId: payload.id,
    renouncedWithdrawalRight: payload.renounce,
    couponApplied: false,
    fileFeeDiscountCents: null,
  }),
  sel_plan_res: (record) => ({
    ...record,
    selectedPlanId: null,
    renouncedWithdrawalRight: null,
    couponApplied: false,
    fileFeeDiscountCents: null,
  }),
  // A code that waives the whole fee settles it: nothing to pay, no checkout, no invoice (decision 195).
  coupon: (record, payload) => {
    const discount = Math.min(FILE_FEE_CENTS, payload.discountCents ?? FILE_FEE_CENTS);
    return {
      ...record,
      couponApplied: true,
      fileFeeDiscountCents: discount,
      applicationFeesPaid: record.applicationFeesPaid || discount >= FILE_FEE_CENTS,
    };
  },
  app: (record) => ({ ...record, applicationFeesPaid: true }),
  pre_contract_ok: (record) => ({ ...record, preContractInfoAcknowledged: true }),
  onb_meet: (record, payload) => ({
    ...record,
    onboardingMeetingDateSelected: true,
    onboardingMeetingDate: toIsoInstant(instantMs(payload.date)),
  }),
  onb_meet_resa: (record, payload) => (payload.status ? { ...record, onboardingMeetingReserved: true } : { ...record, ...noMeeting }),
  onb_meet_cancel: (record) => ({ ...record, ...noMeeting }),
  onb_meet_ok: (record, payload) => (payload.status ? { ...record, onboardingMeetingDone: true } : { ...record, ...noMeeting }),
  contractForm: (record) => ({ ...record, subscriptionContractFormCompleted: true }),
  sub_date: (record, payload) => ({ ...record, subscriptionDate: toIsoInstant(instantMs(payload.subDate)) }),
  sub: (record) => ({ ...record, subscriptionFeesPaid: true }),
  meeting_mm: (record) => ({ ...record, matchmakingMeetingDone: true }),
  lmnop: (record) => ({ ...emptyRecord(record.id, record.email, record.gender), ...noContractEnd, disabled: record.disabled }),
  renounce: (record, _payload, now) => ({ ...record, contractRenouncedAt: toIsoInstant(now) }),
  withdraw: (record, _payload, now) => ({ ...record, contractWithdrawnAt: toIsoInstant(now) }),
  renew: (record) => ({
    ...emptyRecord(record.id, record.email, record.gender),
    ...noContractEnd,
    profileCompleted: record.profileCompleted,
    sensitiveDataConsentAt: record.sensitiveDataConsentAt,
    questionnaireCompleted: record.questionnaireCompleted,
    formPersonnalInfoCompleted: record.formPersonnalInfoCompleted,
    disabled: record.disabled,
  }),
  terminate: (record, _payload, now) => ({ ...record, terminationRequestedAt: toIsoInstant(now) }),
  // A letter counts from the day it was received, at its first instant in Paris (decision 189).
  terminate_letter: (record, payload) => ({ ...record, terminationRequestedAt: toIsoInstant(parisDayStartMs(payload.receivedOn)) }),
  terminate_ok: (record, _payload, now) => ({ ...record, terminatedAt: toIsoInstant(now) }),
  terminate_no: (record) => ({ ...record, terminationRequestedAt: undefined }),
};

/** The record after an update (the same function the chart's `applyUpdate` action runs). */
export function applyUpdate(record: OnboardingRecord, update: UpdatePayload, now: number): OnboardingRecord {
  const apply = recordChanges[update.context] as (record: OnboardingRecord, payload: UpdatePayload, now: number) => OnboardingRecord;
  return apply(record, update, now);
}
