import { and, assign, not, setup } from 'xstate';
import {
  type IntroductionContext,
  type IntroductionInput,
  initialContext,
  newRound,
  otherSide,
  roundOf,
} from '#machines/introductions/context.ts';
import { defaultCloseMessage, type IntroductionEvent } from '#machines/introductions/events.ts';
import type { IntroductionStateKey, Side } from '#machines/introductions/labels.ts';
import { feedbackInTime } from '#machines/introductions/feedback-deadline.ts';
import { deadlineOf, reminderDueAt } from '#machines/introductions/rules.ts';
import { instantMs, toIsoInstant } from '#machines/onboarding/instant.ts';

/**
 * The introduction chart (issue 22, decisions §8): one introduction between two members, sides
 * `a` and `b`, with the BFF as its authority exactly as for onboarding. Every event carries its
 * actor and its instant (`at`, ms); the clock only moves forward (max of the last accepted
 * event's instant and `at`), so a snapshot and an event always give the same answer.
 *
 * Member events (ACCEPT, DECLINE, FEEDBACK) are accepted only from the member of the side they
 * name: a consent cannot be given by someone else, staff included; staff may only record a feedback
 * heard by phone, named as such (decision 205). Every other event is staff-only
 * (EXPIRE, REMIND and END are sent by the agency's server, as staff). A refused event changes nothing.
 */

export type { IntroductionEvent } from '#machines/introductions/events.ts';

export function clockOf(context: IntroductionContext, event: { at: number }): number {
  return Math.max(instantMs(context.lastEventAt), event.at);
}

function sideOf(event: IntroductionEvent): Side | null {
  return 'side' in event ? event.side : null;
}

interface GuardArgs {
  context: IntroductionContext;
  event: IntroductionEvent;
}

/** The chart's guards, pure functions of the context and the event (tested one by one). */
export const introductionGuards = {
  /** Sent by staff (or the agency's scheduler). */
  byStaff: ({ event }: GuardArgs) => event.actor.kind === 'staff',
  /** Sent by the member of the side the event names. */
  byMemberOfSide: ({ event }: GuardArgs) => event.actor.kind === 'member' && event.actor.side === sideOf(event),
  /** The named side has not answered yet. */
  answerPending: ({ context, event }: GuardArgs) => {
    const side = sideOf(event);
    return side !== null && context.answers[side].status === 'pending';
  },
  /** The other side has already accepted: this acceptance makes it mutual. */
  otherSideAccepted: ({ context, event }: GuardArgs) => {
    const side = sideOf(event);
    return side !== null && context.answers[otherSide(side)].status === 'accepted';
  },
  /** Still within the 7 days to answer. */
  beforeDeadline: ({ context, event }: GuardArgs) => clockOf(context, event) < deadlineOf(context.proposedAt),
  /** The 7 days to answer are over. */
  deadlinePassed: ({ context, event }: GuardArgs) => clockOf(context, event) >= deadlineOf(context.proposedAt),
  /** Day 5 of 7 reached, the deadline not yet, and no reminder sent in this round. */
  reminderDue: ({ context, event }: GuardArgs) => {
    const now = clockOf(context, event);
    return context.remindedAt === null && now >= reminderDueAt(context.proposedAt) && now < deadlineOf(context.proposedAt);
  },
  /** The meeting is planned for a later instant than now. */
  meetingInFuture: ({ context, event }: GuardArgs) => event.type === 'PLAN_MEETING' && instantMs(event.meetingAt) > clockOf(context, event),
  /** The planned meeting's start has come: it may be recorded as held. */
  meetingStarted: ({ context, event }: GuardArgs) => context.meeting !== null && clockOf(context, event) >= instantMs(context.meeting.at),
  /**
   * A feedback sent by the member of the side it names, or recorded by staff as heard by phone
   * (decision 205: `recordedBy`, set by the BFF from the staff session).
   */
  feedbackSender: ({ event }: GuardArgs) =>
    event.type === 'FEEDBACK' &&
    ((event.actor.kind === 'member' && event.actor.side === event.side) || (event.actor.kind === 'staff' && Boolean(event.recordedBy))),
  /** A member's first feedback comes within its deadline (decision 205); staff's record of a phone call at any time. */
  feedbackInTime: ({ context, event }: GuardArgs) =>
    event.actor.kind === 'staff' || feedbackInTime(context.meetingHeldAt, clockOf(context, event)),
  /** The named side has given no feedback yet in this round. */
  feedbackPending: ({ context, event }: GuardArgs) => {
    const side = sideOf(event);
    return side !== null && context.feedback[side] === null;
  },
  /** The other side has given its feedback. */
  otherSideFeedbackGiven: ({ context, event }: GuardArgs) => {
    const side = sideOf(event);
    return side !== null && context.feedback[otherSide(side)] !== null;
  },
  wantsToStop: ({ event }: GuardArgs) => event.type === 'FEEDBACK' && event.outcome === 'arreter',
  wantsToContinue: ({ event }: GuardArgs) => event.type === 'FEEDBACK' && event.outcome === 'continuer',
  announcesEngagement: ({ event }: GuardArgs) => event.type === 'FEEDBACK' && event.outcome === 'fiances',
  /** The other side's latest feedback announces the engagement. */
  otherSideEngaged: ({ context, event }: GuardArgs) => {
    const side = sideOf(event);
    return side !== null && context.feedback[otherSide(side)]?.outcome === 'fiances';
  },
  /** The named side's latest feedback already announces the engagement. */
  alreadyEngaged: ({ context, event }: GuardArgs) => {
    const side = sideOf(event);
    return side !== null && context.feedback[side]?.outcome === 'fiances';
  },
  /** The agency has not ended it yet (END, decision 194: once is enough, in an engagement too). */
  notEnded: ({ context }: GuardArgs) => context.ended === null,
  /** A staff note that says something (CLOSE, REOPEN). */
  hasNote: ({ event }: GuardArgs) => (event.type === 'CLOSE' || event.type === 'REOPEN') && event.note.trim().length > 0,
};

const at = (context: IntroductionContext, event: IntroductionEvent) => toIsoInstant(clockOf(context, event));

/** The input of an actor made without one (see `context` below). */
const NO_INPUT: IntroductionInput = { id: '', members: { a: '', b: '' }, proposedAt: 0, summaryConsentAt: { a: '', b: '' } };

export const introductionMachine = setup({
  types: {
    context: {} as IntroductionContext,
    events: {} as IntroductionEvent,
    input: {} as IntroductionInput,
  },
  guards: introductionGuards,
  actions: {
    /** A member accepts: their consent to show photos and contact details, given now. */
    recordAcceptance: assign(({ context, event }) => {
      if (event.type !== 'ACCEPT') return {};
      const now = at(context, event);
      return {
        answers: { ...context.answers, [event.side]: { status: 'accepted', at: now, reason: null, comment: null } },
        consents: { ...context.consents, [event.side]: { ...context.consents[event.side], photos: now, contact: now } },
        lastEventAt: now,
      };
    }),
    /** Both accepted: each side's photos and contact details are released to the other, now. */
    releasePhotosAndContact: assign(({ context, event }) => {
      const now = at(context, event);
      return {
        disclosures: {
          a: { ...context.disclosures.a, photos: now, contact: now },
          b: { ...context.disclosures.b, photos: now, contact: now },
        },
      };
    }),
    /** A member declines (an earlier acceptance, and its consent, are withdrawn with it). */
    recordDecline: assign(({ context, event }) => {
      if (event.type !== 'DECLINE') return {};
      const now = at(context, event);
      return {
        answers: { ...context.answers, [event.side]: { status: 'declined', at: now, reason: event.reason, comment: event.comment } },
        consents: { ...context.consents, [event.side]: { ...context.consents[event.side], photos: null, contact: null } },
        lastEventAt: now,
      };
    }),
    recordReminder: assign(({ context, event }) => ({ remindedAt: at(context, event), lastEventAt: at(context, event) })),
    recordExpiry: assign(({ context, event }) => ({ expiredAt: at(context, event), lastEventAt: at(context, event) })),
    planMeeting: assign(({ context, event }) => {
      if (event.type !== 'PLAN_MEETING') return {};
      const now = at(context, event);
      const accompaniedBy = event.accompaniedBy?.trim() || null;
      return {
        meeting: { at: toIsoInstant(instantMs(event.meetingAt)), place: event.place.trim(), plannedAt: now, accompaniedBy },
        lastEventAt: now,
      };
    }),
    /** Staff cancel the planned meeting (decision 197): none is planned any more; they may plan another. */
    cancelMeeting: assign(({ context, event }) => {
      const now = at(context, event);
      return { meeting: null, lastEventAt: now };
    }),
    recordMeetingHeld: assign(({ context, event }) => ({ meetingHeldAt: at(context, event), lastEventAt: at(context, event) })),
    recordFeedback: assign(({ context, event }) => {
      if (event.type !== 'FEEDBACK') return {};
      const now = at(context, event);
      return {
        feedback: {
          ...context.feedback,
          [event.side]: {
            outcome: event.outcome,
            reason: event.reason,
            at: now,
            recordedBy: event.actor.kind === 'staff' ? (event.recordedBy ?? null) : null,
          },
        },
        lastEventAt: now,
      };
    }),
    /** The agency ends it (a contract or an account ended, decision 194): nothing is shared from now on. */
    recordEnd: assign(({ context, event }) => {
      if (event.type !== 'END') return {};
      const now = at(context, event);
      return { ended: { at: now, cause: event.cause, party: event.party }, lastEventAt: now };
    }),
    close: assign(({ context, event }) => {
      const now = at(context, event);
      // Decision 212: a close without a message (the API, an older client) still gives the member a word.
      const askedBy = event.type === 'CLOSE' ? (event.askedBy ?? null) : null;
      const message = event.type === 'CLOSE' ? event.message?.trim() || defaultCloseMessage(askedBy) : undefined;
      return {
        closedAt: now,
        closeNote: event.type === 'CLOSE' ? event.note.trim() : null,
        closeMessage: event.type === 'CLOSE' && message ? { text: message, askedBy } : null,
        lastEventAt: now,
      };
    }),
    /** Staff re-open the pair: the round so far is archived whole, and a new proposal starts now. */
    reopen: assign(({ context, event }, params: { endedIn: IntroductionStateKey }) => {
      if (event.type !== 'REOPEN') return {};
      const now = at(context, event);
      return {
        history: [...context.history, { ...roundOf(context), endedIn: params.endedIn }],
        ...newRound(context.summaryConsentAt, now, event.note.trim()),
        lastEventAt: now,
      };
    }),
  },
}).createMachine({
  id: 'introduction',
  // xstate's pure `transition()` (the server's decisions, restore.ts) runs on an inert actor made
  // without input, whose own start is never used: it starts from an empty introduction rather
  // than throwing (an error and its stack on every decision).
  context: ({ input }) => initialContext(input ?? NO_INPUT),
  initial: 'proposee',
  states: {
    // Proposed: both summaries shown; each side accepts or declines within 7 days.
    proposee: {
      initial: 'attente-des-reponses',
      on: {
        DECLINE: { guard: and(['byMemberOfSide', 'beforeDeadline']), target: 'declinee', actions: 'recordDecline' },
        REMIND: { guard: and(['byStaff', 'reminderDue']), actions: 'recordReminder' },
        EXPIRE: { guard: and(['byStaff', 'deadlinePassed']), target: 'expiree', actions: 'recordExpiry' },
        CLOSE: { guard: and(['byStaff', 'hasNote']), target: 'close', actions: 'close' },
        END: { guard: 'byStaff', target: 'close', actions: ['recordEnd', 'close'] },
      },
      states: {
        'attente-des-reponses': {
          on: {
            ACCEPT: {
              guard: and(['byMemberOfSide', 'answerPending', 'beforeDeadline']),
              target: 'acceptee-par-un',
              actions: 'recordAcceptance',
            },
          },
        },
        // One side accepted; nothing of theirs is shown until the other accepts too.
        'acceptee-par-un': {
          on: {
            ACCEPT: {
              guard: and(['byMemberOfSide', 'answerPending', 'otherSideAccepted', 'beforeDeadline']),
              target: '#introduction.acceptee',
              actions: ['recordAcceptance', 'releasePhotosAndContact'],
            },
          },
        },
      },
    },
    declinee: {
      on: {
        REOPEN: { guard: and(['byStaff', 'hasNote']), target: 'proposee', actions: { type: 'reopen', params: { endedIn: 'declinee' } } },
      },
    },
    expiree: {
      on: {
        REOPEN: { guard: and(['byStaff', 'hasNote']), target: 'proposee', actions: { type: 'reopen', params: { endedIn: 'expiree' } } },
      },
    },
    // Both accepted: contact details (and photos) released to each other; staff plan the first meeting.
    acceptee: {
      on: {
        PLAN_MEETING: { guard: and(['byStaff', 'meetingInFuture']), target: 'rencontre-planifiee', actions: 'planMeeting' },
        CLOSE: { guard: and(['byStaff', 'hasNote']), target: 'close', actions: 'close' },
        END: { guard: 'byStaff', target: 'close', actions: ['recordEnd', 'close'] },
      },
    },
    // The chaperoned first meeting is planned; staff may move it, and record it held once it has started.
    'rencontre-planifiee': {
      on: {
        PLAN_MEETING: { guard: and(['byStaff', 'meetingInFuture']), actions: 'planMeeting' },
        RECORD_MEETING_HELD: { guard: and(['byStaff', 'meetingStarted']), target: 'retours', actions: 'recordMeetingHeld' },
        CANCEL_MEETING: { guard: 'byStaff', target: 'acceptee', actions: 'cancelMeeting' },
        CLOSE: { guard: and(['byStaff', 'hasNote']), target: 'close', actions: 'close' },
        END: { guard: 'byStaff', target: 'close', actions: ['recordEnd', 'close'] },
      },
    },
    // After the meeting: each side gives its feedback once. A stop ends it at once; both engaged → fiancailles.
    retours: {
      on: {
        FEEDBACK: [
          {
            guard: and(['feedbackSender', 'feedbackInTime', 'feedbackPending', 'wantsToStop']),
            target: 'close',
            actions: ['recordFeedback', 'close'],
          },
          {
            guard: and(['feedbackSender', 'feedbackInTime', 'feedbackPending', 'announcesEngagement', 'otherSideEngaged']),
            target: 'fiancailles',
            actions: 'recordFeedback',
          },
          {
            guard: and(['feedbackSender', 'feedbackInTime', 'feedbackPending', 'otherSideFeedbackGiven']),
            target: 'poursuivie',
            actions: 'recordFeedback',
          },
          { guard: and(['feedbackSender', 'feedbackInTime', 'feedbackPending']), actions: 'recordFeedback' },
        ],
        CLOSE: { guard: and(['byStaff', 'hasNote']), target: 'close', actions: 'close' },
        END: { guard: 'byStaff', target: 'close', actions: ['recordEnd', 'close'] },
      },
    },
    // They go on knowing each other; either may stop, and the engagement needs both.
    poursuivie: {
      on: {
        FEEDBACK: [
          { guard: and(['feedbackSender', 'wantsToStop']), target: 'close', actions: ['recordFeedback', 'close'] },
          {
            guard: and(['feedbackSender', 'announcesEngagement', not('alreadyEngaged'), 'otherSideEngaged']),
            target: 'fiancailles',
            actions: 'recordFeedback',
          },
          { guard: and(['feedbackSender', 'announcesEngagement', not('alreadyEngaged')]), actions: 'recordFeedback' },
          // Taking back an engagement announced alone: back to plainly continuing.
          { guard: and(['feedbackSender', 'wantsToContinue', 'alreadyEngaged']), actions: 'recordFeedback' },
        ],
        CLOSE: { guard: and(['byStaff', 'hasNote']), target: 'close', actions: 'close' },
        END: { guard: 'byStaff', target: 'close', actions: ['recordEnd', 'close'] },
      },
    },
    close: {
      on: { REOPEN: { guard: and(['byStaff', 'hasNote']), target: 'proposee', actions: { type: 'reopen', params: { endedIn: 'close' } } } },
    },
    // Engaged: both searches are paused. Staff may close it (e.g. the engagement is broken off). The
    // agency's END keeps the engagement (it is the outcome) and ends the sharing (decision 194).
    fiancailles: {
      on: {
        CLOSE: { guard: and(['byStaff', 'hasNote']), target: 'close', actions: 'close' },
        END: { guard: and(['byStaff', 'notEnded']), actions: 'recordEnd' },
      },
    },
  },
});

export type IntroductionMachine = typeof introductionMachine;
