import { type CriterionId, criteria, criterionIds, type Verdict, verdictLabels } from '#machines/matching/criteria.ts';
import {
  declineReasonLabels,
  feedbackOutcomeLabels,
  type Side,
  type SideNames,
  stateLabel,
  stateLabels,
} from '#machines/introductions/labels.ts';
import { frenchDateFormat, frenchTimeFormat } from '#machines/french/dates.ts';
import { count } from '#machines/french/plural.ts';

/**
 * What the introduction screens show of stored codes, dates and states (pure, unit-tested): never
 * a bare code, dates in fr-FR in the agency's time zone.
 */

const TIME_ZONE = 'Europe/Paris';
const DAY_MS = 24 * 60 * 60 * 1000;
const longDate = frenchDateFormat({ dateStyle: 'long', timeZone: TIME_ZONE });
const longTime = frenchTimeFormat(TIME_ZONE);

/** '2026-12-02T13:00:00Z' → '2 décembre 2026 à 14 h 00' (Paris time); '—' for no date. */
export function formatLongDateTime(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return '—';
  return `${longDate.format(date)} à ${longTime.format(date)}`;
}

/** The answer deadline as a member reads it: the date, and how much time is left. */
export function deadlineText(deadlineAt: string, now: number): string {
  const ms = Date.parse(deadlineAt);
  if (!Number.isFinite(ms)) return 'Délai de réponse inconnu';
  const left = ms - now;
  if (left <= 0) return `Le délai de réponse est passé (${formatLongDateTime(deadlineAt)})`;
  const days = Math.floor(left / DAY_MS);
  const rest = days === 0 ? 'dernier jour' : days === 1 ? 'encore 1 jour' : `encore ${days} jours`;
  return `À répondre avant le ${formatLongDateTime(deadlineAt)} (${rest})`;
}

/** Whether the deadline is within two days (or past): staff see it flagged. */
export function deadlineSoon(deadlineAt: string, now: number): boolean {
  const ms = Date.parse(deadlineAt);
  return Number.isFinite(ms) && ms - now <= 2 * DAY_MS;
}

export function criterionLabel(code: string): string {
  return Object.hasOwn(criteria, code) ? criteria[code as CriterionId].label : 'Critère';
}

const answerLabels = { pending: 'Pas encore de réponse', accepted: 'Acceptée', declined: 'Déclinée' } as const;
export function answerLabel(status: string): string {
  return Object.hasOwn(answerLabels, status) ? answerLabels[status as keyof typeof answerLabels] : 'Réponse inconnue';
}

export const declineReasonOptions = Object.entries(declineReasonLabels).map(([value, label]) => ({ value, label }));
export const feedbackOutcomeOptions = Object.entries(feedbackOutcomeLabels).map(([value, label]) => ({ value, label }));

/** What a member's card offers now, from the state the member sees and their own answer. */
export type ProposalStage = 'answer' | 'waiting' | 'declined' | 'expired' | 'accepted' | 'meeting' | 'feedback' | 'ended';

export function proposalStage(
  p: { state: string; myAnswer: { status: string }; deadlineAt: string; ended?: object | null },
  now: number,
): ProposalStage {
  const top = p.state.split('.')[0];
  // Ended by a contract, an account or a consent (decision 194) before its state says so: nothing more to do on it.
  if (p.ended && top !== 'fiancailles') return 'ended';
  switch (top) {
    case 'proposee':
      if (p.myAnswer.status === 'declined') return 'declined';
      if (p.myAnswer.status === 'accepted') return 'waiting';
      return Date.parse(p.deadlineAt) <= now ? 'expired' : 'answer';
    case 'declinee':
      return 'declined';
    case 'expiree':
      return 'expired';
    case 'acceptee':
      return 'accepted';
    case 'rencontre-planifiee':
      return 'meeting';
    case 'retours':
    case 'poursuivie':
      return 'feedback';
    default:
      return 'ended';
  }
}

/** Proposals awaiting the member's answer first (nearest deadline first), then the rest, newest first. */
export function sortProposals<T extends { state: string; myAnswer: { status: string }; deadlineAt: string; proposedAt: string }>(
  list: readonly T[],
  now: number,
): T[] {
  const waiting = (p: T) => proposalStage(p, now) === 'answer';
  return [...list].sort((x, y) => {
    const wx = waiting(x);
    const wy = waiting(y);
    if (wx !== wy) return wx ? -1 : 1;
    if (wx) return Date.parse(x.deadlineAt) - Date.parse(y.deadlineAt);
    return Date.parse(y.proposedAt) - Date.parse(x.proposedAt);
  });
}

/** Short anonymised title of a proposal: 'Youssef, 34 ans'. */
export function summaryTitle(other: { firstName: string | null; age: number | null } | null): string {
  if (!other) return 'Profil indisponible';
  const name = other.firstName ?? 'Un membre';
  return other.age === null ? name : `${name}, ${other.age} ans`;
}

// Staff

/** The filters of the staff list: open ones, all, or one state (top-level states only). */
export const stateFilterOptions: { value: string; label: string }[] = [
  { value: 'ouvertes', label: 'En cours' },
  { value: 'toutes', label: 'Toutes' },
  ...Object.keys(stateLabels)
    .filter((key) => !key.includes('.'))
    .map((key) => ({ value: key, label: stateLabel(key) })),
];

export type StaffEventType = 'PLAN_MEETING' | 'RECORD_MEETING_HELD' | 'CANCEL_MEETING' | 'CLOSE' | 'REOPEN';

/** The staff events the chart accepts in a state (the BFF still decides; a 409 says why not). */
export function staffActionsFor(state: string): StaffEventType[] {
  switch (state.split('.')[0]) {
    case 'acceptee':
      return ['PLAN_MEETING', 'CLOSE'];
    case 'rencontre-planifiee':
      return ['PLAN_MEETING', 'RECORD_MEETING_HELD', 'CANCEL_MEETING', 'CLOSE'];
    case 'proposee':
    case 'retours':
    case 'poursuivie':
    case 'fiancailles':
      return ['CLOSE'];
    case 'declinee':
    case 'expiree':
    case 'close':
      return ['REOPEN'];
    default:
      return [];
  }
}

/** A side's name for staff: the first name, else 'Membre A' / 'Membre B'. */
export function sideNames(members: Record<Side, { firstName: string | null }>): SideNames {
  return { a: members.a.firstName ?? 'Membre A', b: members.b.firstName ?? 'Membre B' };
}

/** A `datetime-local` value (Paris wall time, as the browser gives it) → ISO instant, or null. */
export function localInputToIso(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** 'Score 7 / 9'. */
export function scoreText(score: number, maxScore: number): string {
  return `Score ${score} / ${maxScore}`;
}

/** 'de Youssef', 'd’Amina': the French elision before a vowel. */
export function ofName(name: string): string {
  return /^[aeiouâàéèêëîïôöûüœ]/i.test(name) ? `d’${name}` : `de ${name}`;
}

/** One side of a criterion, as staff read it in the candidate's table (decision 193). */
export interface VerdictCell {
  /** ✓ matches, ✗ does not, ? to check, – nothing asked. */
  mark: '✓' | '✗' | '?' | '–';
  tone: 'met' | 'unmet' | 'check' | 'neutral';
  /** « correspond », « ne correspond pas », « à vérifier », « peu importe ». */
  verdict: string;
  reason: string;
  required: boolean;
}

const verdictMarks: Record<Verdict, Pick<VerdictCell, 'mark' | 'tone'>> = {
  oui: { mark: '✓', tone: 'met' },
  non: { mark: '✗', tone: 'unmet' },
  'a-verifier': { mark: '?', tone: 'check' },
  indifferent: { mark: '–', tone: 'neutral' },
};

function isVerdict(value: unknown): value is Verdict {
  return typeof value === 'string' && Object.hasOwn(verdictLabels, value);
}

export interface CriterionRow {
  criterion: string;
  label: string;
  /** The member's criterion judged on the candidate, and the candidate's judged on the member. */
  membre: VerdictCell | null;
  candidat: VerdictCell | null;
}

/**
 * A candidate's criteria for staff: one row per criterion, each side's verdict beside the other's,
 * in the order of the questionnaire; a criterion neither side asked anything of is left out.
 */
export function criterionRows(
  reasons: readonly { criterion: string; side?: string; verdict?: string; required?: boolean; reason: string }[],
): CriterionRow[] {
  const cell = (criterion: string, side: string): VerdictCell | null => {
    const found = reasons.find((r) => r.criterion === criterion && r.side === side);
    if (!found || !isVerdict(found.verdict)) return null;
    return {
      ...verdictMarks[found.verdict],
      verdict: verdictLabels[found.verdict],
      reason: found.reason,
      required: found.required === true,
    };
  };
  return criterionIds
    .map((criterion) => ({
      criterion,
      label: criterionLabel(criterion),
      membre: cell(criterion, 'membre'),
      candidat: cell(criterion, 'candidat'),
    }))
    .filter((row) => (row.membre ?? row.candidat) !== null)
    .filter((row) => !(row.membre?.tone === 'neutral' && row.candidat?.tone === 'neutral'));
}

/** One line over a candidate's table: how the wished criteria went, both sides together. */
export function wishesText(reasons: readonly { verdict?: string; required?: boolean }[]): string {
  const wished = reasons.filter((r) => !r.required && r.verdict !== 'indifferent');
  const met = wished.filter((r) => r.verdict === 'oui').length;
  const unmet = wished.filter((r) => r.verdict === 'non').length;
  const check = wished.filter((r) => r.verdict === 'a-verifier').length;
  const parts = [count(met, 'souhait rempli', 'souhaits remplis')];
  if (unmet > 0) parts.push(count(unmet, 'non rempli', 'non remplis'));
  if (check > 0) parts.push(`${check} à vérifier`);
  return `Souhaits des deux côtés : ${parts.join(', ')}`;
}
