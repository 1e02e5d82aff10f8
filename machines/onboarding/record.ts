import * as v from 'valibot';
import { isoInstantSchema } from '#machines/onboarding/instant.ts';
import { objectMessage } from '#machines/onboarding/messages.ts';
import { planIdSchema } from '#machines/onboarding/plans.ts';

/**
 * The member's persisted onboarding record: the BFF stores exactly these fields,
 * and the chart is restored from them (restore.ts). Field names follow the spec's
 * user settings where it has them (spec §3). Fields added by decision 010:
 * `gender`, `couponApplied`, `profileCompleted`, `sensitiveDataConsentAt`,
 * `questionnaireCompleted`, `preContractInfoAcknowledged`,
 * `onboardingMeetingReserved`, `matchmakingMeetingDone`, `disabled`.
 * The answers themselves (profile, questionnaire, contract form) are stored by the
 * BFF beside the record; the record only holds the progress.
 */

export const genders = ['homme', 'femme'] as const;
export type Gender = (typeof genders)[number];
export const genderSchema = v.picklist(genders, 'Genre invalide');

export const memberIdSchema = v.pipe(
  v.string('Identifiant invalide'),
  v.minLength(1, 'Identifiant invalide'),
  v.maxLength(128, 'Identifiant invalide'),
);

export const emailSchema = v.pipe(v.string('Email invalide'), v.trim(), v.maxLength(254, 'Email invalide'), v.email('Email invalide'));

export const onboardingRecordSchema = v.strictObject(
  {
    id: memberIdSchema,
    email: emailSchema,
    gender: genderSchema,
    /** Chosen plan (`sel_plan`), cleared by `sel_plan_res`. */
    selectedPlanId: v.nullable(planIdSchema),
    /** null: not decided yet; true: the member asked to start before the 14-day period ends. */
    renouncedWithdrawalRight: v.nullable(v.boolean()),
    couponApplied: v.boolean(),
    /**
     * What the code the member typed takes off the file fee, in cents (decision 195). Absent on
     * older records, whose coupon waived the whole fee.
     */
    fileFeeDiscountCents: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)))),
    /** Step 1 saved (`profil`). */
    profileCompleted: v.boolean(),
    /** When the member gave explicit consent to the processing of sensitive data (GDPR art. 9(2)(a)). */
    sensitiveDataConsentAt: v.nullable(isoInstantSchema()),
    /** Step 2 answers saved (`questionnaire`). */
    questionnaireCompleted: v.boolean(),
    /** Steps 1-2 confirmed (`form_per_inf`). */
    formPersonnalInfoCompleted: v.boolean(),
    /** File fee paid (`app`, verified by the server). */
    applicationFeesPaid: v.boolean(),
    /** Step 5 read and acknowledged (`pre_contract_ok`). */
    preContractInfoAcknowledged: v.boolean(),
    onboardingMeetingDateSelected: v.boolean(),
    onboardingMeetingReserved: v.boolean(),
    onboardingMeetingDate: v.nullable(isoInstantSchema()),
    onboardingMeetingDone: v.boolean(),
    subscriptionContractFormCompleted: v.boolean(),
    /** Signature date of the contract (`sub_date`): starts the 7-day and 14-day periods. */
    subscriptionDate: v.nullable(isoInstantSchema()),
    /** Subscription paid (`sub`, verified by the server). */
    subscriptionFeesPaid: v.boolean(),
    matchmakingMeetingDone: v.boolean(),
    /** Banned (spec: POST /api/v1/auth/ban). */
    disabled: v.boolean(),
    /** When the member renounced the contract within 7 days (L224-91, `renounce`; decision 118). Absent on older records. */
    contractRenouncedAt: v.optional(v.nullable(isoInstantSchema())),
    /** When the member withdrew from the contract within 14 days (L221-18, `withdraw`; decision 118). Absent on older records. */
    contractWithdrawnAt: v.optional(v.nullable(isoInstantSchema())),
    /** When the member asked to terminate for a legitimate reason (R224-2, `terminate`; decision 119). Absent on older records. */
    terminationRequestedAt: v.optional(v.nullable(isoInstantSchema())),
    /** When staff accepted that termination (`terminate_ok`): the contract is over (decision 119). */
    terminatedAt: v.optional(v.nullable(isoInstantSchema())),
  },
  objectMessage,
);

export type OnboardingRecord = v.InferOutput<typeof onboardingRecordSchema>;

/** The record of a member who has just created an account. */
export function emptyRecord(id: string, email: string, gender: Gender): OnboardingRecord {
  return {
    id,
    email,
    gender,
    selectedPlanId: null,
    renouncedWithdrawalRight: null,
    couponApplied: false,
    profileCompleted: false,
    sensitiveDataConsentAt: null,
    questionnaireCompleted: false,
    formPersonnalInfoCompleted: false,
    applicationFeesPaid: false,
    preContractInfoAcknowledged: false,
    onboardingMeetingDateSelected: false,
    onboardingMeetingReserved: false,
    onboardingMeetingDate: null,
    onboardingMeetingDone: false,
    subscriptionContractFormCompleted: false,
    subscriptionDate: null,
    subscriptionFeesPaid: false,
    matchmakingMeetingDone: false,
    disabled: false,
  };
}

/** The machine's context: the record plus the current time (ms since the epoch). */
export type OnboardingContext = OnboardingRecord & { now: number };

/** The record part of a context (drops `now`). */
export function recordOf(context: OnboardingContext): OnboardingRecord {
  const { now: _now, ...record } = context;
  return record;
}
