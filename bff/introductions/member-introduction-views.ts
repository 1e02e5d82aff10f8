import { approvedPresentationOf } from '#bff/matching/presentation.ts';
import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import type { IntroductionRow } from '#bff/db/introductions-schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import {
  introductionEventRows,
  introductionsOfMember,
  type LoggedEvent,
  lockIntroduction,
  updateIntroductionContactVia,
} from '#bff/introductions/store/introductions.ts';
import { memberProfileRow, otherPersonRow } from '#bff/introductions/store/people.ts';
import { contactChoiceOf, guardianContactFor, guardianOf } from '#bff/introductions/guardian.ts';
import { type EndedView, endedViewOf } from '#bff/introductions/ending.ts';
import { type FeedbackFields, feedbackFieldsOf } from '#bff/introductions/feedback.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import type { Executor } from '#bff/mail/outbox.ts';
import { type MatchingExecutor, matchProfileOf } from '#bff/matching/candidates.ts';
import { standingPair, standingsOf } from '#bff/members/standing.ts';
import { introductionPhotoUrl, photoIdsOf } from '#bff/photos/member-photos.ts';
import { type IntroductionContext, otherSide } from '#machines/introductions/context.ts';
import {
  type ContactVia,
  contactViaLabels,
  type GuardianContact,
  waliOnlyContactOf as waliOnlyOf,
} from '#machines/introductions/guardian.ts';
import {
  type DeclineReason,
  declineReasonLabel,
  type EndCause,
  endCauseLabels,
  endReasonForMember,
  type FeedbackOutcome,
  type Side,
  type SideNames,
  sideLabels,
  stateLabel,
  type TimelineEvent,
  timelineSentence,
} from '#machines/introductions/labels.ts';
import { deadlineOf, isOpen } from '#machines/introductions/rules.ts';
import { type Standing, sharingOf } from '#machines/introductions/sharing.ts';
import { brokenRequired, criteriaWords, memberReasons } from '#machines/matching/criteria.ts';
import type { MatchProfile } from '#machines/matching/match-profile.ts';
import { ageOn } from '#machines/onboarding/forms.ts';
import { maritalStatusLabelFor, prayerPracticeLabels, regionLabels } from '#machines/onboarding/labels.ts';
import { count } from '#machines/french/plural.ts';
import { UUID, memberOfSide, notFound, sideOfMember } from '#bff/introductions/introduction-core.ts';

// ---------------------------------------------------------------------------
// Timelines: every logged event as a French sentence

interface TimelineEntry {
  at: string;
  sentence: string;
}

export function sentenceOf(e: LoggedEvent, names: SideNames): string {
  if (e.event === 'PROPOSE') return 'L’équipe a proposé la mise en relation';
  const p = (e.payload ?? {}) as { reason?: unknown; outcome?: unknown; meetingAt?: unknown; cause?: unknown; party?: unknown };
  const side = e.side === 'a' || e.side === 'b' ? e.side : undefined;
  const event: TimelineEvent = {
    type: e.event,
    actor: side ? { kind: 'member', side } : { kind: 'staff' },
    ...(side ? { side } : {}),
    reason: typeof p.reason === 'string' ? (p.reason as DeclineReason) : null,
    ...(typeof p.outcome === 'string' ? { outcome: p.outcome as FeedbackOutcome } : {}),
    ...(typeof p.meetingAt === 'string' ? { meetingAt: p.meetingAt } : {}),
    ...(typeof p.cause === 'string' && Object.hasOwn(endCauseLabels, p.cause) ? { cause: p.cause as EndCause } : {}),
    ...(p.party === 'a' || p.party === 'b' ? { party: p.party } : {}),
  };
  // Decision 205: a feedback staff heard by phone says so.
  return `${timelineSentence(event, names)}${e.event === 'FEEDBACK' && e.actorRole === 'staff' ? ' (recueilli par téléphone)' : ''}`;
}

export async function eventsOf(db: Db, introductionId: string): Promise<LoggedEvent[]> {
  return introductionEventRows(db, introductionId);
}

/**
 * What a member reads of the log: the agency's actions and their own; of the other person only
 * their acceptance, once both accepted (a decline's reason or a feedback stays with the agency).
 */
function memberTimeline(events: readonly LoggedEvent[], side: Side, mutual: boolean, names: SideNames): TimelineEntry[] {
  return events
    .filter((e) => e.side === null || e.side === side || (mutual && e.event === 'ACCEPT'))
    .map((e) => ({ at: e.createdAt.toISOString(), sentence: e.event === 'END' ? endSentenceFor(e, side) : sentenceOf(e, names) }));
}

/** The agency's END as a member reads it: their own cause in words, nothing of the other person's (decision 194). */
function endSentenceFor(e: LoggedEvent, viewer: Side): string {
  const p = (e.payload ?? {}) as { cause?: unknown; party?: unknown };
  const cause = typeof p.cause === 'string' && Object.hasOwn(endCauseLabels, p.cause) ? (p.cause as EndCause) : null;
  const party = p.party === 'a' || p.party === 'b' ? p.party : null;
  const why = cause && party ? endReasonForMember(cause, party, viewer) : null;
  return why ? `La mise en relation a pris fin : ${why}` : 'La mise en relation a pris fin';
}

// ---------------------------------------------------------------------------
// What each side may see

export interface OtherSummary {
  firstName: string | null;
  age: number | null;
  region: string;
  practice: string;
  profession: string;
  familySituation: string;
  /**
   * The other's own short presentation (decision 128), or null when they wrote none. Part of the
   * summary they consented to be presented with: shown only where the summary is (never once
   * their sensitive-data consent is withdrawn or they are erased).
   */
  presentation: string | null;
}

export interface MemberIntroductionView extends FeedbackFields {
  id: string;
  /** For a member, a proposal is only ever `proposee` (whether the other answered is not shown). */
  state: string;
  stateLabel: string;
  proposedAt: string;
  deadlineAt: string;
  myAnswer: { status: 'pending' | 'accepted' | 'declined'; at: string | null; reason: string | null };
  note: string | null;
  other: OtherSummary | null;
  /**
   * The other's first name, kept for the history (decision 194) while they are not erased, even
   * once their summary is not shown any more (consent withdrawn, or the contract's end took their
   * search criteria away): the member still knows whom an introduction was with.
   */
  otherFirstName: string | null;
  /**
   * Why it fits, in at most two sentences of what matches the member's own criteria (decision 193:
   * never what does not).
   */
  reasons: string[];
  /**
   * When the proposal departs from indispensable criteria of the member (staff proposed it with a
   * reason, which is `note`): which ones, in a sentence; else null.
   */
  outsideCriteria: string | null;
  meeting: { at: string; place: string } | null;
  /**
   * Only while shared (both accepted, and nothing ended it: `sharingOf`, decision 194): the other's
   * e-mail and phone, and their guardian's contact when the other chose that their guardian receives
   * the contact details (decision 117), else null.
   */
  contact: { via: ContactVia; email: string | null; phone: string | null; guardian: GuardianContact | null } | null;
  /**
   * How the other member reaches the caller in this introduction (decision 196): the choice that
   * holds, in words, and whether it is the settings' (the member may choose otherwise here).
   */
  myContactVia: { via: ContactVia; label: string; fromSettings: boolean; waliPhone: boolean };
  /** The relation (in French) of the other's guardian, who receives the caller's contact too at mutual acceptance; or null. */
  contactAlsoToGuardian: string | null;
  /** Only while shared (`sharingOf`, decision 194): the other's photos, each through this introduction's own URL (decision 116). */
  photos: { id: string; url: string }[];
  /**
   * It ended after it ran (closed by staff or by a member's stop, or ended because a contract, an
   * account or a consent ended: decision 194): when, why in the member's own words when the cause is
   * theirs (else null), and whether anything had been shared. Null while it runs, and for a declined
   * or expired proposal (which say so themselves). The history stays; contact and photos are gone.
   */
  ended: EndedView | null;
  /** The member's side of the log, in French, oldest first. */
  timeline: TimelineEntry[];
}

/** What the view needs to know about the other side (from `members` and `match_profiles`). */
export interface OtherPerson {
  email: string;
  profile: unknown;
  matchProfile: MatchProfile | null;
  /** The other's guardian when they chose that the guardian receives the contact details (decision 117). */
  guardian?: GuardianContact | null | undefined;
  /** The other's photo ids, in order (shown only once released). */
  photoIds?: readonly string[];
  /** The other's choice in their settings (decision 196): own contact, or through their walī only. */
  settingsContactVia?: ContactVia;
  /** The other's walī as released when they chose « uniquement par mon walī »: name and phone only. */
  waliOnly?: GuardianContact | null;
  /** The other withdrew their sensitive-data consent: no summary (decision 122); their introductions ended (decision 194). */
  consentWithdrawn?: boolean;
  /** The other's short presentation (decision 128), shown inside the summary only. */
  presentation?: string | null;
}

function familySituation(p: MatchProfile): string {
  const children = p.childrenCount === 0 ? 'sans enfant' : count(p.childrenCount, 'enfant', 'enfants');
  return `${maritalStatusLabelFor(p.maritalStatus, p.gender)}, ${children}`;
}

export function summaryOf(other: OtherPerson, nowMs: number): OtherSummary | null {
  const p = other.matchProfile;
  if (!p) return null;
  return {
    firstName: firstNameOf(other.profile),
    age: ageOn(p.birthDate, nowMs),
    region: regionLabels[p.region],
    practice: prayerPracticeLabels[p.practice],
    profession: p.profession,
    familySituation: familySituation(p),
    presentation: other.presentation ?? null,
  };
}

function reasonsFor(me: MatchProfile | null, other: MatchProfile | null, nowMs: number): MemberIntroductionView['reasons'] {
  return me && other ? memberReasons(me, other, nowMs) : [];
}

function outsideCriteriaOf(me: MatchProfile | null, other: MatchProfile | null, nowMs: number): string | null {
  if (!me || !other) return null;
  const broken = brokenRequired(me, other, nowMs).a;
  return broken.length === 0
    ? null
    : `Cette proposition s’écarte ${broken.length > 1 ? 'de vos critères indispensables' : 'de votre critère indispensable'} : ${criteriaWords(broken)}.`;
}

/**
 * ONLY what `side` may see of an introduction: their own answer, the other's summary, and the
 * other's contact and photos while `sharingOf` says so (decision 194) — never once it ended.
 */
function memberView(
  introduction: IntroductionRow,
  side: Side,
  people: {
    me: MatchProfile | null;
    myFirstName?: string | null;
    other: OtherPerson | null;
    standing: Record<Side, Standing>;
    /** The caller's own choice in their settings, and whether their walī has a phone (decision 196). */
    mine?: { settingsContactVia: ContactVia; waliPhone: boolean };
  },
  now: Date,
  events: readonly LoggedEvent[] = [],
): MemberIntroductionView {
  const context = introduction.context as IntroductionContext;
  const other = otherSide(side);
  const top = introduction.state.split('.')[0] ?? introduction.state;
  const state = top === 'proposee' ? 'proposee' : introduction.state;
  const mutual = context.answers.a.status === 'accepted' && context.answers.b.status === 'accepted';
  const choiceOf = (s: Side) => (s === 'a' ? introduction.contactViaA : introduction.contactViaB);
  const viaOf = (choice: string | null, settings: ContactVia | undefined): ContactVia =>
    choice === 'moi' || choice === 'wali' ? choice : (settings ?? 'moi');
  const myVia = viaOf(choiceOf(side), people.mine?.settingsContactVia);
  const otherVia = viaOf(choiceOf(other), people.other?.settingsContactVia);
  const sharing = sharingOf({
    state: introduction.state,
    context,
    viewer: side,
    standing: people.standing,
    contactVia: { [side]: myVia, [other]: otherVia } as Record<Side, ContactVia>,
  });
  const end = sharing.end && sharing.end.kind !== 'declinee' && sharing.end.kind !== 'expiree' ? sharing.end : null;
  const phone = (people.other?.profile as { phone?: unknown } | null)?.phone;
  const answer = context.answers[side];
  const otherGuardian = people.other?.guardian ?? null;
  return {
    id: introduction.id,
    state,
    stateLabel: stateLabel(state),
    proposedAt: context.proposedAt,
    deadlineAt: new Date(deadlineOf(context.proposedAt)).toISOString(),
    myAnswer: { status: answer.status, at: answer.at, reason: answer.reason ? declineReasonLabel(answer.reason) : null },
    note: side === 'a' ? introduction.noteA : introduction.noteB,
    other: people.other ? summaryOf(people.other, now.getTime()) : null,
    otherFirstName: people.other ? firstNameOf(people.other.profile) : null,
    reasons: reasonsFor(people.me, people.other?.matchProfile ?? null, now.getTime()),
    outsideCriteria: outsideCriteriaOf(people.me, people.other?.matchProfile ?? null, now.getTime()),
    meeting: context.meeting ? { at: context.meeting.at, place: context.meeting.place } : null,
    // The server decides what is released (decision 196): through the walī only, never her own phone or e-mail.
    contact:
      sharing.contact === 'wali' && people.other
        ? { via: 'wali', email: null, phone: null, guardian: people.other.waliOnly ?? null }
        : sharing.contact === 'moi' && people.other
          ? { via: 'moi', email: people.other.email, phone: typeof phone === 'string' ? phone : null, guardian: otherGuardian }
          : null,
    myContactVia: {
      via: myVia,
      label: contactViaLabels[myVia],
      fromSettings: choiceOf(side) !== 'moi' && choiceOf(side) !== 'wali',
      waliPhone: people.mine?.waliPhone ?? false,
    },
    ...feedbackFieldsOf(introduction.state, context, side, now),
    // Said before answering; nothing of the other's guardian once it ended.
    contactAlsoToGuardian: otherGuardian && !end ? otherGuardian.relation : null,
    photos: sharing.photos
      ? (people.other?.photoIds ?? []).map((photoId) => ({ id: photoId, url: introductionPhotoUrl(introduction.id, photoId) }))
      : [],
    ended: end ? endedViewOf(end, context, side, mutual) : null,
    timeline: memberTimeline(events, side, mutual, {
      ...sideLabels,
      [side]: people.myFirstName ?? sideLabels[side],
      [other]: (people.other ? firstNameOf(people.other.profile) : null) ?? sideLabels[other],
    } as SideNames),
  };
}

/** The other side as views and mails may show it; null once erased (the other keeps the record, not the person: decision 117). */
export async function otherPerson(executor: MatchingExecutor & Executor, memberId: string): Promise<OtherPerson | null> {
  const row = await otherPersonRow(executor, memberId);
  if (!row || row.erasedAt) return null;
  // Sensitive-data consent withdrawn (matchmaking paused, decision 122): their summary (practice,
  // region, family…) is no longer shown in any introduction; their introductions ended with it, and
  // `sharingOf` shares neither photos nor contact details any more (decision 194).
  const withdrawn = row.pausedAt !== null;
  return {
    email: row.email,
    profile: row.profile,
    matchProfile: withdrawn ? null : await matchProfileOf(executor, memberId),
    guardian: await guardianContactFor(executor, memberId),
    ...(await (async () => {
      const choice = await contactChoiceOf(executor, memberId, null);
      return { settingsContactVia: choice.guardian?.contactVia ?? 'moi', waliOnly: waliOnlyOf(choice.guardian) };
    })()),
    photoIds: withdrawn ? [] : await photoIdsOf(executor, memberId),
    consentWithdrawn: withdrawn,
    // Only the version staff approved (decision 200), never a text still waiting or refused.
    presentation: withdrawn ? null : await approvedPresentationOf(executor, memberId),
  };
}

/** A member's introductions, newest first, each as `memberView` for their side. */
export async function memberIntroductions(db: Db, memberId: string, now: Date): Promise<MemberIntroductionView[]> {
  if (!UUID.test(memberId)) return [];
  const rows = await introductionsOfMember(db, memberId);
  const me = await matchProfileOf(db, memberId);
  const self = await memberProfileRow(db, memberId);
  const myFirstName = self ? firstNameOf(self.profile) : null;
  const myGuardian = await guardianOf(db, memberId);
  const mine = { settingsContactVia: myGuardian?.contactVia ?? 'moi', waliPhone: Boolean(myGuardian?.phone) } as const;
  const standings = await standingsOf(db, [memberId, ...rows.flatMap((r) => [r.memberA, r.memberB])], now);
  const views: MemberIntroductionView[] = [];
  for (const row of rows) {
    const side = sideOfMember(row, memberId);
    if (!side) continue;
    const other = await otherPerson(db, memberOfSide(row, otherSide(side)));
    const standing = standingPair(standings, row);
    views.push(memberView(row, side, { me, myFirstName, other, standing, mine }, now, await eventsOf(db, row.id)));
  }
  return views;
}

/** `PUT /user/introductions/:id/contact` (decision 196): this introduction's choice, or back to the settings'. */
const ContactChoiceBody = v.strictObject(
  { via: v.picklist(['moi', 'wali', 'reglages'], 'Choix inconnu : choisissez dans la liste') },
  'Requête invalide',
);

/**
 * The member chooses, for one introduction of theirs, how the other member will reach them: their own
 * contact, through their walī only, or as in their settings. Only while it runs (not once declined,
 * expired, closed or ended); « par mon walī » needs a walī with a phone. 404 when it is not theirs.
 */
export async function setIntroductionContactVia(db: Db, memberId: string, id: string, body: unknown, now: Date) {
  const parsed = v.safeParse(ContactChoiceBody, body);
  if (!parsed.success) throw validationError(parsed.issues);
  if (!UUID.test(id) || !UUID.test(memberId)) throw notFound();
  await db.transaction(async (tx) => {
    const row = await lockIntroduction(tx, id.toLowerCase());
    const side = row ? sideOfMember(row, memberId) : null;
    if (!row || !side) throw notFound();
    const context = row.context as IntroductionContext;
    if (!isOpen(row.state) && row.state !== 'fiancailles') {
      throw new ApiError(
        409,
        'INTRODUCTION_OVER',
        'Cette mise en relation est terminée : plus rien n’est transmis, il n’y a rien à choisir.',
      );
    }
    if (context.ended !== null)
      throw new ApiError(409, 'INTRODUCTION_ENDED', 'Cette mise en relation a pris fin : plus rien n’est transmis.');
    const via = parsed.output.via;
    if (via === 'wali' || (via === 'reglages' && (await guardianOf(tx, memberId))?.contactVia === 'wali')) {
      const guardian = await guardianOf(tx, memberId);
      if (!guardian?.phone) {
        throw new ApiError(
          422,
          'WALI_PHONE_NEEDED',
          'Indiquez d’abord votre walī et son numéro de téléphone dans « Mon profil » : c’est ce numéro qui sera transmis.',
        );
      }
    }
    const value = via === 'reglages' ? null : via;
    await updateIntroductionContactVia(
      tx,
      row.id,
      side === 'a' ? { contactViaA: value, updatedAt: now } : { contactViaB: value, updatedAt: now },
    );
  });
  const view = await memberIntroduction(db, memberId, id, now);
  if (!view) throw notFound();
  return view;
}

/** One of the member's introductions as `memberView`, or null when it is not theirs (404). */
export async function memberIntroduction(db: Db, memberId: string, id: string, now: Date): Promise<MemberIntroductionView | null> {
  const views = await memberIntroductions(db, memberId, now);
  return views.find((view) => view.id === id.toLowerCase()) ?? null;
}
