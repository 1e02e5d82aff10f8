import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { getInitialSnapshot } from 'xstate';
import type { Db, Transaction } from '#bff/db/database.ts';
import type { IntroductionRow } from '#bff/db/introductions-schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { lateFeedbackRefusal } from '#bff/introductions/feedback.ts';
import {
  insertIntroduction,
  insertIntroductionEvent,
  introductionById,
  lockIntroductionsOfMember,
  lockMembersForProposal,
  lockPairMembers,
  pairEverProposed,
  updateIntroductionAtVersion,
} from '#bff/introductions/store/introductions.ts';
import { type AgencyMailSite, dateTimeFr } from '#bff/mail/agency-mails.ts';
import { upsertMatchProfile } from '#bff/matching/candidates.ts';
import { standingPair, standingsOf } from '#bff/members/standing.ts';
import type { Actor as ChartActor } from '#machines/introductions/context.ts';
import {
  type IntroductionBody,
  introductionEvents as chartEvents,
  memberEventTypes,
  parseIntroductionBody,
  toMachineEvent,
} from '#machines/introductions/events.ts';
import { introductionMachine } from '#machines/introductions/introduction.machine.ts';
import { type EndCause, endCauseLabels, endReasonForMember, type IntroductionStateKey, type Side } from '#machines/introductions/labels.ts';
import { decideEvent, type StoredIntroduction, storedOf } from '#machines/introductions/restore.ts';
import { canPropose, deadlineOf, isOpen } from '#machines/introductions/rules.ts';
import { standingEndOf } from '#machines/introductions/sharing.ts';
import { brokenRequired, criteriaWords, ExceptionReason } from '#machines/matching/criteria.ts';
import type { MatchProfile } from '#machines/matching/match-profile.ts';
import {
  type IntroductionActor,
  MAX_ATTEMPTS,
  UUID,
  conflict,
  eligibilityOf,
  notFound,
  openCountOf,
  refused,
  sideOfMember,
  storedOfRow,
} from '#bff/introductions/introduction-core.ts';
import { mailsForEvent } from '#bff/introductions/introduction-event-mails.ts';
import { firstNames } from '#bff/introductions/staff-introduction-views.ts';

// ---------------------------------------------------------------------------
// Proposing

export const ProposeBody = v.strictObject(
  {
    a: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')),
    b: v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide')),
    noteA: v.optional(v.pipe(v.string('Note invalide'), v.trim(), v.maxLength(2000, '2000 caractères au plus'))),
    noteB: v.optional(v.pipe(v.string('Note invalide'), v.trim(), v.maxLength(2000, '2000 caractères au plus'))),
  },
  'Requête invalide',
);

/**
 * Decision 193: a pair that breaks an indispensable criterion of a side is proposed only with a
 * note to that side saying why (non-empty, bounded: `ExceptionReason`), which the member reads
 * beside the criteria it breaks; else 422, naming the criteria, and nothing is written.
 */
function requireExceptionReasons(
  profileA: MatchProfile,
  profileB: MatchProfile,
  notes: { noteA?: string | undefined; noteB?: string | undefined },
  nowMs: number,
  names: Map<string, string | null>,
): void {
  const broken = brokenRequired(profileA, profileB, nowMs);
  const missing = (['a', 'b'] as const).filter(
    (side) => broken[side].length > 0 && !v.safeParse(ExceptionReason, side === 'a' ? notes.noteA : notes.noteB).success,
  );
  if (missing.length === 0) return;
  const nameOf = (side: Side) =>
    names.get((side === 'a' ? profileA : profileB).memberId.toLowerCase()) ?? (side === 'a' ? 'du premier membre' : 'du second membre');
  const of = (name: string) => (/^(du |d’|de )/.test(name) ? name : /^[aeiouâàéèêëîïôöûüœ]/i.test(name) ? `d’${name}` : `de ${name}`);
  const parts = missing.map((side) => `aux critères indispensables ${of(nameOf(side))} (${criteriaWords(broken[side])})`);
  throw new ApiError(
    422,
    'REQUIRED_CRITERIA',
    `Cette proposition déroge ${parts.join(' et ')} : écrivez dans la note ${missing.length > 1 ? 'de chacun' : 'qui lui est destinée'} pourquoi vous la faites malgré tout ; le membre la lira.`,
    { criteria: { a: broken.a, b: broken.b } },
  );
}

export interface ProposeInput {
  staffId: string | null;
  a: string;
  b: string;
  noteA?: string | undefined;
  noteB?: string | undefined;
  now: Date;
  /** Where the mails link to; without it no mail is queued. */
  mail?: AgencyMailSite | undefined;
}

/**
 * Staff propose two members to each other: both available (match profiles), of opposite sexes,
 * each below the limit of open introductions, the pair never proposed before. One transaction:
 * the row at version 1, its `PROPOSE` log row, and the proposal mail to each side.
 */
export async function proposeIntroduction(db: Db, input: ProposeInput): Promise<IntroductionRow> {
  const parsed = v.safeParse(ProposeBody, { a: input.a, b: input.b, noteA: input.noteA, noteB: input.noteB });
  if (!parsed.success) throw validationError(parsed.issues);
  const a = parsed.output.a.toLowerCase();
  const b = parsed.output.b.toLowerCase();
  if (a === b) throw conflict('Un membre ne peut pas être proposé à lui-même.');
  const nowMs = input.now.getTime();
  return db.transaction(async (tx) => {
    // Serialises proposals touching either member (the limit of open ones holds under concurrency).
    const locked = await lockMembersForProposal(tx, a, b);
    const rowA = locked.find((r) => r.id === a);
    const rowB = locked.find((r) => r.id === b);
    if (rowA?.role !== 'member' || rowB?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
    // The profiles as they stand now (steps 1-2, state, consent, term): refreshed in this transaction.
    const profileA = await upsertMatchProfile(tx, a, nowMs);
    const profileB = await upsertMatchProfile(tx, b, nowMs);
    const pairAlreadyProposed = await pairEverProposed(tx, a, b);
    const reason = canPropose({
      aEligible: await eligibilityOf(tx, profileA, nowMs),
      bEligible: await eligibilityOf(tx, profileB, nowMs),
      pairAlreadyProposed,
      openCountA: await openCountOf(tx, a),
      openCountB: await openCountOf(tx, b),
    });
    if (reason) throw conflict(reason);
    if (profileA?.gender === profileB?.gender) throw conflict('Les deux membres proposés doivent être de sexes opposés.');
    if (profileA && profileB) requireExceptionReasons(profileA, profileB, parsed.output, nowMs, await firstNames(tx, [a, b]));

    const consentOf = (onboarding: unknown) => {
      const at = (onboarding as { sensitiveDataConsentAt?: unknown } | null)?.sensitiveDataConsentAt;
      return typeof at === 'string' ? at : null;
    };
    const consentA = consentOf(rowA.onboarding);
    const consentB = consentOf(rowB.onboarding);
    if (!consentA || !consentB) {
      throw conflict(
        canPropose({
          aEligible: consentA ? true : 'consentement-retire',
          bEligible: consentB ? true : 'consentement-retire',
          pairAlreadyProposed: false,
          openCountA: 0,
          openCountB: 0,
        }) ?? 'Consentement manquant.',
      );
    }

    const id = randomUUID();
    const snapshot = getInitialSnapshot(introductionMachine, {
      id,
      members: { a, b },
      proposedAt: nowMs,
      summaryConsentAt: { a: consentA, b: consentB },
    });
    const stored = storedOf(snapshot, 1);
    const row = await insertIntroduction(tx, {
      id,
      memberA: a,
      memberB: b,
      state: stored.state,
      context: stored.context,
      version: 1,
      proposedAt: new Date(nowMs),
      deadlineAt: new Date(deadlineOf(nowMs)),
      createdBy: input.staffId,
      noteA: parsed.output.noteA || null,
      noteB: parsed.output.noteB || null,
      createdAt: input.now,
      updatedAt: input.now,
    });
    if (!row) throw new Error('introductions insert returned nothing');
    await insertIntroductionEvent(tx, {
      introductionId: id,
      event: 'PROPOSE',
      actorId: input.staffId,
      actorRole: 'staff',
      side: null,
      fromState: null,
      toState: stored.state,
      payload: {},
      version: 1,
      createdAt: input.now,
    });
    if (input.mail) await mailsForEvent(tx, input.mail, row, 'PROPOSE', null, stored);
    return row;
  });
}

// ---------------------------------------------------------------------------
// Events

export interface ApplyInput {
  introductionId: string;
  /** The request body, not yet validated. A member's `side` is never read from it. */
  body: unknown;
  actor: IntroductionActor;
  now: Date;
  /** Staff may name the version they read: another write since then answers 409 instead of acting twice. */
  expectedVersion?: number | undefined;
  mail?: AgencyMailSite | undefined;
  /** Staff record a member's FEEDBACK heard by phone (decision 205): the body names the side, the staff is the recorder. */
  byPhone?: boolean | undefined;
}

export interface AppliedIntroductionEvent {
  row: IntroductionRow;
  state: IntroductionStateKey;
  version: number;
}

/** The log keeps what happened, not the free text (comments and notes stay in the context only). */
function logPayload(body: IntroductionBody): Record<string, unknown> {
  switch (body.type) {
    case 'DECLINE':
      return { reason: body.reason };
    case 'FEEDBACK':
      return { outcome: body.outcome, reason: body.reason ?? null };
    case 'PLAN_MEETING':
      return { meetingAt: body.meetingAt };
    case 'END':
      return { cause: body.cause, party: body.party };
    default:
      return {};
  }
}

/**
 * Validates the body for this actor. A member's side is never read from the body: whatever it
 * says is replaced by the placeholder `a` until the stored row tells theirs.
 */
function validatedBody(input: unknown, actor: IntroductionActor, byPhone = false): IntroductionBody {
  const isMember = actor.role === 'member';
  const type = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as { type?: unknown }).type : undefined;
  const memberEvent = typeof type === 'string' && (memberEventTypes as readonly string[]).includes(type);
  // The agency's END follows a contract's or an account's end, decided elsewhere (decision 194):
  // nobody sends it over HTTP; staff close with a note (CLOSE).
  if (type === 'END' && actor.role !== 'system') {
    throw new ApiError(
      403,
      'FORBIDDEN',
      'Cette fin est enregistrée par l’agence elle-même quand un contrat ou un compte prend fin : pour clore, utilisez « Clore la mise en relation ».',
    );
  }
  if (typeof type === 'string' && Object.hasOwn(chartEvents, type)) {
    if (isMember && !memberEvent) throw new ApiError(403, 'FORBIDDEN', 'Cette action est réservée à l’équipe de l’agence.');
    if (!isMember && memberEvent && !(byPhone && type === 'FEEDBACK')) {
      throw new ApiError(
        403,
        'FORBIDDEN',
        'Seul le membre concerné peut donner sa réponse ou son retour : l’équipe ne peut pas le faire à sa place.',
      );
    }
  }
  const body = isMember && memberEvent ? { ...(input as Record<string, unknown>), side: 'a' } : input;
  const parsed = parseIntroductionBody(body);
  if (!parsed.success) throw validationError(parsed.issues);
  return parsed.body;
}

/** Before a staff re-opening: both members may still be proposed, each below the limit of open introductions. */
async function checkReopen(tx: Transaction, row: IntroductionRow, nowMs: number): Promise<void> {
  await lockPairMembers(tx, row.memberA, row.memberB);
  const profileA = await upsertMatchProfile(tx, row.memberA, nowMs);
  const profileB = await upsertMatchProfile(tx, row.memberB, nowMs);
  const reason = canPropose({
    aEligible: await eligibilityOf(tx, profileA, nowMs),
    bEligible: await eligibilityOf(tx, profileB, nowMs),
    pairAlreadyProposed: false,
    openCountA: await openCountOf(tx, row.memberA),
    openCountB: await openCountOf(tx, row.memberB),
  });
  if (reason) throw new ApiError(409, 'INTRODUCTION_REFUSED', reason, { state: row.state });
}

/**
 * Writes one decided event: the row at version + 1 if the version read is still the stored one
 * (else null: someone wrote first), its log row, and its mails, in the caller's transaction.
 */
async function writeDecided(
  tx: Transaction,
  row: IntroductionRow,
  stored: StoredIntroduction,
  next: StoredIntroduction,
  eventBody: IntroductionBody,
  input: { actor: IntroductionActor; now: Date; mail?: AgencyMailSite | undefined },
): Promise<IntroductionRow | null> {
  const proposedAt = next.context.proposedAt;
  const updated = await updateIntroductionAtVersion(tx, row.id, row.version, {
    state: next.state,
    context: next.context,
    version: next.version,
    proposedAt: new Date(proposedAt),
    deadlineAt: new Date(deadlineOf(proposedAt)),
    updatedAt: input.now,
  });
  if (!updated) return null;
  await insertIntroductionEvent(tx, {
    introductionId: row.id,
    event: eventBody.type,
    actorId: input.actor.id,
    actorRole: input.actor.role,
    side: 'side' in eventBody ? eventBody.side : null,
    fromState: stored.state,
    toState: next.state,
    payload: logPayload(eventBody),
    version: next.version,
    createdAt: input.now,
  });
  if (input.mail) await mailsForEvent(tx, input.mail, updated, eventBody.type, stored, next);
  return updated;
}

/** Events that need nobody's standing: the agency's END itself, and staff's close and re-opening (checked on its own). */
const STANDING_FREE_EVENTS: ReadonlySet<IntroductionBody['type']> = new Set(['END', 'CLOSE', 'REOPEN']);

/** The 409 of an event that came after a member's contract, account or consent ended the introduction. */
function endedError(cause: EndCause, party: Side, memberSide: Side | null, state: string): ApiError {
  // A member reads their own cause only; staff read the cause in words.
  const why = memberSide ? endReasonForMember(cause, party, memberSide) : endCauseLabels[cause].toLowerCase();
  return new ApiError(409, 'INTRODUCTION_ENDED', `Cette mise en relation a pris fin${why ? ` : ${why}` : ''}.`, { state });
}

/**
 * One event of one introduction, in one transaction: validated, restored, decided by the chart,
 * written at version + 1 if the version read is still the stored one (else decided again), logged,
 * and its mails queued. 404 when the introduction is not the member's; 409 `{state}` when refused.
 * An event that arrives after a member's contract, account or consent ended the introduction (a
 * term passed since the ending job's last run) ends it instead (END, decision 194) and answers 409
 * `INTRODUCTION_ENDED`: nothing more is shared or mailed from that instant.
 */
export async function applyIntroductionEvent(db: Db, input: ApplyInput): Promise<AppliedIntroductionEvent> {
  const body = validatedBody(input.body, input.actor, input.byPhone === true && input.actor.role === 'staff');
  // Decision 197: a first meeting in the past is refused with words that say so (the chart refuses it too).
  if (body.type === 'PLAN_MEETING' && Date.parse(body.meetingAt) <= input.now.getTime()) {
    throw new ApiError(
      422,
      'MEETING_IN_PAST',
      `La date choisie (le ${dateTimeFr(new Date(body.meetingAt))}) est déjà passée : choisissez une date et une heure à venir.`,
    );
  }
  if (!UUID.test(input.introductionId)) throw notFound();
  if (input.actor.role === 'member' && !input.actor.id) throw notFound();
  const id = input.introductionId.toLowerCase();
  const nowMs = input.now.getTime();

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    const outcome = await db.transaction(async (tx: Transaction) => {
      const row = await introductionById(tx, id);
      if (!row) throw notFound();
      let chartActor: ChartActor = { kind: 'staff' };
      let eventBody = body;
      let memberSide: Side | null = null;
      if (input.actor.role === 'member') {
        const side = sideOfMember(row, input.actor.id as string);
        if (!side) throw notFound();
        memberSide = side;
        chartActor = { kind: 'member', side };
        eventBody = { ...body, side } as IntroductionBody;
      }
      if (input.expectedVersion !== undefined && input.expectedVersion !== row.version) {
        throw new ApiError(409, 'VERSION_CONFLICT', 'La mise en relation a été modifiée entre-temps : rechargez-la avant d’agir.', {
          state: row.state,
          version: row.version,
        });
      }
      const stored = storedOfRow(row);
      if (!STANDING_FREE_EVENTS.has(eventBody.type)) {
        const standing = standingPair(await standingsOf(tx, [row.memberA, row.memberB], input.now), row);
        const found = standingEndOf(standing, stored.context.proposedAt);
        const end: IntroductionBody | null = found ? { type: 'END', cause: found.cause, party: found.party } : null;
        const ending = end ? decideEvent(stored, toMachineEvent(end, { kind: 'staff' }, nowMs)) : null;
        if (found && end && ending?.allowed) {
          const system: IntroductionActor = { id: null, role: 'system' };
          const written = await writeDecided(tx, row, stored, ending.stored, end, { actor: system, now: input.now });
          if (!written) return null; // someone wrote first: decide again
          return { ended: endedError(found.cause, found.party, memberSide, ending.stored.state) };
        }
      }
      const chartEvent = toMachineEvent(eventBody, chartActor, nowMs);
      if (chartEvent.type === 'FEEDBACK' && input.byPhone && input.actor.role === 'staff')
        chartEvent.recordedBy = input.actor.id ?? undefined;
      const decision = decideEvent(stored, chartEvent);
      if (!decision.allowed)
        throw lateFeedbackRefusal(row.state, stored.context, chartActor, eventBody.type, nowMs) ?? refused(decision.state);
      if (eventBody.type === 'REOPEN') await checkReopen(tx, row, nowMs);
      const next = decision.stored;
      const updated = await writeDecided(tx, row, stored, next, eventBody, input);
      if (!updated) return null; // someone wrote first: decide again on the fresh row
      return { row: updated, state: next.state, version: next.version };
    });
    if (outcome && 'ended' in outcome) throw outcome.ended;
    if (outcome) return outcome;
  }
  throw new ApiError(503, 'BUSY', 'Trop de modifications simultanées, réessayez.');
}

/**
 * Ends, in the caller's transaction, every introduction of `memberId` still under way, and the
 * sharing of an engagement (END, decision 194), because this member's contract, account or consent
 * ended with `cause`. The rows are locked; each is logged as the agency's own event. Answers how
 * many ended.
 */
export async function endIntroductionsOf(tx: Transaction, memberId: string, cause: EndCause, now: Date): Promise<number> {
  if (!UUID.test(memberId)) return 0;
  const rows = await lockIntroductionsOfMember(tx, memberId);
  let ended = 0;
  for (const row of rows) {
    const party = sideOfMember(row, memberId);
    if (!party || !(isOpen(row.state) || row.state === 'fiancailles')) continue;
    const stored = storedOfRow(row);
    const body: IntroductionBody = { type: 'END', cause, party };
    const decision = decideEvent(stored, toMachineEvent(body, { kind: 'staff' }, now.getTime()));
    if (!decision.allowed) continue; // an engagement already ended
    if (await writeDecided(tx, row, stored, decision.stored, body, { actor: { id: null, role: 'system' }, now })) ended += 1;
  }
  return ended;
}
