import { criteria } from '#machines/matching/criteria.ts';
import {
  declineReasonLabels,
  feedbackOutcomeLabels,
  type Side,
  type SideNames,
  stateLabel,
  stateLabels,
} from '#machines/introductions/labels.ts';
import { frenchDateFormat, frenchTimeFormat } from '#machines/french/dates.ts';

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
  return Object.hasOwn(criteria, code) ? criteria[code as keyof typeof criteria].label : 'Critère';
}

/** 'Correspond' / 'Ne correspond pas', said with the criterion: « Âge : correspond ». */
export function criterionVerdict(met: boolean): string {
  return met ? 'Correspond' : 'Ne correspond pas';
}

export const answerLabels = { pending: 'Pas encore de réponse', accepted: 'Acceptée', declined: 'Déclinée' } as const;
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

export type StaffEventType = 'PLAN_MEETING' | 'RECORD_MEETING_HELD' | 'CLOSE' | 'REOPEN';

/** The staff events the chart accepts in a state (the BFF still decides; a 409 says why not). */
export function staffActionsFor(state: string): StaffEventType[] {
  switch (state.split('.')[0]) {
    case 'acceptee':
      return ['PLAN_MEETING', 'CLOSE'];
    case 'rencontre-planifiee':
      return ['PLAN_MEETING', 'RECORD_MEETING_HELD', 'CLOSE'];
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

/**
 * A candidate's reasons for staff, grouped by whose annex they check (a criterion appears once per
 * side): both at once, the member's criteria, the candidate's. Empty groups are left out.
 */
export function reasonGroups<T extends { side?: string }>(
  reasons: readonly T[],
  memberName: string,
  candidateName: string,
): { title: string; reasons: T[] }[] {
  const groups = [
    { side: 'mutuel', title: 'Des deux côtés' },
    { side: 'membre', title: `Critères ${ofName(memberName)}` },
    { side: 'candidat', title: `Critères ${ofName(candidateName)}` },
  ];
  const known = new Set(groups.map((g) => g.side));
  const out = groups.map((g) => ({ title: g.title, reasons: reasons.filter((r) => r.side === g.side) }));
  const other = reasons.filter((r) => !r.side || !known.has(r.side));
  if (other.length > 0) out.push({ title: 'Autres critères', reasons: other });
  return out.filter((g) => g.reasons.length > 0);
}
