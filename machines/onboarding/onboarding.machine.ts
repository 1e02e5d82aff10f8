import { and, assign, not, setup } from 'xstate';
import { instantMs } from '#machines/onboarding/instant.ts';
import { signatureDateIsCurrent, termOver, withdrawalWaitOver } from '#machines/onboarding/periods.ts';
import { renunciationOpen, subscriptionPaymentOpen, withdrawalOpen } from '#machines/onboarding/legal-deadlines.ts';
import { canApplyCoupon, FILE_FEE_CENTS } from '#machines/onboarding/plans.ts';
import { parisDayOf } from '#machines/paris-time.ts';
import { emptyRecord, type OnboardingContext, type OnboardingRecord, recordOf } from '#machines/onboarding/record.ts';
import { applyUpdate, type UpdateEvent } from '#machines/onboarding/record-changes.ts';
import type { UpdatePayload } from '#machines/onboarding/update-contexts.ts';

/**
 * The onboarding chart (decisions §4). Its context is the member's record plus the
 * clock (`now`, ms). Every event carries `now`; the clock only moves forward, and
 * time guards read max(context.now, event.now), so a given snapshot and event
 * always give the same result, in the browser and on the server.
 *
 * Update events (see update-contexts.ts) run the `applyUpdate` action, i.e. the
 * very function the BFF uses to change the stored record.
 */

/** Time passes: the SPA sends it so waiting screens move on when a period ends. */
export type TickEvent = { type: 'TICK'; now: number };
/** The account is banned (POST /api/v1/auth/ban with disable: true). */
export type DisableEvent = { type: 'DISABLE'; now: number };
export type OnboardingEvent = UpdateEvent | TickEvent | DisableEvent;

export interface OnboardingInput {
  record: OnboardingRecord;
  now: number;
}

function clock(context: OnboardingContext, event: { now?: unknown }): number {
  return typeof event.now === 'number' ? Math.max(context.now, event.now) : context.now;
}

function updateOf(event: OnboardingEvent): UpdatePayload | null {
  return 'update' in event ? event.update : null;
}

function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export const onboardingMachine = setup({
  types: {
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
    input: {} as OnboardingInput,
  },
  guards: {
    accountEnabled: ({ context }) => !context.disabled,
    /** The update names this member (`uid`). */
    isMemberUid: ({ context, event }) => {
      const update = updateOf(event);
      return update !== null && 'uid' in update && update.uid === context.id;
    },
    /** The payment was made with this member's e-mail (`app`, `sub`). */
    isMemberEmail: ({ context, event }) => {
      const update = updateOf(event);
      return update !== null && 'email' in update && sameEmail(update.email, context.email);
    },
    completesPersonalInfo: ({ event }) => {
      const update = updateOf(event);
      return update?.context === 'form_per_inf' && update.completed;
    },
    questionnaireSaved: ({ context }) => context.questionnaireCompleted,
    couponAvailable: ({ context }) => canApplyCoupon(context),
    /** The code takes the whole file fee off (decision 195; the server adds what it takes): the fee is settled. */
    couponWaivesFee: ({ event }) => {
      const update = updateOf(event);
      return update?.context === 'coupon' && (update.discountCents ?? FILE_FEE_CENTS) >= FILE_FEE_CENTS;
    },
    statusIsTrue: ({ event }) => {
      const update = updateOf(event);
      return update !== null && 'status' in update && update.status;
    },
    meetingDateInFuture: ({ context, event }) => {
      const update = updateOf(event);
      return update?.context === 'onb_meet' && instantMs(update.date) > clock(context, event);
    },
    signatureDateIsCurrent: ({ context, event }) => {
      const update = updateOf(event);
      return update?.context === 'sub_date' && signatureDateIsCurrent(update.subDate, clock(context, event));
    },
    /** Staff may mark the onboarding meeting held, or missed, only once it has started. */
    meetingStarted: ({ context, event }) =>
      context.onboardingMeetingDate !== null && instantMs(context.onboardingMeetingDate) <= clock(context, event),
    /** The 7-day renunciation period is over, in civil days (L224-91, decision 165): before that, no money of any kind. */
    subscriptionPaymentOpen: ({ context, event }) => subscriptionPaymentOpen(context.subscriptionDate, clock(context, event)),
    fileFeePaid: ({ context }) => context.applicationFeesPaid,
    subscriptionPaid: ({ context }) => context.subscriptionFeesPaid,
    /** The 14-day withdrawal period is over, in civil days (L221-18, decision 165), or renounced (L221-25). */
    withdrawalWaitOver: ({ context, event }) => withdrawalWaitOver(context, clock(context, event)),
    /** The renunciation period runs (until 24:00 Paris on its last day): the member may renounce (L224-91). */
    renunciationOpen: ({ context, event }) => renunciationOpen(context.subscriptionDate, clock(context, event)),
    /** The withdrawal period runs (until 24:00 Paris on its last day): the member may withdraw (L221-18). */
    withdrawalOpen: ({ context, event }) => withdrawalOpen(context.subscriptionDate, clock(context, event)),
    /** The fixed term (signature + 6 or 12 months) is over (L224-90). */
    termOver: ({ context, event }) => termOver(context, clock(context, event)),
    /** A letter was received after the day of the signature and not after today (Paris; decision 189). */
    letterReceivedDuringContract: ({ context, event }) => {
      const update = updateOf(event);
      if (update?.context !== 'terminate_letter' || context.subscriptionDate === null) return false;
      const day = update.receivedOn;
      return day > parisDayOf(instantMs(context.subscriptionDate)) && day <= parisDayOf(clock(context, event));
    },
  },
  actions: {
    applyUpdate: assign(({ context, event }) => {
      const update = updateOf(event);
      const now = clock(context, event);
      return update === null ? { now } : { ...applyUpdate(recordOf(context), update, now), now };
    }),
    advanceClock: assign(({ context, event }) => ({ now: clock(context, event) })),
    disableAccount: assign(({ context, event }) => ({ disabled: true, now: clock(context, event) })),
  },
}).createMachine({
  id: 'onboarding',
  // xstate's pure `transition()` (the server's decisions, restore.ts) runs on an inert actor made
  // without input, whose own start is never used: it starts from an empty record rather than
  // throwing (an error and its stack on every decision).
  context: ({ input }) => (input ? { ...input.record, now: input.now } : { ...emptyRecord('', '', 'femme'), now: 0 }),
  initial: 'profil',
  on: {
    TICK: { actions: 'advanceClock' },
    DISABLE: { guard: 'accountEnabled', target: '.desactive', actions: 'disableAccount' },
    RESET_ONBOARDING: {
      guard: and(['accountEnabled', 'isMemberUid']),
      target: '.profil',
      actions: 'applyUpdate',
    },
  },
  states: {
    // 1. Personal information, with consent to sensitive data processing.
    profil: {
      on: { SAVE_PROFILE: { target: 'questionnaire-profil', actions: 'applyUpdate' } },
    },
    // 2. Matchmaking questionnaire; form_per_inf confirms steps 1-2.
    'questionnaire-profil': {
      on: {
        SAVE_QUESTIONNAIRE: { actions: 'applyUpdate' },
        MARK_PERSONAL_INFO: [
          { guard: and(['completesPersonalInfo', 'questionnaireSaved']), target: 'formules', actions: 'applyUpdate' },
          { guard: not('completesPersonalInfo'), target: 'profil', actions: 'applyUpdate' },
        ],
      },
    },
    // 3. Plans.
    formules: {
      on: {
        SELECT_PLAN: { target: 'informations-et-tarifs', actions: 'applyUpdate' },
        MARK_PERSONAL_INFO: { guard: not('completesPersonalInfo'), target: 'profil', actions: 'applyUpdate' },
      },
    },
    // 4. Pre-contract information; the plan may still be changed.
    'informations-et-tarifs': {
      on: {
        ACKNOWLEDGE_PRE_CONTRACT: { target: 'prendre-un-rendez-vous', actions: 'applyUpdate' },
        RESET_PLAN: { target: 'formules', actions: 'applyUpdate' },
      },
    },
    // 5. Book the onboarding meeting: choose a slot, then the booking is confirmed.
    'prendre-un-rendez-vous': {
      initial: 'choix-creneau',
      states: {
        'choix-creneau': {
          on: { SELECT_MEETING_DATE: { guard: 'meetingDateInFuture', target: 'confirmation', actions: 'applyUpdate' } },
        },
        confirmation: {
          on: {
            SELECT_MEETING_DATE: { guard: 'meetingDateInFuture', actions: 'applyUpdate' },
            RESERVE_MEETING: [
              {
                guard: and(['isMemberUid', 'statusIsTrue']),
                target: '#onboarding.attente-entretien-personnalise',
                actions: 'applyUpdate',
              },
              { guard: and(['isMemberUid', not('statusIsTrue')]), target: 'choix-creneau', actions: 'applyUpdate' },
            ],
          },
        },
      },
    },
    // 6. Wait for the meeting; staff mark it held or missed (neither before its start); a cancellation returns to 5.
    'attente-entretien-personnalise': {
      on: {
        RECORD_ONBOARDING_MEETING: [
          { guard: and(['isMemberUid', 'statusIsTrue', 'meetingStarted']), target: 'attente-contrat', actions: 'applyUpdate' },
          // Missed: only once its time has come too (issue 63), the slot then freed by the server.
          {
            guard: and(['isMemberUid', not('statusIsTrue'), 'meetingStarted']),
            target: 'prendre-un-rendez-vous',
            actions: 'applyUpdate',
          },
        ],
        CANCEL_MEETING: { guard: 'isMemberUid', target: 'prendre-un-rendez-vous', actions: 'applyUpdate' },
      },
    },
    // 7. Contract form, signature, then the 7-day renunciation period without any payment (L224-91), in civil days.
    'attente-contrat': {
      initial: 'formulaire-contrat',
      states: {
        'formulaire-contrat': {
          on: { SUBMIT_CONTRACT_FORM: { target: 'signature', actions: 'applyUpdate' } },
        },
        signature: {
          on: { SIGN_CONTRACT: { guard: 'signatureDateIsCurrent', target: 'delai-renonciation', actions: 'applyUpdate' } },
        },
        'delai-renonciation': {
          always: { guard: 'subscriptionPaymentOpen', target: '#onboarding.frais-de-dossier' },
          // A payment arriving exactly as day 7 begins (no TICK in between) opens the payment step.
          on: {
            // L224-91: the member goes back on the contract at no cost; nothing is ever charged.
            RENOUNCE_CONTRACT: { guard: 'renunciationOpen', target: '#onboarding.renonce', actions: 'applyUpdate' },
            PAY_FILE_FEE: {
              guard: and(['isMemberEmail', 'subscriptionPaymentOpen']),
              target: '#onboarding.frais-de-dossier',
              actions: 'applyUpdate',
            },
            PAY_SUBSCRIPTION: {
              guard: and(['isMemberEmail', 'subscriptionPaymentOpen']),
              target: '#onboarding.frais-de-dossier',
              actions: 'applyUpdate',
            },
          },
        },
      },
    },
    // 8. From day 7 after signature: file fee (waived by the coupon) and subscription, in either order.
    // Every payment event re-checks the 7 days, whatever state it arrives in. A contract left unpaid
    // until its term ends there: nothing is paid for a contract that is over.
    'frais-de-dossier': {
      always: { guard: 'termOver', target: 'contrat-termine' },
      on: {
        WITHDRAW_CONTRACT: { guard: 'withdrawalOpen', target: 'retracte', actions: 'applyUpdate' },
        // A code waiving the whole fee settles it, as its payment would (decision 195).
        APPLY_COUPON: [
          {
            guard: and(['couponAvailable', not('fileFeePaid'), 'couponWaivesFee', 'subscriptionPaid']),
            target: 'attente',
            actions: 'applyUpdate',
          },
          { guard: and(['couponAvailable', not('fileFeePaid')]), actions: 'applyUpdate' },
        ],
        PAY_FILE_FEE: [
          {
            guard: and(['isMemberEmail', 'subscriptionPaymentOpen', not('fileFeePaid'), 'subscriptionPaid']),
            target: 'attente',
            actions: 'applyUpdate',
          },
          { guard: and(['isMemberEmail', 'subscriptionPaymentOpen', not('fileFeePaid')]), actions: 'applyUpdate' },
        ],
        PAY_SUBSCRIPTION: [
          {
            guard: and(['isMemberEmail', 'subscriptionPaymentOpen', not('subscriptionPaid'), 'fileFeePaid']),
            target: 'attente',
            actions: 'applyUpdate',
          },
          { guard: and(['isMemberEmail', 'subscriptionPaymentOpen', not('subscriptionPaid')]), actions: 'applyUpdate' },
        ],
      },
    },
    // 9. The 14-day withdrawal period (unless renounced), then staff hold the matchmaking meeting;
    // a contract whose term ends before the meeting ends there too.
    attente: {
      initial: 'delai-retractation',
      always: { guard: 'termOver', target: 'contrat-termine' },
      on: {
        WITHDRAW_CONTRACT: { guard: 'withdrawalOpen', target: 'retracte', actions: 'applyUpdate' },
        RECORD_MATCHMAKING_MEETING: {
          guard: and(['isMemberUid', 'withdrawalWaitOver']),
          target: 'membre-actif',
          actions: 'applyUpdate',
        },
      },
      states: {
        'delai-retractation': {
          always: { guard: 'withdrawalWaitOver', target: 'entretien-matchmaking' },
        },
        'entretien-matchmaking': {},
      },
    },
    // Active until the fixed term ends (L224-90); a member who asked to start early may still withdraw within 14 days.
    'membre-actif': {
      always: { guard: 'termOver', target: 'contrat-termine' },
      on: {
        WITHDRAW_CONTRACT: { guard: 'withdrawalOpen', target: 'retracte', actions: 'applyUpdate' },
        // R224-2: termination for a legitimate reason, asked by the member, decided by staff (decision 119).
        REQUEST_TERMINATION: { target: 'resiliation-demandee', actions: 'applyUpdate' },
        // …or by letter, registered or not, that staff record at the day it was received (decision 189).
        RECORD_TERMINATION_LETTER: {
          guard: and(['isMemberUid', 'letterReceivedDuringContract']),
          target: 'resiliation-demandee',
          actions: 'applyUpdate',
        },
      },
    },
    // The member asked to terminate; they are not proposed to anyone meanwhile. Staff accept or refuse
    // (with a written reason: back to membre-actif). The request was made within the term, so staff may
    // still decide after its end.
    'resiliation-demandee': {
      on: {
        ACCEPT_TERMINATION: { guard: 'isMemberUid', target: 'resilie', actions: 'applyUpdate' },
        REFUSE_TERMINATION: { guard: 'isMemberUid', target: 'membre-actif', actions: 'applyUpdate' },
      },
    },
    // The contract is over (decision 118): renounced, withdrawn, or its term reached. A new contract starts at the plans.
    renonce: { on: { RENEW_CONTRACT: { target: 'formules', actions: 'applyUpdate' } } },
    retracte: { on: { RENEW_CONTRACT: { target: 'formules', actions: 'applyUpdate' } } },
    'contrat-termine': { on: { RENEW_CONTRACT: { target: 'formules', actions: 'applyUpdate' } } },
    resilie: { on: { RENEW_CONTRACT: { target: 'formules', actions: 'applyUpdate' } } },
    desactive: {},
  },
});

export type OnboardingMachine = typeof onboardingMachine;
