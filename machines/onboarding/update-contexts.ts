import * as v from 'valibot';
import { expectedAmountCents, type OfferId } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { eventTypes, recordChanges } from '#machines/onboarding/record-changes.ts';
import {
  appPayloadSchema,
  type ContextName,
  contractFormPayloadSchema,
  couponPayloadSchema,
  formPerInfPayloadSchema,
  lmnopPayloadSchema,
  meetingMmPayloadSchema,
  onbMeetCancelPayloadSchema,
  onbMeetOkPayloadSchema,
  onbMeetPayloadSchema,
  onbMeetResaPayloadSchema,
  preContractOkPayloadSchema,
  profilPayloadSchema,
  questionnairePayloadSchema,
  renewPayloadSchema,
  renouncePayloadSchema,
  selPlanPayloadSchema,
  selPlanResPayloadSchema,
  strict,
  subDatePayloadSchema,
  subPayloadSchema,
  terminateNoPayloadSchema,
  terminateOkPayloadSchema,
  terminateLetterPayloadSchema,
  terminatePayloadSchema,
  uidSchema,
  type UpdatePayload,
  type UpdatePayloads,
  withdrawPayloadSchema,
} from '#machines/onboarding/update-payloads.ts';

export { applyUpdate, eventTypes, toMachineEvent, type UpdateEvent } from '#machines/onboarding/record-changes.ts';
export * from '#machines/onboarding/update-payloads.ts';

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
    apply: recordChanges.profil,
  },
  questionnaire: {
    context: 'questionnaire',
    event: eventTypes.questionnaire,
    schema: () => questionnairePayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'added',
    description:
      "Step 2 answers saved: practice and qualities sought (the contract's annex, R224‑1). May be re-sent to correct them while on step 2.",
    apply: recordChanges.questionnaire,
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
    apply: recordChanges.form_per_inf,
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
    apply: recordChanges.sel_plan,
  },
  sel_plan_res: {
    context: 'sel_plan_res',
    event: eventTypes.sel_plan_res,
    schema: () => selPlanResPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description: 'Plan selection reset from the pre-contract information step: back to the plans, renounce flag and coupon cleared.',
    apply: recordChanges.sel_plan_res,
  },
  coupon: {
    context: 'coupon',
    event: eventTypes.coupon,
    schema: () => couponPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'added',
    description:
      "File-fee code typed by the member (decision 195): found, checked and redeemed by the server in the event's transaction; once per plan selection, never after renouncing. A code waiving the whole fee settles it.",
    apply: recordChanges.coupon,
  },
  app: {
    context: 'app',
    event: eventTypes.app,
    schema: () => appPayloadSchema,
    staffOnly: false,
    payment: 'application',
    origin: 'spec',
    description: 'File fee paid: only for a checkout session the server knows as paid (offer file_fee).',
    apply: recordChanges.app,
  },
  pre_contract_ok: {
    context: 'pre_contract_ok',
    event: eventTypes.pre_contract_ok,
    schema: () => preContractOkPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'added',
    description: 'Step 5: the member acknowledges the pre-contract information (prices, term, withdrawal rights).',
    apply: recordChanges.pre_contract_ok,
  },
  onb_meet: {
    context: 'onb_meet',
    event: eventTypes.onb_meet,
    schema: () => onbMeetPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description: 'Onboarding meeting date chosen (must be in the future); may be changed until the booking is confirmed.',
    apply: recordChanges.onb_meet,
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
    apply: recordChanges.onb_meet_resa,
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
    apply: recordChanges.onb_meet_cancel,
  },
  onb_meet_ok: {
    context: 'onb_meet_ok',
    event: eventTypes.onb_meet_ok,
    schema: () => onbMeetOkPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'spec',
    description: 'Staff record the onboarding meeting: status: true done; status: false missed (the member books again).',
    apply: recordChanges.onb_meet_ok,
  },
  contractForm: {
    context: 'contractForm',
    event: eventTypes.contractForm,
    schema: () => contractFormPayloadSchema,
    staffOnly: false,
    payment: null,
    origin: 'spec',
    description:
      'Contract form completed. Added fields: fullName, address, postcode, city (L224‑90 mentions), signature (the full name typed again) and termsAccepted (must be true). The BFF stores them and makes the PDF copy.',
    apply: recordChanges.contractForm,
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
    apply: recordChanges.sub_date,
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
    apply: recordChanges.sub,
  },
  meeting_mm: {
    context: 'meeting_mm',
    event: eventTypes.meeting_mm,
    schema: () => meetingMmPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'spec',
    description: 'Staff record the matchmaking meeting once the 14-day period is over or renounced: active member.',
    apply: recordChanges.meeting_mm,
  },
  lmnop: {
    context: 'lmnop',
    event: eventTypes.lmnop,
    schema: () => lmnopPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'spec',
    description: 'Staff reset: all progress cleared, back to step 1 (not allowed on a disabled account).',
    apply: recordChanges.lmnop,
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
      'The member renounces the contract within the 7-day renunciation period, in civil days (L224‑91): the contract is cancelled, nothing is ever charged.',
    apply: recordChanges.renounce,
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
      'The member withdraws within the 14-day withdrawal period, in civil days (L221‑18, L221‑19): the contract ends; what was paid is refunded within 14 days, pro rata when an early start was asked (L221‑24, L221‑25).',
    apply: recordChanges.withdraw,
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
    apply: recordChanges.renew,
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
      'An active member asks to terminate for a legitimate reason (R224‑2): reason and explanation, the proof a file sent with the form (decision 189); staff decide. The member is not proposed to anyone meanwhile.',
    apply: recordChanges.terminate,
  },
  terminate_letter: {
    context: 'terminate_letter',
    event: eventTypes.terminate_letter,
    schema: terminateLetterPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'added',
    description:
      'Staff record a termination request the member sent by letter, registered or not (decision 189), dated the day it was received; then the same review as an online request.',
    apply: recordChanges.terminate_letter,
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
    apply: recordChanges.terminate_ok,
  },
  terminate_no: {
    context: 'terminate_no',
    event: eventTypes.terminate_no,
    schema: () => terminateNoPayloadSchema,
    staffOnly: true,
    payment: null,
    origin: 'added',
    description: 'Staff refuse the termination with a written reason: the contract goes on (back to active member).',
    apply: recordChanges.terminate_no,
  },
};

export const contextNames = Object.keys(updateContexts) as ContextName[];

export function definitionOf<C extends ContextName>(context: C): UpdateContextDefinition<C> {
  return updateContexts[context] as UpdateContextDefinition<C>;
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
    return { offerId: 'file_fee', amountCents: expectedAmountCents('file_fee', record) };
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
