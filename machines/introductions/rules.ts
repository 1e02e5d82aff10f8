import type { IntroductionStateKey } from '#machines/introductions/labels.ts';
import { DAY_MS, instantMs } from '#machines/onboarding/instant.ts';

/**
 * The limits of introductions (issue 22), each with its reason. Pure: the chart's guards and the
 * BFF's checks before a proposal read them, nothing else decides.
 */

/** A member answers a proposal within 7 days: long enough to think and consult one's guardian, short enough not to block the other. */
export const ANSWER_DEADLINE_DAYS = 7;

/** On day 5 of 7, whoever has not answered is reminded once: two days left to answer, not a stream of mails. */
export const REMINDER_DAY = 5;

/**
 * At most two open introductions per member: each deserves attention (and a guardian's), and a member
 * must never feel like one name on a list; two lets the agency propose again while a first one waits.
 */
export const MAX_OPEN_INTRODUCTIONS_PER_MEMBER = 2;

/**
 * One proposal per pair, ever: a member who declined someone is never presented to them again by
 * mistake. Only staff may re-open a pair's introduction (REOPEN), with a note saying why.
 */
export const MAX_PROPOSALS_PER_PAIR = 1;

function ms(instant: string | number): number {
  return typeof instant === 'number' ? instant : instantMs(instant);
}

/** The instant the answer deadline passes (ms): proposal + 7 days. At that instant the proposal may expire. */
export function deadlineOf(proposedAt: string | number): number {
  return ms(proposedAt) + ANSWER_DEADLINE_DAYS * DAY_MS;
}

/** The instant the reminder becomes due (ms): proposal + 5 days. */
export function reminderDueAt(proposedAt: string | number): number {
  return ms(proposedAt) + REMINDER_DAY * DAY_MS;
}

/** Top-level states in which an introduction is under way: they count towards the limit of open ones. */
export const openStates = ['proposee', 'acceptee', 'rencontre-planifiee', 'retours', 'poursuivie'] as const;

/** States in which staff may re-open the pair (REOPEN). */
export const reopenableStates = ['declinee', 'expiree', 'close'] as const;

function topOf(state: string | Record<string, unknown>): string {
  if (typeof state === 'string') return state.split('.')[0] ?? state;
  return Object.keys(state)[0] ?? '';
}

/** Whether an introduction in this state (key `proposee.acceptee-par-un`, or a state value) is open. */
export function isOpen(state: IntroductionStateKey | string | Record<string, unknown>): boolean {
  return (openStates as readonly string[]).includes(topOf(state));
}

/** Engaged: both members' searches are paused (no proposal to either) until staff close it. */
export function pausesSearch(state: IntroductionStateKey | string | Record<string, unknown>): boolean {
  return topOf(state) === 'fiancailles';
}

// ---------------------------------------------------------------------------
// Who may be proposed

/** Why a member may not be proposed, with what the member and staff read. */
export const ineligibilityTexts = {
  'consentement-retire':
    'Le consentement au traitement des données sensibles a été retiré : la recherche est en pause tant qu’il n’est pas redonné.',
  'compte-desactive': 'Le compte est désactivé.',
  'compte-efface': 'Le compte a été effacé.',
  'contrat-termine': 'Le contrat d’accompagnement est arrivé à son terme.',
  'pas-encore-actif': 'L’inscription n’est pas terminée : l’accompagnement n’a pas encore commencé.',
  fiancailles: 'Des fiançailles ont été annoncées : la recherche est en pause.',
} as const;
export type IneligibilityCode = keyof typeof ineligibilityTexts;

export interface MemberStanding {
  active: boolean;
  sensitiveDataConsent: boolean;
  disabled: boolean;
  erased: boolean;
  contractEnded: boolean;
  engaged: boolean;
}

/** `true`, or the first reason (most serious first) the member cannot be proposed. */
export function eligibilityOf(member: MemberStanding): true | IneligibilityCode {
  if (member.erased) return 'compte-efface';
  if (member.disabled) return 'compte-desactive';
  if (member.contractEnded) return 'contrat-termine';
  if (!member.active) return 'pas-encore-actif';
  if (!member.sensitiveDataConsent) return 'consentement-retire';
  if (member.engaged) return 'fiancailles';
  return true;
}

export interface ProposalCheck {
  /** Open introductions of each member now (see `isOpen`). */
  openCountA: number;
  openCountB: number;
  /** The pair has had a proposal before (in any state): only a staff REOPEN brings it back. */
  pairAlreadyProposed: boolean;
  aEligible: true | IneligibilityCode;
  bEligible: true | IneligibilityCode;
}

/** `null` when staff may propose the pair, else the French reason it is refused. */
export function canPropose(check: ProposalCheck): string | null {
  if (check.aEligible !== true) return `Le premier membre ne peut pas être proposé. ${ineligibilityTexts[check.aEligible]}`;
  if (check.bEligible !== true) return `Le second membre ne peut pas être proposé. ${ineligibilityTexts[check.bEligible]}`;
  if (check.pairAlreadyProposed) {
    return 'Ces deux membres ont déjà été proposés l’un à l’autre : seule une réouverture par l’équipe, avec une note, est possible.';
  }
  if (check.openCountA >= MAX_OPEN_INTRODUCTIONS_PER_MEMBER) {
    return `Le premier membre a déjà ${MAX_OPEN_INTRODUCTIONS_PER_MEMBER} mises en relation en cours, le maximum.`;
  }
  if (check.openCountB >= MAX_OPEN_INTRODUCTIONS_PER_MEMBER) {
    return `Le second membre a déjà ${MAX_OPEN_INTRODUCTIONS_PER_MEMBER} mises en relation en cours, le maximum.`;
  }
  return null;
}
