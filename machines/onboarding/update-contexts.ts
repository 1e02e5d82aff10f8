import * as v from 'valibot';
import {
  AGE_RANGE_MESSAGE,
  ageRangeInOrder,
  contractFormEntries,
  personalInfoEntries,
  questionnaireEntries,
  SIGNATURE_MESSAGE,
  signatureMatchesName,
} from '#machines/onboarding/forms.ts';
import { instantMs, isoInstantSchema, toIsoInstant } from '#machines/onboarding/instant.ts';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import { objectMessage } from '#machines/onboarding/messages.ts';
import { expectedAmountCents, type OfferId, planIdSchema } from '#machines/onboarding/plans.ts';
import { emailSchema, emptyRecord, memberIdSchema, type OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * The one table between the update contexts of `POST /api/v1/user/update` and the
 * onboarding chart's events. For each context: its payload schema (strict, French
 * messages), the machine event it becomes, who may send it, whether the server must
 * verify a payment first, and the pure change it makes to the member's record.
 *
 * Contexts of the spec keep their payload field names exactly. Contexts added by
 * decision 010 (origin 'added'): `profil`, `questionnaire`, `pre_contract_ok`,
 * `coupon`, `onb_meet_cancel`; and `contractForm` gained the contract's fields.
 *
 * `uid` is always the id of the member the update is about: a member may only send
 * their own id (the chart refuses any other); staff send the member's id.
 */

const uidSchema = memberIdSchema;

/** A Stripe Checkout Session id, e.g. `cs_test_a1B2c3`. The server checks it is paid. */
export const checkoutSessionIdSchema = v.pipe(
  v.string('Session de paiement invalide'),
  v.regex(/^cs_[A-Za-z0-9_]{1,250}$/, 'Session de paiement invalide'),
);

// ---------------------------------------------------------------------------
// Payload schemas

/** A strict object: unknown fields are refused; missing ones reported in French. */
function strict<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return v.strictObject(entries, objectMessage);
}

export function profilPayloadSchema(now: number) {
  return strict({ context: v.literal('profil'), ...personalInfoEntries(now) });
}

export const questionnairePayloadSchema = v.pipe(
  strict({ context: v.literal('questionnaire'), ...questionnaireEntries }),
  v.forward(v.partialCheck([['soughtAgeMin'], ['soughtAgeMax']], ageRangeInOrder, AGE_RANGE_MESSAGE), ['soughtAgeMax']),
);

export const formPerInfPayloadSchema = strict({
  context: v.literal('form_per_inf'),
  completed: v.boolean('Valeur invalide'),
});

export const selPlanPayloadSchema = strict({
  context: v.literal('sel_plan'),
  id: planIdSchema,
  /** The member's express request to start before the end of the 14-day period (L221-25). */
  renounce: v.boolean('Veuillez indiquer si vous souhaitez commencer avant la fin du délai de rétractation'),
});

export const selPlanResPayloadSchema = strict({ context: v.literal('sel_plan_res') });

export const couponPayloadSchema = strict({ context: v.literal('coupon') });

export const appPayloadSchema = strict({
  context: v.literal('app'),
  email: emailSchema,
  csid: checkoutSessionIdSchema,
});

export const preContractOkPayloadSchema = strict({
  context: v.literal('pre_contract_ok'),
  acknowledged: v.literal(true, 'Veuillez confirmer avoir pris connaissance des informations précontractuelles'),
});

export const onbMeetPayloadSchema = strict({
  context: v.literal('onb_meet'),
  date: isoInstantSchema('Date de rendez-vous invalide'),
});

export const onbMeetResaPayloadSchema = strict({
  context: v.literal('onb_meet_resa'),
  status: v.boolean('Valeur invalide'),
  uid: uidSchema,
});

export const onbMeetCancelPayloadSchema = strict({
  context: v.literal('onb_meet_cancel'),
  uid: uidSchema,
});

export const onbMeetOkPayloadSchema = strict({
  context: v.literal('onb_meet_ok'),
  status: v.boolean('Valeur invalide'),
  uid: uidSchema,
});

export const contractFormPayloadSchema = v.pipe(
  strict({ context: v.literal('contractForm'), contractForm: v.literal(true, 'Valeur invalide'), ...contractFormEntries }),
  v.forward(v.partialCheck([['fullName'], ['signature']], signatureMatchesName, SIGNATURE_MESSAGE), ['signature']),
);

export const subDatePayloadSchema = strict({
  context: v.literal('sub_date'),
  subDate: isoInstantSchema('Date invalide'),
});

export const subPayloadSchema = strict({
  context: v.literal('sub'),
  email: emailSchema,
  csid: checkoutSessionIdSchema,
});

export const meetingMmPayloadSchema = strict({ context: v.literal('meeting_mm'), uid: uidSchema });

export const lmnopPayloadSchema = strict({ context: v.literal('lmnop'), uid: uidSchema });

/** The member renounces the contract within 7 days of signing (L224-91): `confirm` must be true. */
export const renouncePayloadSchema = strict({
  context: v.literal('renounce'),
  confirm: v.literal(true, 'Veuillez confirmer votre renonciation au contrat'),
});

/** The member withdraws from the contract within 14 days of signing (L221-18): `confirm` must be true. */
export const withdrawPayloadSchema = strict({
  context: v.literal('withdraw'),
  confirm: v.literal(true, 'Veuillez confirmer votre rétractation'),
});

export type TerminationReason = keyof typeof terminationReasonLabels;
export const terminationReasons = Object.keys(terminationReasonLabels) as [TerminationReason, ...TerminationReason[]];

/**
 * The member asks to terminate for a legitimate reason (R224-2, decision 119): a reason from the
 * short list, an explanation, and optionally a description or reference of the proof.
 */
export const terminatePayloadSchema = strict({
  context: v.literal('terminate'),
  reason: v.picklist(terminationReasons, 'Veuillez choisir un motif'),
  explanation: v.pipe(
    v.string('Veuillez expliquer votre situation'),
    v.trim(),
    v.minLength(10, 'Veuillez expliquer votre situation en quelques mots (10 caractères au moins)'),
    v.maxLength(2000, 'Explication trop longue (2 000 caractères au plus)'),
  ),
  proof: v.optional(
    v.pipe(
      v.string('Justificatif invalide'),
      v.trim(),
      v.maxLength(500, 'Description du justificatif trop longue (500 caractères au plus)'),
    ),
  ),
});

/** Staff accept the member's termination request (decision 119). */
export const terminateOkPayloadSchema = strict({ context: v.literal('terminate_ok'), uid: uidSchema });

/** Staff refuse it, with a written reason the member receives (decision 119). */
export const terminateNoPayloadSchema = strict({
  context: v.literal('terminate_no'),
  uid: uidSchema,
  reason: v.pipe(
    v.string('Veuillez indiquer la raison du refus'),
    v.trim(),
    v.minLength(10, 'Veuillez indiquer la raison du refus (10 caractères au moins)'),
    v.maxLength(2000, 'Raison trop longue (2 000 caractères au plus)'),
  ),
});

/** After the contract ended (renounced, withdrawn or term over): a new contract, starting with the plan. */
export const renewPayloadSchema = strict({ context: v.literal('renew') });

export interface UpdatePayloads {
  profil: v.InferOutput<ReturnType<typeof profilPayloadSchema>>;
  questionnaire: v.InferOutput<typeof questionnairePayloadSchema>;
  form_per_inf: v.InferOutput<typeof formPerInfPayloadSchema>;
  sel_plan: v.InferOutput<typeof selPlanPayloadSchema>;
  sel_plan_res: v.InferOutput<typeof selPlanResPayloadSchema>;
  coupon: v.InferOutput<typeof couponPayloadSchema>;
  app: v.InferOutput<typeof appPayloadSchema>;
  pre_contract_ok: v.InferOutput<typeof preContractOkPayloadSchema>;
  onb_meet: v.InferOutput<typeof onbMeetPayloadSchema>;
  onb_meet_resa: v.InferOutput<typeof onbMeetResaPayloadSchema>;
  onb_meet_cancel: v.InferOutput<typeof onbMeetCancelPayloadSchema>;
  onb_meet_ok: v.InferOutput<typeof onbMeetOkPayloadSchema>;
  contractForm: v.InferOutput<typeof contractFormPayloadSchema>;
  sub_date: v.InferOutput<typeof subDatePayloadSchema>;
  sub: v.InferOutput<typeof subPayloadSchema>;
  meeting_mm: v.InferOutput<typeof meetingMmPayloadSchema>;
  lmnop: v.InferOutput<typeof lmnopPayloadSchema>;
  renounce: v.InferOutput<typeof renouncePayloadSchema>;
  withdraw: v.InferOutput<typeof withdrawPayloadSchema>;
  renew: v.InferOutput<typeof renewPayloadSchema>;
  terminate: v.InferOutput<typeof terminatePayloadSchema>;
  terminate_ok: v.InferOutput<typeof terminateOkPayloadSchema>;
  terminate_no: v.InferOutput<typeof terminateNoPayloadSchema>;
}
export type ContextName = keyof UpdatePayloads;
/** A validated payload of one context (a union when C is not given). */
export type UpdatePayload<C extends ContextName = ContextName> = { [K in C]: UpdatePayloads[K] }[C];

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
} as const satisfies Partial<OnboardingRecord>;

export interface UpdateContextDefinition<C extends ContextName> {
  context: C;
  event: (typeof eventTypes)[C];
  /** Payload schema; `now` is needed by the birth-date rule of `profil`. */
  schema: (now: number) => v.GenericSchema<unknown, UpdatePayloads[C]>;
  /** Only staff (aal2) or the server itself (webhook handlers) may send it. */
  staffOnly: boolean;
  /** Only the member themself may send it (a right of the member: decision 118). */
  memberOnly?: boolean;
  /** The server must find a paid checkout session for this member, offer and amount first. */
  payment: 'application' | 'subscription' | null;
  origin: 'spec' | 'added';
  description: string;
  /** The new record. The BFF persists it with the event-log row in one transaction. */
  apply: (record: OnboardingRecord, payload: UpdatePayloads[C], now: number) => OnboardingRecord;
}

export const updateContexts: { readonly [C in ContextName]: UpdateContextDefinition<C> } = {
  profil: {
    context: 'profil',
    event: eventTypes.profil,
    schema: profilPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'added',
    description:
      'Step 1 saved: personal information with explicit consent to sensitive data processing (its date is recorded). The BFF stores the fields beside the record.',
    apply: (record, _payload, now) => ({ ...record, profileCompleted: true, sensitiveDataConsentAt: toIsoInstant(now) }),
  },
  questionnaire: {
    context: 'questionnaire',
    event: eventTypes.questionnaire,
    schema: () => questionnairePayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'added',
    description:
      "Step 2 answers saved: practice and qualities sought (the contract's annex, R224-1). May be re-sent to correct them while on step 2.",
    apply: (record) => ({ ...record, questionnaireCompleted: true }),
  },
  form_per_inf: {
    context: 'form_per_inf',
    event: eventTypes.form_per_inf,
    schema: () => formPerInfPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description:
      'completed: true confirms steps 1-2 (needs the questionnaire saved) and opens the plans; completed: false goes back to step 1 to correct the personal information (from steps 2-3 only).',
    apply: (record, payload) =>
      payload.completed
        ? { ...record, formPersonnalInfoCompleted: true }
        : { ...record, formPersonnalInfoCompleted: false, profileCompleted: false },
  },
  sel_plan: {
    context: 'sel_plan',
    event: eventTypes.sel_plan,
    schema: () => selPlanPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description:
      'Plan chosen, with the renounce flag (true: start before the end of the 14-day period). The BFF also checks the plan is active (isPlanActive).',
    apply: (record, payload) => ({
      ...record,
      selectedPlanId: payload.id,
      renouncedWithdrawalRight: payload.renounce,
      couponApplied: false,
    }),
  },
  sel_plan_res: {
    context: 'sel_plan_res',
    event: eventTypes.sel_plan_res,
    schema: () => selPlanResPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description: 'Plan selection reset from the pre-contract information step: back to the plans, renounce flag and coupon cleared.',
    apply: (record) => ({ ...record, selectedPlanId: null, renouncedWithdrawalRight: null, couponApplied: false }),
  },
  coupon: {
    context: 'coupon',
    event: eventTypes.coupon,
    schema: () => couponPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'added',
    description:
      'File-fee coupon applied: once per plan selection, never after renouncing. Persisted so the promo code and description survive a reload.',
    apply: (record) => ({ ...record, couponApplied: true }),
  },
  app: {
    context: 'app',
    event: eventTypes.app,
    schema: () => appPayloadSchema,
    staffOnly: false,
    payment: 'application',
    origin: 'spec',
    description: 'File fee paid: only for a checkout session the server knows as paid (offer file_fee).',
    apply: (record) => ({ ...record, applicationFeesPaid: true }),
  },
  pre_contract_ok: {
    context: 'pre_contract_ok',
    event: eventTypes.pre_contract_ok,
    schema: () => preContractOkPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'added',
    description: 'Step 5: the member acknowledges the pre-contract information (prices, term, withdrawal rights).',
    apply: (record) => ({ ...record, preContractInfoAcknowledged: true }),
  },
  onb_meet: {
    context: 'onb_meet',
    event: eventTypes.onb_meet,
    schema: () => onbMeetPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description: 'Onboarding meeting date chosen (must be in the future); may be changed until the booking is confirmed.',
    apply: (record, payload) => ({
      ...record,
      onboardingMeetingDateSelected: true,
      onboardingMeetingDate: toIsoInstant(instantMs(payload.date)),
    }),
  },
  onb_meet_resa: {
    context: 'onb_meet_resa',
    event: eventTypes.onb_meet_resa,
    schema: () => onbMeetResaPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description:
      'Booking confirmed (status: true, after the scheduling message or webhook) or abandoned before confirmation (status: false: the chosen date is cleared).',
    apply: (record, payload) => (payload.status ? { ...record, onboardingMeetingReserved: true } : { ...record, ...noMeeting }),
  },
  onb_meet_cancel: {
    context: 'onb_meet_cancel',
    event: eventTypes.onb_meet_cancel,
    schema: () => onbMeetCancelPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'added',
    description:
      'A confirmed booking was cancelled (Calendly invitee.canceled webhook, or staff): back to booking. Staff-only so the record never disagrees with the scheduling service; members cancel through its cancel link.',
    apply: (record) => ({ ...record, ...noMeeting }),
  },
  onb_meet_ok: {
    context: 'onb_meet_ok',
    event: eventTypes.onb_meet_ok,
    schema: () => onbMeetOkPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'spec',
    description: 'Staff record the onboarding meeting: status: true done; status: false missed (the member books again).',
    apply: (record, payload) => (payload.status ? { ...record, onboardingMeetingDone: true } : { ...record, ...noMeeting }),
  },
  contractForm: {
    context: 'contractForm',
    event: eventTypes.contractForm,
    schema: () => contractFormPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description:
      'Contract form completed. Added fields: fullName, address, postcode, city (L224-90 mentions), signature (the full name typed again) and termsAccepted (must be true). The BFF stores them and makes the PDF copy.',
    apply: (record) => ({ ...record, subscriptionContractFormCompleted: true }),
  },
  sub_date: {
    context: 'sub_date',
    event: eventTypes.sub_date,
    schema: () => subDatePayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description:
      'Contract signed: subDate is the signature instant (the current time, within the allowed clock skew); it starts the 7-day and 14-day periods.',
    apply: (record, payload) => ({ ...record, subscriptionDate: toIsoInstant(instantMs(payload.subDate)) }),
  },
  sub: {
    context: 'sub',
    event: eventTypes.sub,
    schema: () => subPayloadSchema,
    staffOnly: false,
    payment: 'subscription',
    origin: 'spec',
    description:
      "Subscription paid: only 7 days after signature, and only for a checkout session the server knows as paid for the selected plan's offer.",
    apply: (record) => ({ ...record, subscriptionFeesPaid: true }),
  },
  meeting_mm: {
    context: 'meeting_mm',
    event: eventTypes.meeting_mm,
    schema: () => meetingMmPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'spec',
    description: 'Staff record the matchmaking meeting once the 14-day period is over or renounced: active member.',
    apply: (record) => ({ ...record, matchmakingMeetingDone: true }),
  },
  lmnop: {
    context: 'lmnop',
    event: eventTypes.lmnop,
    schema: () => lmnopPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'spec',
    description: 'Staff reset: all progress cleared, back to step 1 (not allowed on a disabled account).',
    apply: (record) => ({ ...emptyRecord(record.id, record.email, record.gender), ...noContractEnd, disabled: record.disabled }),
  },
  renounce: {
    context: 'renounce',
    event: eventTypes.renounce,
    schema: () => renouncePayloadSchema,
    staffOnly: false,
    memberOnly: true,
    payment: null,
    origin: 'added',
    description:
      'The member renounces the contract before 7 whole days since signature (L224-91): the contract is cancelled, nothing is ever charged.',
    apply: (record, _payload, now) => ({ ...record, contractRenouncedAt: toIsoInstant(now) }),
  },
  withdraw: {
    context: 'withdraw',
    event: eventTypes.withdraw,
    schema: () => withdrawPayloadSchema,
    staffOnly: false,
    memberOnly: true,
    payment: null,
    origin: 'added',
    description:
      'The member withdraws before 14 whole days since signature (L221-18): the contract ends; what was paid is refunded within 14 days, pro rata when an early start was asked (L221-24, L221-25).',
    apply: (record, _payload, now) => ({ ...record, contractWithdrawnAt: toIsoInstant(now) }),
  },
  renew: {
    context: 'renew',
    event: eventTypes.renew,
    schema: () => renewPayloadSchema,
    staffOnly: false,
    memberOnly: true,
    payment: null,
    origin: 'added',
    description:
      'A new contract after the previous one ended (renounced, withdrawn or term over): profile and questionnaire kept, back to the plans; meeting, contract and payments start again.',
    apply: (record) => ({
      ...emptyRecord(record.id, record.email, record.gender),
      ...noContractEnd,
      profileCompleted: record.profileCompleted,
      sensitiveDataConsentAt: record.sensitiveDataConsentAt,
      questionnaireCompleted: record.questionnaireCompleted,
      formPersonnalInfoCompleted: record.formPersonnalInfoCompleted,
      disabled: record.disabled,
    }),
  },
  terminate: {
    context: 'terminate',
    event: eventTypes.terminate,
    schema: () => terminatePayloadSchema,
    staffOnly: false,
    memberOnly: true,
    payment: null,
    origin: 'added',
    description:
      'An active member asks to terminate for a legitimate reason (R224-2): reason, explanation, optional proof; staff decide. The member is not proposed to anyone meanwhile.',
    apply: (record, _payload, now) => ({ ...record, terminationRequestedAt: toIsoInstant(now) }),
  },
  terminate_ok: {
    context: 'terminate_ok',
    event: eventTypes.terminate_ok,
    schema: () => terminateOkPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'added',
    description:
      'Staff accept the termination: the contract ends; the price is reduced pro rata of the time elapsed until the request, the rest of what was paid is refunded within two months of the request.',
    apply: (record, _payload, now) => ({ ...record, terminatedAt: toIsoInstant(now) }),
  },
  terminate_no: {
    context: 'terminate_no',
    event: eventTypes.terminate_no,
    schema: () => terminateNoPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'added',
    description: 'Staff refuse the termination with a written reason: the contract goes on (back to active member).',
    apply: (record) => ({ ...record, terminationRequestedAt: undefined }),
  },
};

export const contextNames = Object.keys(updateContexts) as ContextName[];

export function definitionOf<C extends ContextName>(context: C): UpdateContextDefinition<C> {
  return updateContexts[context] as UpdateContextDefinition<C>;
}

/** The record after an update (the same function the chart's `applyUpdate` action runs). */
export function applyUpdate(record: OnboardingRecord, update: UpdatePayload, now: number): OnboardingRecord {
  const apply = updateContexts[update.context].apply as (record: OnboardingRecord, payload: UpdatePayload, now: number) => OnboardingRecord;
  return apply(record, update, now);
}

// ---------------------------------------------------------------------------
// Parsing

export type Issues = [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]];
export type ParseUpdateResult = { success: true; update: UpdatePayload } | { success: false; issues: Issues };

const contextSchema = v.object({ context: v.picklist(contextNames as [ContextName, ...ContextName[]], 'Contexte inconnu') }, (issue) =>
  issue.received === 'undefined' && issue.path !== undefined ? 'Contexte inconnu' : 'Requête invalide',
);

/**
 * Validates a request body of `POST /api/v1/user/update`. `now` is the server's
 * clock (the birth-date rule). Issues carry French messages; `v.flatten(issues)`
 * gives them per field.
 */
export function parseUpdate(input: unknown, now: number): ParseUpdateResult {
  const head = v.safeParse(contextSchema, input);
  if (!head.success) return { success: false, issues: head.issues };
  const result = v.safeParse(updateContexts[head.output.context].schema(now), input);
  return result.success ? { success: true, update: result.output as UpdatePayload } : { success: false, issues: result.issues };
}

// ---------------------------------------------------------------------------
// Server checks the BFF makes around the chart

/** The payment the server must find before `app` or `sub`: offer and amount (cents). */
export function expectedPayment(record: OnboardingRecord, context: 'app' | 'sub'): { offerId: OfferId; amountCents: number } | null {
  if (context === 'app') {
    return { offerId: 'file_fee', amountCents: expectedAmountCents('file_fee', { couponApplied: record.couponApplied }) };
  }
  if (record.selectedPlanId === null) return null;
  return { offerId: record.selectedPlanId, amountCents: expectedAmountCents(record.selectedPlanId, { couponApplied: false }) };
}

/**
 * The ban call (`POST /api/v1/auth/ban`, staff-only) is not an update context, but
 * it changes the record too: `disable: true` becomes the chart's DISABLE event;
 * `disable: false` lifts the ban, and the chart, restored from the record, is back
 * on the member's step.
 */
export const banPayloadSchema = strict({ disable: v.boolean('Valeur invalide'), uid: uidSchema });
export type BanPayload = v.InferOutput<typeof banPayloadSchema>;

export function applyBan(record: OnboardingRecord, payload: BanPayload): OnboardingRecord {
  return { ...record, disabled: payload.disable };
}
