import { type IntroductionContext, otherSide, sides } from '#machines/introductions/context.ts';
import type { ContactVia } from '#machines/introductions/guardian-labels.ts';
import { type EndCause, endReasonForMember, type Side } from '#machines/introductions/labels.ts';
import { type ContractEnd, contractEnd } from '#machines/onboarding/contract-end.ts';
import { instantMs, toIsoInstant } from '#machines/onboarding/instant.ts';

/**
 * May member A see B's photos and contact details in introduction I now (issue 62 point 3,
 * decision 194)? One pure answer, from the introduction's state and context and from where each
 * member stands at the agency's `now` (their contract, their account, their consent). The photo
 * route and every view that returns contact details ask it; nothing else decides.
 *
 * Shared only while all of this holds: the introduction is accepted by both and not over
 * (`acceptee`, `rencontre-planifiee`, `retours`, `poursuivie`, or an engagement the agency has not
 * ended); the owner consented to show that item and it was released to the viewer (the chart's
 * times); and, for both members, the account is neither erased nor disabled, the consent that covers
 * photos and summary is not withdrawn, and the contract the introduction was made under is the
 * current one and has not ended by `now` (renounced, withdrawn, terminated, or at its term).
 *
 * The standing is checked here, at every read, as well as ended in the chart (event END, in the
 * transaction of the cause, or by the job for the term, which no request marks): the read is right
 * at the very instant a term passes, and a later change (a consent given back, a renewal, a ban
 * lifted) never brings an ended introduction's sharing back, because the END is recorded.
 */

/** A member's contract, account and consent at `now`, as the predicate reads them. */
export interface Standing {
  erasedAt: number | null;
  disabled: boolean;
  /** The sensitive-data consent (which covers photos and summary) withdrawn: matchmaking paused since then. */
  consentWithdrawnAt: number | null;
  /** The contract the member's record holds: its signature (ms) and how it ended by `now`; null when none is signed. */
  contract: { signedAt: number; end: ContractEnd | null } | null;
}

/** What `standingOf` reads of a member: their flags and the contract fields of their record. */
export interface StandingFields {
  erasedAt: number | null;
  disabled: boolean;
  matchmakingPausedAt: number | null;
  record: Parameters<typeof contractEnd>[0] | null;
}

export function standingOf(fields: StandingFields, now: number): Standing {
  const signed = fields.record?.subscriptionDate ? instantMs(fields.record.subscriptionDate) : Number.NaN;
  return {
    erasedAt: fields.erasedAt,
    disabled: fields.disabled,
    consentWithdrawnAt: fields.matchmakingPausedAt,
    contract: fields.record && Number.isFinite(signed) ? { signedAt: signed, end: contractEnd(fields.record, now) } : null,
  };
}

/** A member in good standing (tests, and the default of a side nobody could read). */
export const goodStanding = (signedAt: number): Standing => ({
  erasedAt: null,
  disabled: false,
  consentWithdrawnAt: null,
  contract: { signedAt, end: null },
});

/** Why one member's standing ends an introduction proposed at `proposedAt` (ms), or null. Most lasting first. */
function causeOf(standing: Standing, proposedAt: number): { cause: EndCause; at: number | null } | null {
  if (standing.erasedAt !== null) return { cause: 'compte-efface', at: standing.erasedAt };
  if (standing.disabled) return { cause: 'compte-desactive', at: null };
  if (standing.consentWithdrawnAt !== null) return { cause: 'consentement-retire', at: standing.consentWithdrawnAt };
  const contract = standing.contract;
  // No contract, or a later one (renewed after the one this round was proposed under ended).
  if (contract === null || contract.signedAt > proposedAt) return { cause: 'fin-de-contrat', at: null };
  if (contract.end) return { cause: contract.end.reason, at: contract.end.at };
  return null;
}

/** The first member (side a, then b) whose standing ends the introduction, with why; null when both stand. */
export function standingEndOf(
  standing: Record<Side, Standing>,
  proposedAt: string,
): { cause: EndCause; party: Side; at: number | null } | null {
  const proposed = instantMs(proposedAt);
  for (const side of sides) {
    const found = causeOf(standing[side], proposed);
    if (found) return { ...found, party: side };
  }
  return null;
}

/** How an introduction ended, whatever ended it (null while it runs). `at` is an ISO instant when known. */
export type SharingEnd =
  | { kind: 'declinee' | 'expiree'; at: string | null }
  /** Closed by staff (`equipe`) or by a member's « arrêter » after the meeting (their side). */
  | { kind: 'arret'; by: 'equipe' | Side; at: string | null }
  /** A contract, an account or a consent ended it: recorded by the chart (END), or not yet (`recorded: false`). */
  | { kind: 'fin'; cause: EndCause; party: Side; at: string | null; recorded: boolean };

export interface Sharing {
  photos: boolean;
  /**
   * What of the owner's contact is released to the viewer (decision 196): `moi` their own e-mail
   * and phone, `wali` their walī's name and phone only (never the owner's own); null: nothing.
   */
  contact: ContactVia | null;
  end: SharingEnd | null;
}

export interface SharingInput {
  /** The stored state key (`proposee.acceptee-par-un`, `acceptee`, …). */
  state: string;
  context: IntroductionContext;
  /** Who reads: the other side's photos and contact are the question. */
  viewer: Side;
  standing: Record<Side, Standing>;
  /** Each side's choice for this introduction (`contactViaFor`): own contact, or through the walī only. Own when absent. */
  contactVia?: Record<Side, ContactVia>;
}

/** States in which both accepted and the introduction is not over: the only ones that share anything. */
const SHARING_STATES: ReadonlySet<string> = new Set(['acceptee', 'rencontre-planifiee', 'retours', 'poursuivie', 'fiancailles']);

const topOf = (state: string) => state.split('.')[0] ?? state;

export function endOf(input: Omit<SharingInput, 'viewer'>): SharingEnd | null {
  const c = input.context;
  const top = topOf(input.state);
  if (top === 'declinee') return { kind: 'declinee', at: sides.map((s) => c.answers[s]).find((a) => a.status === 'declined')?.at ?? null };
  if (top === 'expiree') return { kind: 'expiree', at: c.expiredAt };
  if (c.ended !== null) return { kind: 'fin', cause: c.ended.cause, party: c.ended.party, at: c.ended.at, recorded: true };
  if (top === 'close') {
    const stopper = sides.find((s) => c.feedback[s]?.outcome === 'arreter');
    return { kind: 'arret', by: c.closeNote === null && stopper ? stopper : 'equipe', at: c.closedAt };
  }
  // Under way or engaged, not ended by the chart yet: a member's standing may have ended it (a term
  // passed since the job's last run). Nothing is shared from that instant.
  const found = standingEndOf(input.standing, c.proposedAt);
  return found
    ? { kind: 'fin', cause: found.cause, party: found.party, at: found.at === null ? null : toIsoInstant(found.at), recorded: false }
    : null;
}

/** The predicate: what of the other side `viewer` may see now. */
export function sharingOf(input: SharingInput): Sharing {
  const end = endOf(input);
  if (end !== null || !SHARING_STATES.has(topOf(input.state))) return { photos: false, contact: null, end };
  const c = input.context;
  const owner = otherSide(input.viewer);
  const mutual = c.answers.a.status === 'accepted' && c.answers.b.status === 'accepted';
  return {
    photos: mutual && c.consents[owner].photos !== null && c.disclosures[owner].photos !== null,
    contact:
      mutual && c.consents[owner].contact !== null && c.disclosures[owner].contact !== null ? (input.contactVia?.[owner] ?? 'moi') : null,
    end: null,
  };
}

/**
 * Why it ended, as the member `viewer` reads it: their own doing or their own contract's end in
 * words; the other person's (their stop, contract, account or consent) is not told. Null when
 * nothing is said beyond « elle a pris fin ».
 */
export function endReasonFor(end: SharingEnd, viewer: Side): string | null {
  switch (end.kind) {
    case 'fin':
      return endReasonForMember(end.cause, end.party, viewer);
    case 'arret':
      return end.by === 'equipe' ? 'l’agence l’a close' : end.by === viewer ? 'vous avez choisi d’arrêter' : null;
    default:
      return null;
  }
}
