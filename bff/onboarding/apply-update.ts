import { stageColumns } from '#bff/members/stage.ts';
import { freeMissedMeetingSlot } from '#bff/agenda/agenda.ts';
import type { Db } from '#bff/db/database.ts';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { deriveMatchProfile, matchProfileFromJson, sameMatchProfile, storeMatchProfile } from '#bff/matching/candidates.ts';
import { mailQueuedThrough } from '#bff/mail/outbox.ts';
import { redeemCoupon } from '#bff/payments/coupons.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { civilDayText, dayAfterText } from '#machines/onboarding/deadline-texts.ts';
import { genderedAnswerIssues } from '#machines/onboarding/forms.ts';
import { contractDeadlines, renunciationOpen, subscriptionPaymentOpen, withdrawalOpen } from '#machines/onboarding/legal-deadlines.ts';
import { contractRightsHook } from '#bff/onboarding/contract-rights.ts';
import { isPlanActive } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { payInFullOfJson } from '#bff/onboarding/plan-settings.ts';
import { updateMemberWithEvent } from '#bff/onboarding/store/onboarding-update.ts';
import { memberById } from '#bff/members/store/members.ts';
import { countEvents } from '#bff/members/store/onboarding-events.ts';
import { onboardingPrivacyHook } from '#bff/privacy/onboarding-hook.ts';
import { decideUpdate, stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { definitionOf, expectedPayment, parseUpdate, type UpdatePayload } from '#machines/onboarding/update-contexts.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { queueAgencyMailsForUpdate } from '#bff/mail/agency-mail-triggers.ts';
import { settleExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';

export type { Transaction } from '#bff/db/database.ts';
import type { Transaction } from '#bff/db/database.ts';
import type { PaymentVerifier } from '#bff/payments/verify-payment.ts';

/** Who sends an event: a member for themself, staff for a member, or the server (webhooks). */
export interface Actor {
  id: string | null;
  role: 'member' | 'staff' | 'system';
}

export interface AppliedUpdate {
  row: MemberRow;
  state: string;
  eventId: number;
  /** The event queued a mail in its transaction: the dispatcher has something to send. */
  mailQueued: boolean;
  /** The member's `matchmaking_paused_at` as the transaction left it (the member cache keeps it with `row`). */
  matchmakingPausedAt: Date | null;
  /** The id of the transaction that stored the event (the member's change notification carries it, migration 0028). */
  transaction: string;
}

/**
 * The attempt is rolled back and taken again on the member read afresh: another event (or writer)
 * changed the member since the row was read, or the row the caller held refused the event (only a
 * row read inside the transaction may refuse it).
 */
const DECIDE_AGAIN = new Error('member to be read again');

/** The unique (member_id, version) of the event log refused this attempt's event: another event took the version. */
function isEventVersionTaken(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === 'onboarding_events_member_id_version_key';
  }
  return false;
}

const msOf = (date: Date | null): number | null => (date === null ? null : date.getTime());

const MAX_ATTEMPTS = 8;

/** Answers (in the product's error shape) are built by the callers from these errors. */
function refused(state: string, context: string, message = 'Cette étape n’est pas disponible pour le moment.'): ApiError {
  return new ApiError(409, 'TRANSITION_REFUSED', message, { state, context });
}

/**
 * The chart's answer to an event on a record, without writing anything: null when it would be
 * allowed, else the 409 the event would get. Routes that must do costly work first (decoding an
 * uploaded file, decision 189) ask it before; the event itself is decided again in its transaction.
 */
export function refusalBeforehand(record: OnboardingRecord, input: unknown, nowMs: number): ApiError | null {
  const parsed = parseUpdate(input, nowMs);
  if (!parsed.success) throw validationError(parsed.issues);
  const decision = decideUpdate(record, parsed.update, nowMs);
  if (decision.allowed) return null;
  return refused(stateKey(decision.state), parsed.update.context, refusalMessage(record, parsed.update, nowMs));
}

/** The refusals a person may run into with a reason worth saying (decision 105). */
function refusalMessage(record: OnboardingRecord, update: UpdatePayload, nowMs: number): string | undefined {
  if (update.context === 'onb_meet_ok' && record.onboardingMeetingDate !== null && Date.parse(record.onboardingMeetingDate) > nowMs)
    return update.status
      ? 'L’entretien n’a pas encore commencé : il ne peut être noté comme effectué qu’à partir de son heure de début.'
      : 'L’entretien n’a pas encore eu lieu : il ne peut être noté comme manqué qu’une fois son heure de début passée. Pour le déplacer, annulez le rendez-vous.';
  // The deadlines said with their day (civil days, decision 165).
  const deadlines = contractDeadlines(record.subscriptionDate);
  if (
    (update.context === 'app' || update.context === 'sub' || update.context === 'coupon') &&
    !subscriptionPaymentOpen(record.subscriptionDate, nowMs)
  )
    return deadlines === null
      ? 'Aucun paiement ne peut être demandé avant la signature du contrat et l’expiration d’un délai de 7 jours pleins (article L224‑91 du Code de la consommation).'
      : `Aucun paiement ne peut être demandé avant la fin du délai de renonciation de 7 jours pleins qui suit la signature (article L224‑91 du Code de la consommation) : le paiement s’ouvre ${dayAfterText(deadlines.renunciation)}.`;
  if (update.context === 'renounce' && !renunciationOpen(record.subscriptionDate, nowMs))
    return deadlines === null
      ? 'Le contrat n’est pas encore signé : il n’y a rien à annuler.'
      : `Le délai de renonciation de 7 jours a pris fin le ${civilDayText(deadlines.renunciation.lastDay)} à 24 heures (article L224‑91 du Code de la consommation).`;
  if (update.context === 'withdraw' && !withdrawalOpen(record.subscriptionDate, nowMs))
    return deadlines === null
      ? 'Le contrat n’est pas encore signé : il n’y a rien à résilier.'
      : `Le délai de rétractation de 14 jours a pris fin le ${civilDayText(deadlines.withdrawal.lastDay)} à 24 heures (article L221‑18 du Code de la consommation).`;
  if (update.context === 'terminate')
    return 'La résiliation pour motif légitime se demande pendant l’adhésion, une fois membre actif, et une seule demande à la fois.';
  if (update.context === 'terminate_letter')
    return 'Une demande reçue par courrier s’enregistre pour un membre actif sans demande en attente, à une date de réception postérieure au jour de la signature et au plus tard aujourd’hui.';
  if (update.context === 'terminate_ok' || update.context === 'terminate_no')
    return 'Aucune demande de résiliation n’est en attente de décision pour ce membre.';
  return undefined;
}

const MEMBER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The member a payload targets: staff name it (`uid`); a member may only name themself. */
function targetOf(update: UpdatePayload, actor: Actor, callerMemberId: string | null): string {
  const uid = 'uid' in update && typeof update.uid === 'string' ? update.uid : undefined;
  if (actor.role === 'member') {
    if (uid !== undefined && uid !== callerMemberId)
      throw new ApiError(403, 'FORBIDDEN', 'Vous ne pouvez modifier que votre propre dossier.');
    return callerMemberId as string;
  }
  const target = uid ?? callerMemberId;
  if (!target)
    throw new ApiError(400, 'VALIDATION_FAILED', 'Membre non précisé', { issues: [{ path: 'uid', message: 'Identifiant requis' }] });
  // Member ids are UUIDs: anything else names nobody (and must not reach a uuid column: 500).
  if (!MEMBER_UUID.test(target)) throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
  return target;
}

/** Answers the data columns a context also stores beside the record (profile, questionnaire, contract). */
function dataColumns(update: UpdatePayload): Partial<Pick<MemberRow, 'profile' | 'questionnaire' | 'contract'>> {
  const { context, ...data } = update as { context: string } & Record<string, unknown>;
  if (context === 'profil') return { profile: data };
  if (context === 'questionnaire') return { questionnaire: data };
  if (context === 'contractForm') return { contract: data };
  return {};
}

/**
 * The server's authority over onboarding: validates the payload, checks who may send it,
 * restores the member's chart from the stored record, asks it whether the event is allowed now,
 * verifies payments, and stores the new record with an append-only event row in one transaction.
 * Concurrent events are serialised by an optimistic version check: on a conflict the whole
 * decision is taken again on the fresh record (it may then be refused), so no update is lost.
 */
export async function applyOnboardingUpdate(
  db: Db,
  input: unknown,
  options: {
    actor: Actor;
    callerMemberId: string | null;
    now: Date;
    verifyPayment: PaymentVerifier;
    agency?: AgencyIdentity;
    /** Where the agency's mails link to and whom they name (decision 111); without it no mail is queued. */
    mail?: AgencyMailSite | undefined;
    /**
     * More writes that belong to this event, in its transaction, after the privacy hook (the
     * contract's evidence record, decision 109): if they fail, the event is not stored either.
     */
    alsoInTransaction?: (tx: Transaction, row: MemberRow) => Promise<void>;
    /**
     * The member's row as the caller already holds it (the member cache): the first attempt
     * decides on it without reading the member, and the UPDATE's version check proves it current.
     */
    current?: Readonly<MemberRow> | undefined;
  },
): Promise<AppliedUpdate> {
  const nowMs = options.now.getTime();
  const parsed = parseUpdate(input, nowMs);
  if (!parsed.success) throw validationError(parsed.issues);
  const update = parsed.update;
  const definition = definitionOf(update.context);
  if (definition.staffOnly && options.actor.role === 'member') {
    throw new ApiError(403, 'FORBIDDEN', 'Cette action est réservée à l’équipe de l’agence.');
  }
  // The member's rights are exercised by the member alone (decision 118).
  if (definition.memberOnly && options.actor.role !== 'member') {
    throw new ApiError(403, 'FORBIDDEN', 'Seul le membre peut exercer ce droit, depuis son espace.');
  }
  const memberId = targetOf(update, options.actor, options.callerMemberId);

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    // The first attempt decides on the row the caller holds (the member cache), if it is this
    // member's: the UPDATE's version check below proves it current (every writer of a member row
    // moves its version), so it is not read again (decision 141). Any later attempt reads it.
    const held = attempt === 1 && options.current?.id === memberId ? options.current : undefined;
    const outcome = await db
      .transaction(async (tx) => {
        const row = held ? { ...held } : await memberById(tx, memberId);
        if (row?.role !== 'member') {
          if (held) throw DECIDE_AGAIN;
          throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
        }
        const record: OnboardingRecord = recordOf(row);
        let decision = decideUpdate(record, update, nowMs);
        if (!decision.allowed) {
          // A refusal is said only on the row as this transaction reads it: the held one may be behind.
          if (held) throw DECIDE_AGAIN;
          throw refused(stateKey(decision.state), update.context, refusalMessage(record, update, nowMs));
        }
        if (update.context === 'coupon') {
          // The code is found, checked and counted here, in this transaction (decision 195): a
          // refusal throws and rolls everything back; the chart then applies what it takes off.
          const discountCents = await redeemCoupon(tx, { code: update.code, memberId, now: options.now });
          decision = decideUpdate(record, { ...update, discountCents }, nowMs);
          if (!decision.allowed) throw refused(stateKey(decision.state), update.context);
        }
        if ((update.context === 'app' || update.context === 'sub') && definition.payment) {
          const expected = expectedPayment(record, update.context);
          if (!expected) throw refused(stateKey(decision.state), update.context);
          const reason = await options.verifyPayment(tx, {
            memberId,
            email: row.email,
            csid: update.csid,
            offerId: expected.offerId,
            amountCents: expected.amountCents,
            now: options.now,
          });
          if (reason) throw new ApiError(402, 'PAYMENT_NOT_CONFIRMED', reason);
        }
        // The hijab is asked of a woman, the beard of a man (decision 208): the other one is refused.
        if (update.context === 'profil') {
          const issues = genderedAnswerIssues(row.gender, update);
          if (issues.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'Certaines informations sont à corriger.', { issues });
        }
        const fromState = stateKey(stateFromRecord(record, nowMs));
        const toState = stateKey(decision.state);
        const version = row.version + 1;
        // The new record and its event row in one statement (decision 129): the event is inserted by
        // a data-modifying CTE, the member updated under the optimistic version check. When someone
        // else wrote first the UPDATE matches nothing, or the event's (member, version) is taken:
        // the attempt is rolled back, event included, and the decision taken again on the fresh record.
        // The plan setting and the stored match profile come back with it (read in the statement's
        // snapshot, before this UPDATE's triggers).
        // The stage follows the record in the same statement (decision 204): the back office's lists read it.
        const columns = {
          onboarding: decision.record,
          version,
          updatedAt: options.now,
          ...dataColumns(update),
          ...stageColumns(decision.record, version),
        };
        const updated = await updateMemberWithEvent(tx, {
          memberId,
          readVersion: row.version,
          event: {
            memberId,
            context: update.context,
            event: definition.event,
            payload: redact(update),
            fromState,
            toState,
            actorId: options.actor.id,
            actorRole: options.actor.role,
            version,
            createdAt: options.now,
          },
          columns,
        }).catch((error: unknown) => {
          throw isEventVersionTaken(error) ? DECIDE_AGAIN : error;
        });
        if (!updated) throw DECIDE_AGAIN;
        const { pausedAt, erasedAt, eventId, transaction } = updated;
        // A plan no longer offered: the attempt is rolled back, event included.
        if (update.context === 'sel_plan' && !isPlanActive(update.id, payInFullOfJson(updated.payInFull))) {
          throw new ApiError(409, 'PLAN_NOT_OFFERED', 'Cette formule n’est pas proposée actuellement.', {
            state: toState,
            context: update.context,
          });
        }
        // The row as stored: the one read, with what this UPDATE set. Every writer of a member row
        // bumps its version, so the version check above means nobody changed it in between, and
        // no trigger rewrites a member row before it is stored (migrations: AFTER triggers only, but
        // 0045's, which clears a stage not written with the record: this one is).
        // Its privacy columns come back from the UPDATE: they are written without the version.
        // `apply-update-row.test.ts` compares this row with a fresh read after each kind of event.
        const next: MemberRow = { ...row, ...columns };
        // Consents given at this step and the signed contract copy (decision 070), same transaction.
        const privacy = await onboardingPrivacyHook(tx, { update, row: next, now: options.now, agency: options.agency });
        // A right exercised: the refund owed and the confirmation mail (decision 118), same transaction.
        await contractRightsHook(tx, {
          update,
          previous: record,
          row: next,
          now: options.now,
          site: options.mail,
          agency: options.agency,
          actorId: options.actor.id,
        });
        // A missed onboarding meeting frees its slot in the agenda (issue 63), same transaction.
        if (update.context === 'onb_meet_ok' && !update.status && record.onboardingMeetingDate !== null)
          await freeMissedMeetingSlot(tx, { memberId, meetingAt: record.onboardingMeetingDate, now: options.now });
        // The agency's mails this event causes (decision 111), queued once, same transaction.
        if (options.mail)
          await queueAgencyMailsForUpdate(tx, {
            site: options.mail,
            update,
            previous: record,
            row: next,
            fromState,
            toState,
            now: options.now,
          });
        // The member's match profile follows steps 1-2, the state and the consent (decision 113),
        // derived from the row the UPDATE returned and written only when it differs from the stored
        // one (decision 129). Migration 0014's trigger rewrites the stored profile of a disabled or
        // paused member during that UPDATE: what was read before it is then not to be trusted.
        const profile = deriveMatchProfile(
          { ...next, pausedMs: privacy.matchmakingResumed ? null : msOf(pausedAt), erasedMs: msOf(erasedAt) },
          nowMs,
        );
        const stored = next.disabled || pausedAt !== null ? undefined : matchProfileFromJson(updated.storedProfile);
        if (stored === undefined || !sameMatchProfile(profile, stored)) await storeMatchProfile(tx, memberId, profile);
        if (options.alsoInTransaction) await options.alsoInTransaction(tx, next);
        // The lines the member's schedule still expects, after every write of this event (decision 213).
        await settleExpectedInstalments(tx, memberId, [record, decision.record]);
        return {
          row: next,
          state: toState,
          eventId,
          mailQueued: mailQueuedThrough(tx),
          matchmakingPausedAt: privacy.matchmakingResumed ? null : pausedAt,
          transaction,
        };
      })
      .catch((error: unknown) => {
        if (error === DECIDE_AGAIN) return null; // rolled back: decide again on the member read afresh
        throw error;
      });
    if (outcome) return outcome;
  }
  throw new ApiError(503, 'BUSY', 'Trop de modifications simultanées, réessayez.');
}

/** The event log keeps what happened, not the sensitive answers themselves (they live on the member). */
function redact(update: UpdatePayload): Record<string, unknown> {
  const { context } = update;
  if (context === 'profil' || context === 'questionnaire') return { context, fields: Object.keys(update).filter((k) => k !== 'context') };
  // The explanation of a termination may reveal health data: it is kept in contract_terminations only (decision 119).
  if (context === 'terminate') return { context, reason: update.reason };
  if (context === 'terminate_letter') return { context, uid: update.uid, receivedOn: update.receivedOn, reason: update.reason };
  return update as unknown as Record<string, unknown>;
}

/** Number of events logged for a member (tests and the dashboard). */
export async function eventCount(db: Db, memberId: string): Promise<number> {
  return (await countEvents(db, memberId)) ?? 0;
}
