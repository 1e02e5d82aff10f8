import { approvedPresentationOf } from '#bff/matching/presentation.ts';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { getInitialSnapshot } from 'xstate';
import type { Db, Transaction } from '#bff/db/database.ts';
import { type IntroductionRow, introductionEvents, introductions } from '#bff/db/introductions-schema.ts';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members } from '#bff/db/schema.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { contactChoiceOf, type DescribedMember, guardianContactFor, guardianOf, queueGuardianMails } from '#bff/introductions/guardian.ts';
import { meetingOf, meetingRecipients, meetingReminderDue, queueMeetingMails } from '#bff/introductions/meeting-mails.ts';
import { type EndedView, endedViewOf, queueEndingMails } from '#bff/introductions/ending.ts';
import {
  type FeedbackFields,
  feedbackFieldsOf,
  feedbackRecordersOf,
  lateFeedbackRefusal,
  queueFeedbackReminders,
} from '#bff/introductions/feedback.ts';
import { log } from '#bff/logger.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { type AgencyMailSite, dateTimeFr } from '#bff/mail/agency-mails.ts';
import {
  introductionAcceptedMail,
  introductionExpiredMail,
  introductionProposedMail,
  introductionReminderMail,
} from '#bff/mail/introduction-mails.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import { type MatchingExecutor, matchProfileOf, upsertMatchProfile } from '#bff/matching/candidates.ts';
import { standingPair, standingsOf } from '#bff/introductions/standing.ts';
import { introductionPhotoUrl, photoIdsOf } from '#bff/photos/member-photos.ts';
import { type Actor as ChartActor, type IntroductionContext, otherSide } from '#machines/introductions/context.ts';
import {
  type ContactVia,
  contactViaLabels,
  type GuardianContact,
  waliOnlyContactOf as waliOnlyOf,
} from '#machines/introductions/guardian.ts';
import {
  type IntroductionBody,
  introductionEvents as chartEvents,
  memberEventTypes,
  parseIntroductionBody,
  toMachineEvent,
} from '#machines/introductions/events.ts';
import { introductionMachine } from '#machines/introductions/introduction.machine.ts';
import {
  type DeclineReason,
  declineReasonLabel,
  type EndCause,
  endCauseLabels,
  endReasonForMember,
  type FeedbackOutcome,
  type IntroductionStateKey,
  type Side,
  type SideNames,
  sideLabels,
  stateLabel,
  stateLabels,
  type TimelineEvent,
  timelineSentence,
} from '#machines/introductions/labels.ts';
import { decideEvent, type StoredIntroduction, storedIntroductionSchema, storedOf } from '#machines/introductions/restore.ts';
import {
  canPropose,
  deadlineOf,
  type IneligibilityCode,
  ineligibilityTexts,
  isOpen,
  MAX_OPEN_INTRODUCTIONS_PER_MEMBER,
  openStates,
  REMINDER_DAY,
  reminderDueAt,
} from '#machines/introductions/rules.ts';
import { type Standing, sharingOf, standingEndOf } from '#machines/introductions/sharing.ts';
import {
  availableAt,
  brokenRequired,
  criteriaWords,
  ExceptionReason,
  type MatchProfile,
  memberReasons,
  type UnavailableReason,
} from '#machines/matching/criteria.ts';
import { ageOn } from '#machines/onboarding/forms.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';
import { maritalStatusLabelFor, prayerPracticeLabels, regionLabels } from '#machines/onboarding/labels.ts';
import { count } from '#machines/french/plural.ts';

/**
 * The BFF's authority over introductions (issue 22), as `applyOnboardingUpdate` is over onboarding:
 * one transaction per event, the chart restored from the stored row (`decideEvent`), the new row
 * written at version + 1 only if nobody wrote first (optimistic), an append-only log row beside
 * it, a refused event answered 409 with the current state. A member acts on their own side only
 * (derived from the session, never from the body) and gets 404 for any introduction that is not
 * theirs: a member never learns that an introduction between others exists.
 */

/** Who sends an event: staff, a member (for their own side), or the server's scheduler (as staff for the chart). */
export interface IntroductionActor {
  id: string | null;
  role: 'member' | 'staff' | 'system';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ATTEMPTS = 8;

const notFound = () => new ApiError(404, 'INTRODUCTION_NOT_FOUND', 'Mise en relation introuvable.');
const conflict = (message: string) => new ApiError(409, 'INTRODUCTION_REFUSED', message);

function refused(state: string): ApiError {
  return new ApiError(
    409,
    'TRANSITION_REFUSED',
    `Cette action n’est pas possible pour le moment : la mise en relation est « ${stateLabel(state)} ».`,
    { state },
  );
}

/** The stored row as the chart reads it (the context is validated: a row that is not one is a bug). */
function storedOfRow(row: IntroductionRow): StoredIntroduction {
  return v.parse(storedIntroductionSchema, { state: row.state, context: row.context, version: row.version });
}

function sideOfMember(row: Pick<IntroductionRow, 'memberA' | 'memberB'>, memberId: string): Side | null {
  const id = memberId.toLowerCase();
  if (row.memberA.toLowerCase() === id) return 'a';
  if (row.memberB.toLowerCase() === id) return 'b';
  return null;
}

function memberOfSide(row: Pick<IntroductionRow, 'memberA' | 'memberB'>, side: Side): string {
  return side === 'a' ? row.memberA : row.memberB;
}

/** The round of the pair: 0 for the first proposal, n after n re-openings (mails are once per round). */
function roundOf(context: IntroductionContext): number {
  return context.history.length;
}

async function rowsOf<Row>(executor: MatchingExecutor, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await executor.execute(query)) as unknown as { rows: Row[] }).rows;
}

const OPEN_TOPS = sql.raw(`ARRAY[${openStates.map((s) => `'${s}'`).join(',')}]::text[]`);

/** Open introductions of a member now (they count towards the limit). */
async function openCountOf(executor: MatchingExecutor, memberId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    executor,
    sql`SELECT count(*)::int AS n FROM introductions
      WHERE (member_a = ${memberId}::uuid OR member_b = ${memberId}::uuid) AND split_part(state, '.', 1) = ANY(${OPEN_TOPS})`,
  );
  return Number(row?.n ?? 0);
}

async function engaged(executor: MatchingExecutor, memberId: string): Promise<boolean> {
  const rows = await rowsOf<{ one: number }>(
    executor,
    sql`SELECT 1 AS one FROM introductions WHERE (member_a = ${memberId}::uuid OR member_b = ${memberId}::uuid) AND state = 'fiancailles' LIMIT 1`,
  );
  return rows.length > 0;
}

const ineligibilityOfReason: Record<UnavailableReason, IneligibilityCode> = {
  efface: 'compte-efface',
  desactive: 'compte-desactive',
  'contrat-termine': 'contrat-termine',
  // A termination asked (decision 119): the contract is ending, no new introduction.
  'resiliation-demandee': 'contrat-termine',
  'pas-encore-actif': 'pas-encore-actif',
  'profil-incomplet': 'pas-encore-actif',
  'consentement-absent': 'consentement-retire',
  'mise-en-relation-suspendue': 'consentement-retire',
};

/** `true`, or why the member cannot be proposed now (from their match profile and introductions). */
async function eligibilityOf(executor: MatchingExecutor, profile: MatchProfile | null, nowMs: number): Promise<true | IneligibilityCode> {
  if (!profile) return 'pas-encore-actif';
  if (!availableAt(profile, nowMs)) {
    if (profile.contractEndsAt !== null && profile.contractEndsAt <= nowMs) return 'contrat-termine';
    return ineligibilityOfReason[profile.unavailableReason ?? 'pas-encore-actif'];
  }
  if (await engaged(executor, profile.memberId)) return 'fiancailles';
  return true;
}

/**
 * Members never to rank for `memberId`: everyone ever proposed with them (one proposal per pair,
 * ever), and anyone who cannot take one more introduction now (at the limit of open ones, or
 * engaged). Fed to `rankCandidates` as `excludeMemberIds`.
 */
export async function exclusionsFor(executor: MatchingExecutor, memberId: string): Promise<string[]> {
  if (!UUID.test(memberId)) return [];
  const rows = await rowsOf<{ id: string }>(
    executor,
    sql`SELECT CASE WHEN member_a = ${memberId}::uuid THEN member_b ELSE member_a END::text AS id FROM introductions
        WHERE member_a = ${memberId}::uuid OR member_b = ${memberId}::uuid
      UNION
      SELECT m.id::text FROM (
        SELECT member_a AS id, state FROM introductions UNION ALL SELECT member_b AS id, state FROM introductions
      ) m
      GROUP BY m.id
      HAVING count(*) FILTER (WHERE split_part(m.state, '.', 1) = ANY(${OPEN_TOPS})) >= ${MAX_OPEN_INTRODUCTIONS_PER_MEMBER}::int
        OR bool_or(m.state = 'fiancailles')`,
  );
  return rows.map((r) => r.id).filter((id) => id !== memberId.toLowerCase());
}

/** Why the member may not get one more introduction now (engaged, or at the limit of open ones), or null. */
export async function introductionBlockOf(executor: MatchingExecutor, memberId: string): Promise<string | null> {
  if (!UUID.test(memberId)) return null;
  if (await engaged(executor, memberId)) return ineligibilityTexts.fiancailles;
  if ((await openCountOf(executor, memberId)) >= MAX_OPEN_INTRODUCTIONS_PER_MEMBER) {
    return `Le membre a déjà ${MAX_OPEN_INTRODUCTIONS_PER_MEMBER} mises en relation en cours, le maximum.`;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Mails

interface Person {
  email: string;
  firstName: string | null;
}

async function personOf(executor: Executor, memberId: string): Promise<Person | null> {
  const [row] = await executor
    .select({ email: members.email, profile: members.profile, erasedAt: memberPrivacy.erasedAt })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  // An erased member is mailed nothing (their address is a placeholder that never delivers).
  return row && !row.erasedAt ? { email: row.email, firstName: firstNameOf(row.profile) } : null;
}

/** Queues, once per (introduction, round, side), the mail of this kind to the chosen sides. */
async function mailSides(
  executor: Executor,
  row: Pick<IntroductionRow, 'id' | 'memberA' | 'memberB'>,
  round: number,
  sidesTo: readonly Side[],
  key: string,
  build: (person: Person) => Parameters<typeof enqueueMailOnce>[1],
): Promise<number> {
  let queued = 0;
  for (const side of sidesTo) {
    const person = await personOf(executor, memberOfSide(row, side));
    if (!person) continue;
    const id = await enqueueMailOnce(executor, build(person), `${key}:${row.id}:${round}:${side}`);
    if (id !== null) queued += 1;
  }
  return queued;
}

async function mailsForEvent(
  executor: Executor,
  site: AgencyMailSite,
  row: IntroductionRow,
  type: IntroductionBody['type'] | 'PROPOSE',
  before: StoredIntroduction | null,
  after: StoredIntroduction,
): Promise<void> {
  const context = after.context;
  const round = roundOf(context);
  const deadline = new Date(deadlineOf(context.proposedAt));
  const to = (p: Person) => ({ to: p.email, firstName: p.firstName });
  if (type === 'PROPOSE' || type === 'REOPEN') {
    await mailSides(executor, row, round, ['a', 'b'], 'introduction-proposed', (p) => introductionProposedMail(site, to(p), { deadline }));
    await queueGuardianMails(executor, site, 'proposed', guardianMailInput(executor, row, round, deadline, after));
  } else if (type === 'ACCEPT' && after.state === 'acceptee') {
    await mailSides(executor, row, round, ['a', 'b'], 'introduction-accepted', (p) => introductionAcceptedMail(site, to(p)));
    const contactVia = {
      [row.memberA]: (await contactChoiceOf(executor, row.memberA, row.contactViaA)).via,
      [row.memberB]: (await contactChoiceOf(executor, row.memberB, row.contactViaB)).via,
    };
    await queueGuardianMails(executor, site, 'accepted', { ...guardianMailInput(executor, row, round, deadline, after), contactVia });
  } else if (type === 'REMIND') {
    // Only whoever has not answered yet (as the round stood before the reminder).
    const pending = (['a', 'b'] as const).filter((s) => (before ?? after).context.answers[s].status === 'pending');
    await mailSides(executor, row, round, pending, 'introduction-reminder', (p) => introductionReminderMail(site, to(p), { deadline }));
  } else if (type === 'EXPIRE') {
    await mailSides(executor, row, round, ['a', 'b'], 'introduction-expired', (p) => introductionExpiredMail(site, to(p)));
  } else if (type === 'PLAN_MEETING' || type === 'CANCEL_MEETING' || type === 'RECORD_MEETING_HELD') {
    // Decision 197: both members, and each walī who receives it, once per event (the version).
    const meeting = meetingOf(type === 'PLAN_MEETING' ? context : (before ?? after).context);
    if (!meeting) return;
    const moment =
      type === 'CANCEL_MEETING'
        ? 'cancelled'
        : type === 'RECORD_MEETING_HELD'
          ? 'held'
          : before?.state === 'rencontre-planifiee'
            ? 'moved'
            : 'planned';
    const recipients = await meetingRecipients(executor, row, (id) => personOf(executor, id));
    await queueMeetingMails(executor, site, row.id, `v${after.version}`, moment, meeting, recipients);
  } else if (after.state === 'close' && before?.state !== 'close') {
    // Decision 205: the other member hears of the end (staff's message, or the plain sentence of a member's stop).
    await queueEndingMails(executor, site, row, round, context, (id) => personOf(executor, id));
  }
}

/** What the guardians' mails (decision 117) may say of each member of the pair, at the event's time. */
function guardianMailInput(
  executor: Executor,
  row: Pick<IntroductionRow, 'id' | 'memberA' | 'memberB'>,
  round: number,
  deadline: Date,
  after: StoredIntroduction,
) {
  const nowMs = Date.parse(after.context.lastEventAt);
  return {
    introductionId: row.id,
    round,
    members: { a: row.memberA, b: row.memberB },
    deadline,
    describe: async (memberId: string): Promise<DescribedMember | null> => {
      const person = await otherPerson(executor, memberId);
      if (!person) return null;
      const phone = (person.profile as { phone?: unknown } | null)?.phone;
      return {
        firstName: firstNameOf(person.profile),
        email: person.email,
        phone: typeof phone === 'string' ? phone : null,
        summary: summaryOf(person, nowMs),
      };
    },
  };
}

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
    const locked = await rowsOf<{ id: string; role: string; onboarding: unknown; erased: boolean }>(
      tx,
      sql`SELECT id::text AS id, role, onboarding, (erased_at IS NOT NULL) AS erased FROM members
        WHERE id IN (${a}::uuid, ${b}::uuid) ORDER BY id FOR UPDATE`,
    );
    const rowA = locked.find((r) => r.id === a);
    const rowB = locked.find((r) => r.id === b);
    if (rowA?.role !== 'member' || rowB?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
    // The profiles as they stand now (steps 1-2, state, consent, term): refreshed in this transaction.
    const profileA = await upsertMatchProfile(tx, a, nowMs);
    const profileB = await upsertMatchProfile(tx, b, nowMs);
    const [pair] = await rowsOf<{ one: number }>(
      tx,
      sql`SELECT 1 AS one FROM introductions WHERE least(member_a, member_b) = least(${a}::uuid, ${b}::uuid)
        AND greatest(member_a, member_b) = greatest(${a}::uuid, ${b}::uuid)`,
    );
    const reason = canPropose({
      aEligible: await eligibilityOf(tx, profileA, nowMs),
      bEligible: await eligibilityOf(tx, profileB, nowMs),
      pairAlreadyProposed: pair !== undefined,
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
    const [row] = await tx
      .insert(introductions)
      .values({
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
      })
      .returning();
    if (!row) throw new Error('introductions insert returned nothing');
    await tx.insert(introductionEvents).values({
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
  await rowsOf(tx, sql`SELECT id FROM members WHERE id IN (${row.memberA}::uuid, ${row.memberB}::uuid) ORDER BY id FOR UPDATE`);
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
  const [updated] = await tx
    .update(introductions)
    .set({
      state: next.state,
      context: next.context,
      version: next.version,
      proposedAt: new Date(proposedAt),
      deadlineAt: new Date(deadlineOf(proposedAt)),
      updatedAt: input.now,
    })
    .where(and(eq(introductions.id, row.id), eq(introductions.version, row.version)))
    .returning();
  if (!updated) return null;
  await tx.insert(introductionEvents).values({
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
      const [row] = await tx.select().from(introductions).where(eq(introductions.id, id)).limit(1);
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
  const rows = await tx
    .select()
    .from(introductions)
    .where(sql`${introductions.memberA} = ${memberId}::uuid OR ${introductions.memberB} = ${memberId}::uuid`)
    .for('update');
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

// ---------------------------------------------------------------------------
// The deadline job

export interface DeadlineReport {
  reminded: number;
  expired: number;
  /** First meetings' reminders queued (decision 197), one per recipient. */
  meetingReminders: number;
  /** Reminders to give one's feedback before its deadline (decision 205), one per member. */
  feedbackReminders: number;
}

/**
 * Reminds (day 5 of 7) and expires (day 7) the proposals still waiting, as the agency's scheduler
 * (staff for the chart). Idempotent: the chart refuses a second reminder in a round and an expiry
 * outside `proposee`; a proposal answered meanwhile is skipped.
 */
export async function runIntroductionDeadlines(db: Db, now: Date, mail?: AgencyMailSite): Promise<DeadlineReport> {
  const nowMs = now.getTime();
  const waiting = await db
    .select()
    .from(introductions)
    .where(
      sql`${introductions.state} LIKE 'proposee.%' AND ${introductions.proposedAt} <= ${new Date(nowMs - REMINDER_DAY * DAY_MS).toISOString()}::timestamptz`,
    );
  const report: DeadlineReport = { reminded: 0, expired: 0, meetingReminders: 0, feedbackReminders: 0 };
  // The first meeting's reminder, the day before (decision 197): once per meeting instant, re-checked at sending.
  if (mail) {
    const planned = await db.select().from(introductions).where(eq(introductions.state, 'rencontre-planifiee'));
    for (const row of planned) {
      const context = row.context as IntroductionContext;
      const meeting = meetingOf(context);
      if (!meeting || context.ended !== null || !meetingReminderDue(meeting.at.getTime(), nowMs)) continue;
      const recipients = await meetingRecipients(db, row, (id) => personOf(db, id));
      report.meetingReminders += await queueMeetingMails(db, mail, row.id, String(meeting.at.getTime()), 'reminder', meeting, recipients);
    }
    report.feedbackReminders = await queueFeedbackReminders(db, mail, now, (id) => personOf(db, id));
  }
  for (const row of waiting) {
    const context = (row.context as IntroductionContext) ?? null;
    if (!context) continue;
    const due =
      nowMs >= deadlineOf(context.proposedAt)
        ? 'EXPIRE'
        : nowMs >= reminderDueAt(context.proposedAt) && context.remindedAt === null
          ? 'REMIND'
          : null;
    if (!due) continue;
    try {
      await applyIntroductionEvent(db, { introductionId: row.id, body: { type: due }, actor: { id: null, role: 'system' }, now, mail });
      if (due === 'EXPIRE') report.expired += 1;
      else report.reminded += 1;
    } catch (error) {
      // Answered or moved meanwhile (409): nothing to do. Anything else is logged, and the other
      // proposals still get their reminder or expiry.
      if (error instanceof ApiError && error.status === 409) continue;
      log.error('échéance d’une mise en relation non traitée', { introductionId: row.id, err: error });
    }
  }
  return report;
}

/**
 * The ending job (decision 194): as the agency, ends every introduction under way, and the sharing
 * of every engagement, of which a member's contract, account or consent has ended. A contract's
 * term has no request of its own: it is recorded here, on the day it passes (the predicate shares
 * nothing from its very instant). The other causes end them in their own transaction; this catches
 * anything left. Idempotent: an ended introduction is not under way any more.
 */
export async function runIntroductionEndings(db: Db, now: Date): Promise<{ ended: number }> {
  const rows = await db
    .select()
    .from(introductions)
    .where(
      sql`split_part(${introductions.state}, '.', 1) = ANY(${OPEN_TOPS}) OR (${introductions.state} = 'fiancailles' AND ${introductions.context} -> 'ended' = 'null'::jsonb)`,
    );
  const standings = await standingsOf(
    db,
    rows.flatMap((r) => [r.memberA, r.memberB]),
    now,
  );
  let ended = 0;
  for (const row of rows) {
    const found = standingEndOf(standingPair(standings, row), (row.context as IntroductionContext).proposedAt);
    if (!found) continue;
    try {
      const body = { type: 'END', cause: found.cause, party: found.party };
      await applyIntroductionEvent(db, { introductionId: row.id, body, actor: { id: null, role: 'system' }, now });
      ended += 1;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) continue; // moved meanwhile
      log.error('fin d’une mise en relation non enregistrée', { introductionId: row.id, err: error });
    }
  }
  return { ended };
}

/** How often the deadline job runs: a reminder or an expiry is at most this late. */
export const INTRODUCTION_DEADLINE_INTERVAL_MS = 15 * 60_000;

// ---------------------------------------------------------------------------
// Timelines: every logged event as a French sentence

type LoggedEvent = typeof introductionEvents.$inferSelect;

export interface TimelineEntry {
  at: string;
  sentence: string;
}

function sentenceOf(e: LoggedEvent, names: SideNames): string {
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

async function eventsOf(db: Db, introductionId: string): Promise<LoggedEvent[]> {
  return db
    .select()
    .from(introductionEvents)
    .where(eq(introductionEvents.introductionId, introductionId))
    .orderBy(introductionEvents.version);
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

function summaryOf(other: OtherPerson, nowMs: number): OtherSummary | null {
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
export function memberView(
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
async function otherPerson(executor: MatchingExecutor & Executor, memberId: string): Promise<OtherPerson | null> {
  const [row] = await executor
    .select({
      email: members.email,
      profile: members.profile,
      erasedAt: memberPrivacy.erasedAt,
      pausedAt: memberPrivacy.matchmakingPausedAt,
    })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
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
  const rows = await db
    .select()
    .from(introductions)
    .where(sql`${introductions.memberA} = ${memberId}::uuid OR ${introductions.memberB} = ${memberId}::uuid`)
    .orderBy(sql`${introductions.createdAt} DESC, ${introductions.id}`);
  const me = await matchProfileOf(db, memberId);
  const [self] = await db.select({ profile: members.profile }).from(members).where(eq(members.id, memberId)).limit(1);
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
export const ContactChoiceBody = v.strictObject(
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
    const [row] = await tx.select().from(introductions).where(eq(introductions.id, id.toLowerCase())).for('update').limit(1);
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
    await tx
      .update(introductions)
      .set(side === 'a' ? { contactViaA: value, updatedAt: now } : { contactViaB: value, updatedAt: now })
      .where(eq(introductions.id, row.id));
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

// ---------------------------------------------------------------------------
// Staff's views

export interface StaffIntroductionItem {
  id: string;
  state: string;
  stateLabel: string;
  open: boolean;
  members: Record<Side, { id: string; firstName: string | null }>;
  answers: Record<Side, string>;
  proposedAt: string;
  deadlineAt: string;
  version: number;
}

async function firstNames(db: Db, ids: string[]): Promise<Map<string, string | null>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: members.id, profile: members.profile })
    .from(members)
    .where(sql`${members.id} = ANY(${`{${unique.join(',')}}`}::uuid[])`);
  return new Map(rows.map((r) => [r.id.toLowerCase(), firstNameOf(r.profile)]));
}

function staffItem(row: IntroductionRow, names: Map<string, string | null>): StaffIntroductionItem {
  const context = row.context as IntroductionContext;
  return {
    id: row.id,
    state: row.state,
    stateLabel: stateLabel(row.state),
    open: isOpen(row.state),
    members: {
      a: { id: row.memberA, firstName: names.get(row.memberA.toLowerCase()) ?? null },
      b: { id: row.memberB, firstName: names.get(row.memberB.toLowerCase()) ?? null },
    },
    answers: { a: context.answers.a.status, b: context.answers.b.status },
    proposedAt: row.proposedAt.toISOString(),
    deadlineAt: row.deadlineAt.toISOString(),
    version: row.version,
  };
}

export const stateFilters = [...Object.keys(stateLabels), 'ouvertes', 'toutes'] as const;

/** Introductions for staff: the open ones by default (nearest deadline first), or those in one state. */
export async function staffIntroductions(db: Db, filter: string = 'ouvertes'): Promise<StaffIntroductionItem[]> {
  const rows = await db.select().from(introductions).orderBy(introductions.deadlineAt, introductions.id);
  const chosen = rows.filter((row) =>
    filter === 'toutes' ? true : filter === 'ouvertes' ? isOpen(row.state) : row.state === filter || row.state.startsWith(`${filter}.`),
  );
  const names = await firstNames(
    db,
    chosen.flatMap((r) => [r.memberA.toLowerCase(), r.memberB.toLowerCase()]),
  );
  return chosen.map((row) => staffItem(row, names));
}

/** One introduction for staff: the item, notes, the whole context (proof of consents) and its log. */
export async function staffIntroduction(db: Db, id: string) {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(introductions).where(eq(introductions.id, id.toLowerCase())).limit(1);
  if (!row) return null;
  const names = await firstNames(db, [row.memberA.toLowerCase(), row.memberB.toLowerCase()]);
  const events = await eventsOf(db, row.id);
  const sideNames: SideNames = {
    a: names.get(row.memberA.toLowerCase()) ?? sideLabels.a,
    b: names.get(row.memberB.toLowerCase()) ?? sideLabels.b,
  };
  // Each side's walī and how the other reaches them (decision 196): staff see both on the introduction.
  const contactOfSide = async (memberId: string, choice: string | null) => {
    const c = await contactChoiceOf(db, memberId, choice);
    return {
      via: c.via,
      label: contactViaLabels[c.via],
      fromSettings: c.fromSettings,
      guardian: c.guardian
        ? {
            name: c.guardian.name,
            relation: c.guardian.relationLabel,
            phone: c.guardian.phone,
            email: c.guardian.email,
            receives: c.guardian.receivesLabel,
          }
        : null,
    };
  };
  return {
    ...staffItem(row, names),
    contact: { a: await contactOfSide(row.memberA, row.contactViaA), b: await contactOfSide(row.memberB, row.contactViaB) },
    notes: { a: row.noteA, b: row.noteB },
    context: row.context as IntroductionContext,
    feedbackRecordedBy: await feedbackRecordersOf(db, row.context as IntroductionContext),
    events: events.map((e) => ({
      event: e.event,
      actorRole: e.actorRole,
      side: e.side,
      fromState: e.fromState,
      toState: e.toState,
      toStateLabel: stateLabel(e.toState),
      payload: e.payload,
      version: e.version,
      at: e.createdAt.toISOString(),
      sentence: sentenceOf(e, sideNames),
    })),
  };
}
