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
import { isoInstantSchema } from '#machines/onboarding/instant.ts';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import { objectMessage } from '#machines/onboarding/messages.ts';
import { COUPON_CODE_PATTERN, planIdSchema } from '#machines/onboarding/plans.ts';
import { emailSchema, memberIdSchema } from '#machines/onboarding/record.ts';
import { parisDayOf } from '#machines/paris-time.ts';

/**
 * The payloads of the update contexts (`POST /api/v1/user/update`): their schemas (strict, French
 * messages) and types. The table of `update-contexts.ts` refers to them; the record changes of
 * `record-changes.ts` take their types only (the chart in the browser loads no schema with them).
 */

export const uidSchema = memberIdSchema;

/** A Stripe Checkout Session id, e.g. `cs_test_a1B2c3`. The server checks it is paid. */
export const checkoutSessionIdSchema = v.pipe(
  v.string('Session de paiement invalide'),
  v.regex(/^cs_[A-Za-z0-9_]{1,250}$/, 'Session de paiement invalide'),
);

// ---------------------------------------------------------------------------
// Payload schemas

/** A strict object: unknown fields are refused; missing ones reported in French. */
export function strict<const TEntries extends v.ObjectEntries>(entries: TEntries) {
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

/** The code the member typed (decision 195): the server finds it, checks it and redeems it. */
export const couponPayloadSchema = strict({
  context: v.literal('coupon'),
  code: v.pipe(
    v.string('Saisissez votre code avantage.'),
    v.trim(),
    v.toUpperCase(),
    v.minLength(1, 'Saisissez votre code avantage.'),
    v.maxLength(40, 'Ce code n’existe pas.'),
    v.regex(COUPON_CODE_PATTERN, 'Ce code n’existe pas.'),
  ),
});

/**
 * The code as the chart applies it: the server adds what it takes off the file fee, found in the
 * database in the event's transaction (a member never sends it: the payload schema is strict).
 */
export type CouponUpdate = v.InferOutput<typeof couponPayloadSchema> & { discountCents?: number };

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

const terminationExplanationSchema = v.pipe(
  v.string('Veuillez expliquer votre situation'),
  v.trim(),
  v.minLength(10, 'Veuillez expliquer votre situation en quelques mots (10 caractères au moins)'),
  v.maxLength(2000, 'Explication trop longue (2 000 caractères au plus)'),
);

/**
 * The member asks to terminate for a legitimate reason (R224-2, decision 119): a reason from the
 * short list and an explanation. The proof is a file sent with the request's form (decision 189),
 * never a text here: `POST /api/v1/user/terminations` validates it, then sends this event.
 */
export const terminatePayloadSchema = strict({
  context: v.literal('terminate'),
  reason: v.picklist(terminationReasons, 'Veuillez choisir un motif'),
  explanation: terminationExplanationSchema,
});

/**
 * Staff record a request received by letter (decision 189): the day it was received (Paris), never
 * in the future, the reason and what the letter says; then the same review as an online request.
 */
export const terminateLetterPayloadSchema = (now: number) =>
  strict({
    context: v.literal('terminate_letter'),
    uid: uidSchema,
    receivedOn: v.pipe(
      v.string('Veuillez indiquer la date de réception du courrier'),
      v.isoDate('Date de réception invalide (AAAA-MM-JJ)'),
      // A day the calendar has; run even after `isoDate` refused the text (valibot goes on): never throws.
      v.check(
        (day) => !Number.isNaN(Date.parse(`${day}T12:00:00Z`)) && new Date(`${day}T12:00:00Z`).toISOString().startsWith(day),
        'Date de réception invalide (AAAA-MM-JJ)',
      ),
      v.check((day) => day <= parisDayOf(now), 'La date de réception ne peut pas être dans le futur'),
    ),
    reason: v.picklist(terminationReasons, 'Veuillez choisir un motif'),
    explanation: terminationExplanationSchema,
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
  coupon: CouponUpdate;
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
  terminate_letter: v.InferOutput<ReturnType<typeof terminateLetterPayloadSchema>>;
  terminate_ok: v.InferOutput<typeof terminateOkPayloadSchema>;
  terminate_no: v.InferOutput<typeof terminateNoPayloadSchema>;
}
export type ContextName = keyof UpdatePayloads;
/** A validated payload of one context (a union when C is not given). */
export type UpdatePayload<C extends ContextName = ContextName> = { [K in C]: UpdatePayloads[K] }[C];
