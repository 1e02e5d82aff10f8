import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Actor, IntroductionContext } from '#machines/introductions/context.ts';
import type { IntroductionEvent } from '#machines/introductions/events.ts';
import {
  DAY_MS,
  ev,
  HOUR_MS,
  MEETING_AT,
  memberOf,
  pairInput,
  proposed,
  staff,
  step,
  T0,
  walk,
  walks,
} from '#tests/support/introduction-fixtures.ts';
import { introductionGuards as g, introductionMachine } from '#machines/introductions/introduction.machine.ts';
import type { IntroductionSnapshot } from '#machines/introductions/restore.ts';
import { toIsoInstant } from '#machines/onboarding/instant.ts';

const iso = toIsoInstant;
const DEADLINE = T0 + 7 * DAY_MS;
const REMINDER = T0 + 5 * DAY_MS;
const memberA = memberOf('a');
const memberB = memberOf('b');

/** The event must be refused, and sending it anyway must leave state and context as they were. */
function expectRefused(snapshot: IntroductionSnapshot, event: IntroductionEvent) {
  expect(snapshot.can(event), `${event.type} should be refused in ${JSON.stringify(snapshot.value)}`).toBe(false);
  const after = step(snapshot, event);
  expect(after.value).toEqual(snapshot.value);
  expect(after.context).toEqual(snapshot.context);
}

function accepted(snapshot: IntroductionSnapshot, event: IntroductionEvent): IntroductionSnapshot {
  expect(snapshot.can(event), `${event.type} should be accepted in ${JSON.stringify(snapshot.value)}`).toBe(true);
  return step(snapshot, event);
}

const ctx = (patch: Partial<IntroductionContext> = {}): IntroductionContext => ({ ...proposed().context, ...patch });
const args = (context: IntroductionContext, event: IntroductionEvent) => ({ context, event });

describe('guards (pure)', () => {
  it('byStaff: staff only', () => {
    expect(g.byStaff(args(ctx(), ev.close(T0, 'note', staff)))).toBe(true);
    expect(g.byStaff(args(ctx(), ev.close(T0, 'note', memberA)))).toBe(false);
  });

  it.each<[string, IntroductionEvent, boolean]>([
    ['member a for side a', ev.accept('a', T0, memberA), true],
    ['member b for side b', ev.decline('b', T0, memberB), true],
    ['member b for side a', ev.accept('a', T0, memberB), false],
    ['member a for side b', ev.feedback('b', 'continuer', T0, memberA), false],
    ['staff for side a', ev.accept('a', T0, staff), false],
    ['member on an event without side', ev.close(T0, 'note', memberA), false],
  ])('byMemberOfSide: %s → %s', (_name, event, expected) => {
    expect(g.byMemberOfSide(args(ctx(), event))).toBe(expected);
  });

  it('answerPending and otherSideAccepted read the named side and the other', () => {
    const c = walks.oneAccepted().context;
    expect(g.answerPending(args(c, ev.accept('a', T0)))).toBe(false);
    expect(g.answerPending(args(c, ev.accept('b', T0)))).toBe(true);
    expect(g.otherSideAccepted(args(c, ev.accept('b', T0)))).toBe(true);
    expect(g.otherSideAccepted(args(c, ev.accept('a', T0)))).toBe(false);
    expect(g.answerPending(args(c, ev.close(T0)))).toBe(false);
  });

  it.each([
    [DEADLINE - 1, true, false],
    [DEADLINE, false, true],
    [DEADLINE + DAY_MS, false, true],
  ])('at %i: beforeDeadline %s, deadlinePassed %s', (at, before, passed) => {
    expect(g.beforeDeadline(args(ctx(), ev.expire(at)))).toBe(before);
    expect(g.deadlinePassed(args(ctx(), ev.expire(at)))).toBe(passed);
  });

  it('the clock never goes back: an event stamped before the last one is judged at the last one', () => {
    const c = ctx({ lastEventAt: iso(DEADLINE) });
    expect(g.deadlinePassed(args(c, ev.expire(T0)))).toBe(true);
    expect(g.beforeDeadline(args(c, ev.accept('a', T0)))).toBe(false);
  });

  it.each([
    ['before day 5', REMINDER - 1, null, false],
    ['at day 5', REMINDER, null, true],
    ['on day 6', REMINDER + DAY_MS, null, true],
    ['at the deadline', DEADLINE, null, false],
    ['already reminded', REMINDER + HOUR_MS, iso(REMINDER), false],
  ])('reminderDue %s → %s', (_name, at, remindedAt, expected) => {
    expect(g.reminderDue(args(ctx({ remindedAt }), ev.remind(at)))).toBe(expected);
  });

  it('meetingInFuture: strictly after the clock, and only for PLAN_MEETING', () => {
    expect(g.meetingInFuture(args(ctx(), ev.plan(T0, T0)))).toBe(false);
    expect(g.meetingInFuture(args(ctx(), ev.plan(T0, T0 + 1)))).toBe(true);
    expect(g.meetingInFuture(args(ctx({ lastEventAt: iso(T0 + DAY_MS) }), ev.plan(T0, T0 + HOUR_MS)))).toBe(false);
    expect(g.meetingInFuture(args(ctx(), ev.held(T0)))).toBe(false);
  });

  it('meetingStarted: from the meeting start, never without a meeting', () => {
    const c = walks.planned().context;
    expect(g.meetingStarted(args(c, ev.held(MEETING_AT - 1)))).toBe(false);
    expect(g.meetingStarted(args(c, ev.held(MEETING_AT)))).toBe(true);
    expect(g.meetingStarted(args(ctx(), ev.held(MEETING_AT)))).toBe(false);
  });

  it('feedback by phone and its deadline (decision 205)', () => {
    const heldAt = Date.parse('2026-12-02T18:00:00Z'); // a Wednesday, Paris: 7 civil days → Wednesday 9, ends at 0 h on the 10th
    const c = ctx({ meetingHeldAt: iso(heldAt) });
    const endsAt = Date.parse('2026-12-09T23:00:00Z');
    const byPhone = { ...ev.feedback('a', 'continuer', heldAt, staff), recordedBy: 'staff-1' } as IntroductionEvent;
    expect(g.feedbackSender(args(c, ev.feedback('a', 'continuer', heldAt)))).toBe(true);
    expect(g.feedbackSender(args(c, ev.feedback('a', 'continuer', heldAt, memberOf('b'))))).toBe(false);
    expect(g.feedbackSender(args(c, ev.feedback('a', 'continuer', heldAt, staff)))).toBe(false);
    expect(g.feedbackSender(args(c, byPhone))).toBe(true);
    expect(g.feedbackInTime(args(c, ev.feedback('a', 'continuer', endsAt - 1)))).toBe(true);
    expect(g.feedbackInTime(args(c, ev.feedback('a', 'continuer', endsAt)))).toBe(false);
    expect(g.feedbackInTime(args(c, { ...byPhone, at: endsAt + DAY_MS } as IntroductionEvent))).toBe(true);
  });

  it('feedback guards', () => {
    const c = ctx({ feedback: { a: { outcome: 'fiances', reason: null, at: iso(T0), recordedBy: null }, b: null } });
    expect(g.feedbackPending(args(c, ev.feedback('a', 'continuer', T0)))).toBe(false);
    expect(g.feedbackPending(args(c, ev.feedback('b', 'continuer', T0)))).toBe(true);
    expect(g.otherSideFeedbackGiven(args(c, ev.feedback('b', 'continuer', T0)))).toBe(true);
    expect(g.otherSideFeedbackGiven(args(c, ev.feedback('a', 'continuer', T0)))).toBe(false);
    expect(g.otherSideEngaged(args(c, ev.feedback('b', 'fiances', T0)))).toBe(true);
    expect(g.otherSideEngaged(args(c, ev.feedback('a', 'fiances', T0)))).toBe(false);
    expect(g.alreadyEngaged(args(c, ev.feedback('a', 'fiances', T0)))).toBe(true);
    expect(g.alreadyEngaged(args(c, ev.feedback('b', 'fiances', T0)))).toBe(false);
    expect(g.wantsToStop(args(c, ev.feedback('a', 'arreter', T0)))).toBe(true);
    expect(g.wantsToStop(args(c, ev.feedback('a', 'continuer', T0)))).toBe(false);
    expect(g.wantsToContinue(args(c, ev.feedback('a', 'continuer', T0)))).toBe(true);
    expect(g.announcesEngagement(args(c, ev.feedback('a', 'fiances', T0)))).toBe(true);
    expect(g.announcesEngagement(args(c, ev.feedback('a', 'arreter', T0)))).toBe(false);
  });

  it('hasNote: a note with words, on CLOSE and REOPEN only', () => {
    expect(g.hasNote(args(ctx(), ev.close(T0, 'Rupture des fiançailles')))).toBe(true);
    expect(g.hasNote(args(ctx(), ev.reopen(T0, '   ')))).toBe(false);
    expect(g.hasNote(args(ctx(), ev.expire(T0)))).toBe(false);
  });
});

describe('proposal', () => {
  it('starts proposed, waiting for both, with both summaries shown under a consent given before', () => {
    const actor = createActor(introductionMachine, { input: pairInput }).start();
    const { value, context } = actor.getSnapshot();
    actor.stop();
    expect(value).toEqual({ proposee: 'attente-des-reponses' });
    expect(context.answers.a.status).toBe('pending');
    expect(context.answers.b.status).toBe('pending');
    expect(context.disclosures).toEqual({
      a: { summary: iso(T0), photos: null, contact: null },
      b: { summary: iso(T0), photos: null, contact: null },
    });
    expect(context.consents.a).toEqual({ summary: pairInput.summaryConsentAt.a, photos: null, contact: null });
    expect(context.history).toEqual([]);
  });

  it('one acceptance records that side’s consent to photos and contact, and releases nothing', () => {
    const next = accepted(proposed(), ev.accept('b', T0 + HOUR_MS));
    expect(next.value).toEqual({ proposee: 'acceptee-par-un' });
    expect(next.context.answers.b).toEqual({ status: 'accepted', at: iso(T0 + HOUR_MS), reason: null, comment: null });
    expect(next.context.consents.b).toMatchObject({ photos: iso(T0 + HOUR_MS), contact: iso(T0 + HOUR_MS) });
    expect(next.context.consents.a).toMatchObject({ photos: null, contact: null });
    expect(next.context.disclosures.a.contact).toBeNull();
    expect(next.context.disclosures.b.photos).toBeNull();
  });

  it('the second acceptance makes it mutual and releases photos and contact of both, at that instant', () => {
    const next = accepted(walks.oneAccepted(), ev.accept('b', T0 + DAY_MS));
    expect(next.value).toBe('acceptee');
    for (const side of ['a', 'b'] as const) {
      expect(next.context.disclosures[side]).toEqual({ summary: iso(T0), photos: iso(T0 + DAY_MS), contact: iso(T0 + DAY_MS) });
    }
    expect(next.context.consents.a.contact).toBe(iso(T0 + HOUR_MS));
  });

  it.each<[string, () => IntroductionSnapshot, IntroductionEvent]>([
    ['the same side twice', walks.oneAccepted, ev.accept('a', T0 + 2 * HOUR_MS)],
    ['for the other side', proposed, ev.accept('a', T0 + HOUR_MS, memberB)],
    ['by staff for a member', proposed, ev.accept('a', T0 + HOUR_MS, staff)],
    ['at the deadline', proposed, ev.accept('a', DEADLINE)],
    ['the second one at the deadline', walks.oneAccepted, ev.accept('b', DEADLINE)],
    ['the other side’s acceptance, sent by the side who accepted', walks.oneAccepted, ev.accept('b', T0 + DAY_MS, memberA)],
  ])('refuses an acceptance %s', (_name, from, event) => {
    expectRefused(from(), event);
  });

  it('a decline ends it, with its reason and comment', () => {
    const event: IntroductionEvent = { ...ev.decline('a', T0 + HOUR_MS), comment: 'Trop loin de ma famille' } as IntroductionEvent;
    const next = accepted(proposed(), event);
    expect(next.value).toBe('declinee');
    expect(next.context.answers.a).toEqual({
      status: 'declined',
      at: iso(T0 + HOUR_MS),
      reason: 'region',
      comment: 'Trop loin de ma famille',
    });
  });

  it('a side that accepted may still decline before the other answers; its consent is withdrawn', () => {
    const next = accepted(walks.oneAccepted(), ev.decline('a', T0 + DAY_MS));
    expect(next.value).toBe('declinee');
    expect(next.context.consents.a).toMatchObject({ photos: null, contact: null });
    expect(next.context.disclosures.a).toMatchObject({ photos: null, contact: null });
  });

  it.each<[string, IntroductionEvent]>([
    ['for the other side', ev.decline('b', T0 + HOUR_MS, memberA)],
    ['by staff', ev.decline('b', T0 + HOUR_MS, staff)],
    ['after the deadline', ev.decline('b', DEADLINE)],
  ])('refuses a decline %s', (_name, event) => {
    expectRefused(proposed(), event);
  });

  it('reminds once, from day 5 until the deadline, by staff only', () => {
    expectRefused(proposed(), ev.remind(REMINDER - 1));
    expectRefused(proposed(), ev.remind(REMINDER, memberA));
    const reminded = accepted(proposed(), ev.remind(REMINDER));
    expect(reminded.value).toEqual({ proposee: 'attente-des-reponses' });
    expect(reminded.context.remindedAt).toBe(iso(REMINDER));
    expectRefused(reminded, ev.remind(REMINDER + DAY_MS));
    expect(accepted(walks.oneAccepted(), ev.remind(REMINDER)).value).toEqual({ proposee: 'acceptee-par-un' });
  });

  it('expires at the deadline and not a millisecond before, by staff (the scheduler) only', () => {
    expectRefused(proposed(), ev.expire(DEADLINE - 1));
    expectRefused(proposed(), ev.expire(DEADLINE, memberA));
    const expired = accepted(walks.oneAccepted(), ev.expire(DEADLINE));
    expect(expired.value).toBe('expiree');
    expect(expired.context.expiredAt).toBe(iso(DEADLINE));
    expect(expired.context.disclosures.a.contact).toBeNull();
  });
});

describe('after mutual acceptance', () => {
  it('staff plan the meeting in the future; a past meeting, a member, or a plan before acceptance are refused', () => {
    expectRefused(walks.accepted(), ev.plan(T0 + 2 * DAY_MS, T0 + 2 * DAY_MS));
    expectRefused(walks.accepted(), ev.plan(T0 + 2 * DAY_MS, MEETING_AT, memberA));
    expectRefused(walks.oneAccepted(), ev.plan(T0 + 2 * DAY_MS, MEETING_AT));
    const planned = accepted(walks.accepted(), ev.plan(T0 + 2 * DAY_MS, MEETING_AT));
    expect(planned.value).toBe('rencontre-planifiee');
    expect(planned.context.meeting).toEqual({
      at: iso(MEETING_AT),
      place: 'Agence de Lyon, salon du rez-de-chaussée',
      // Who accompanies (decision 197): nobody named in this plan.
      accompaniedBy: null,
      plannedAt: iso(T0 + 2 * DAY_MS),
    });
  });

  it('staff may move the planned meeting', () => {
    const moved = accepted(walks.planned(), ev.plan(T0 + 3 * DAY_MS, MEETING_AT + DAY_MS));
    expect(moved.value).toBe('rencontre-planifiee');
    expect(moved.context.meeting?.at).toBe(iso(MEETING_AT + DAY_MS));
  });

  it('the meeting is recorded held by staff once it has started, not before', () => {
    expectRefused(walks.planned(), ev.held(MEETING_AT - 1));
    expectRefused(walks.planned(), ev.held(MEETING_AT, memberB));
    expectRefused(walks.accepted(), ev.held(MEETING_AT));
    const held = accepted(walks.planned(), ev.held(MEETING_AT));
    expect(held.value).toBe('retours');
    expect(held.context.meetingHeldAt).toBe(iso(MEETING_AT));
  });
});

describe('feedback', () => {
  const later = MEETING_AT + DAY_MS;

  it('one side stopping closes it at once, with the reason', () => {
    const next = accepted(walks.feedbackPhase(), ev.feedback('b', 'arreter', later));
    expect(next.value).toBe('close');
    expect(next.context.feedback.b).toEqual({ outcome: 'arreter', reason: 'pas-de-feeling', at: iso(later), recordedBy: null });
    expect(next.context.closedAt).toBe(iso(later));
  });

  it('waits for the second side, then both continuing → poursuivie', () => {
    const one = accepted(walks.feedbackPhase(), ev.feedback('a', 'continuer', later));
    expect(one.value).toBe('retours');
    expectRefused(one, ev.feedback('a', 'fiances', later));
    expect(accepted(one, ev.feedback('b', 'continuer', later)).value).toBe('poursuivie');
  });

  it('both announcing the engagement → fiancailles', () => {
    const one = accepted(walks.feedbackPhase(), ev.feedback('a', 'fiances', later));
    expect(one.value).toBe('retours');
    expect(accepted(one, ev.feedback('b', 'fiances', later)).value).toBe('fiancailles');
  });

  it('an engagement announced by one only → poursuivie, and fiancailles once the other says so too', () => {
    const one = accepted(walks.feedbackPhase(), ev.feedback('a', 'fiances', later));
    const going = accepted(one, ev.feedback('b', 'continuer', later));
    expect(going.value).toBe('poursuivie');
    expectRefused(going, ev.feedback('a', 'fiances', later));
    expect(accepted(going, ev.feedback('b', 'fiances', later + DAY_MS)).value).toBe('fiancailles');
  });

  it('in poursuivie: continuing again says nothing new, stopping closes, one engagement alone waits, and may be taken back', () => {
    const going = walks.continued();
    expectRefused(going, ev.feedback('a', 'continuer', later));
    const one = accepted(going, ev.feedback('a', 'fiances', later));
    expect(one.value).toBe('poursuivie');
    const back = accepted(one, ev.feedback('a', 'continuer', later));
    expect(back.context.feedback.a?.outcome).toBe('continuer');
    expect(accepted(going, ev.feedback('b', 'arreter', later)).value).toBe('close');
  });

  it.each<[string, () => IntroductionSnapshot, IntroductionEvent]>([
    ['for the other side (retours)', walks.feedbackPhase, ev.feedback('b', 'continuer', MEETING_AT + DAY_MS, memberA)],
    ['by staff (retours)', walks.feedbackPhase, ev.feedback('a', 'continuer', MEETING_AT + DAY_MS, staff)],
    ['for the other side (poursuivie)', walks.continued, ev.feedback('b', 'arreter', MEETING_AT + DAY_MS, memberA)],
    ['before the meeting was held', walks.planned, ev.feedback('a', 'continuer', MEETING_AT + DAY_MS)],
    ['once engaged', walks.engaged, ev.feedback('a', 'arreter', MEETING_AT + DAY_MS)],
  ])('refuses feedback %s', (_name, from, event) => {
    expectRefused(from(), event);
  });
});

describe('close and re-open (staff, with a note)', () => {
  const closable: [string, () => IntroductionSnapshot][] = [
    ['proposee', proposed],
    ['proposee.acceptee-par-un', walks.oneAccepted],
    ['acceptee', walks.accepted],
    ['rencontre-planifiee', walks.planned],
    ['retours', walks.feedbackPhase],
    ['poursuivie', walks.continued],
    ['fiancailles', walks.engaged],
  ];

  it.each(closable)('closes from %s, keeping the note', (_name, from) => {
    const at = MEETING_AT + 2 * DAY_MS;
    const closed = accepted(from(), ev.close(at, '  Demande des deux familles  '));
    expect(closed.value).toBe('close');
    expect(closed.context.closeNote).toBe('Demande des deux familles');
  });

  it.each(closable)('refuses from %s a close without note, or by a member', (_name, from) => {
    expectRefused(from(), ev.close(MEETING_AT + 2 * DAY_MS, ' '));
    expectRefused(from(), ev.close(MEETING_AT + 2 * DAY_MS, 'note', memberA));
  });

  it.each<[string, () => IntroductionSnapshot]>([
    ['declinee', walks.declined],
    ['expiree', walks.expired],
    ['close', walks.closed],
  ])('re-opens from %s: the round is archived, a new 7-day proposal starts now', (name, from) => {
    const before = from();
    const at = T0 + 30 * DAY_MS;
    expectRefused(before, ev.reopen(at, ''));
    expectRefused(before, ev.reopen(at, 'note', memberA));
    expectRefused(before, ev.close(at));
    const reopened = accepted(before, ev.reopen(at, 'Nouvelle situation de Youssef'));
    expect(reopened.value).toEqual({ proposee: 'attente-des-reponses' });
    expect(reopened.context.proposedAt).toBe(iso(at));
    expect(reopened.context.reopenNote).toBe('Nouvelle situation de Youssef');
    expect(reopened.context.answers.a.status).toBe('pending');
    expect(reopened.context.answers.b.status).toBe('pending');
    expect(reopened.context.disclosures.a).toEqual({ summary: iso(at), photos: null, contact: null });
    expect(reopened.context.history).toHaveLength(1);
    expect(reopened.context.history[0]?.endedIn).toBe(name);
    expect(reopened.context.history[0]?.proposedAt).toBe(iso(T0));
    // The new deadline runs from the re-opening.
    expectRefused(reopened, ev.expire(at + 7 * DAY_MS - 1));
    expect(accepted(reopened, ev.expire(at + 7 * DAY_MS)).value).toBe('expiree');
  });

  it('keeps an earlier round’s disclosures as proof after a re-opening', () => {
    const closed = accepted(walks.accepted(), ev.close(T0 + 2 * DAY_MS));
    const reopened = accepted(closed, ev.reopen(T0 + 40 * DAY_MS));
    expect(reopened.context.history[0]?.disclosures.a.contact).toBe(iso(T0 + DAY_MS));
    expect(reopened.context.disclosures.a.contact).toBeNull();
  });

  it.each<[string, () => IntroductionSnapshot]>([
    ['proposee', proposed],
    ['acceptee', walks.accepted],
    ['poursuivie', walks.continued],
    ['fiancailles', walks.engaged],
  ])('refuses a re-opening from %s', (_name, from) => {
    expectRefused(from(), ev.reopen(T0 + 30 * DAY_MS));
  });
});

describe('actors', () => {
  const staffOnly = (actor: Actor, at: number): IntroductionEvent[] => [
    ev.plan(at, at + DAY_MS, actor),
    ev.held(at, actor),
    ev.close(at, 'note', actor),
    ev.reopen(at, 'note', actor),
    ev.expire(at, actor),
    ev.remind(at, actor),
  ];

  it.each<[string, () => IntroductionSnapshot]>([
    ['proposee', proposed],
    ['acceptee', walks.accepted],
    ['rencontre-planifiee', walks.planned],
    ['declinee', walks.declined],
    ['expiree', walks.expired],
    ['close', walks.closed],
  ])('in %s, a member can send no staff-only event', (_name, from) => {
    for (const actor of [memberA, memberB]) {
      for (const event of staffOnly(actor, MEETING_AT + 8 * DAY_MS)) expectRefused(from(), event);
    }
  });

  it('the whole happy path, with each refused event changing nothing on the way', () => {
    const end = walk(
      ev.remind(REMINDER),
      ev.accept('b', REMINDER + HOUR_MS),
      ev.accept('a', REMINDER + 2 * HOUR_MS),
      ev.plan(REMINDER + DAY_MS, REMINDER + 3 * DAY_MS),
      ev.held(REMINDER + 3 * DAY_MS),
      ev.feedback('a', 'continuer', REMINDER + 4 * DAY_MS),
      ev.feedback('b', 'continuer', REMINDER + 4 * DAY_MS),
      ev.feedback('b', 'fiances', REMINDER + 40 * DAY_MS),
      ev.feedback('a', 'fiances', REMINDER + 41 * DAY_MS),
    );
    expect(end.value).toBe('fiancailles');
    expect(end.context.lastEventAt).toBe(iso(REMINDER + 41 * DAY_MS));
    // No event changes a fiancailles but a staff CLOSE.
    expectRefused(end, ev.expire(REMINDER + 42 * DAY_MS));
    expectRefused(end, ev.feedback('a', 'continuer', REMINDER + 42 * DAY_MS));
  });
});
