/**
 * « Mon accompagnement » (issue 22, decision 117): what a member reads of their own
 * introductions over the term — each one's outcome in French words, what in it matched their
 * criteria (never what did not: decision 193), and a few counts. Pure: the BFF feeds it the member's own
 * views (`memberView`), never anything the member could not already see.
 */

/** What the progress page needs of one of the member's introductions (a subset of `memberView`). */
export interface ProgressSource {
  id: string;
  state: string;
  proposedAt: string;
  myAnswer: { status: 'pending' | 'accepted' | 'declined' };
  other: { firstName: string | null } | null;
  /** What matched the member's criteria, in sentences (`memberView`). */
  reasons: readonly string[];
  /** Indispensable criteria the proposal departed from, with staff's reason (`memberView`), or null. */
  outsideCriteria: string | null;
  meeting: { at: string } | null;
  myFeedback: { outcome: string } | null;
}

export interface ProgressItem {
  id: string;
  proposedAt: string;
  /** The other's first name while the summary is shown; null once it is not (e.g. erased). */
  firstName: string | null;
  outcome: string;
  /**
   * How it fitted the member's criteria, in one sentence of what matched (never a count of what
   * did not); null when the summary is no longer shown.
   */
  fit: string | null;
  /** Still going on (an answer, a meeting or feedback to come). */
  open: boolean;
}

export interface ProgressCounts {
  proposals: number;
  /** Accepted on both sides (contact details exchanged). */
  mutual: number;
  /** First meetings that took place (or are past their date). */
  meetings: number;
}

const MUTUAL_STATES = new Set(['acceptee', 'rencontre-planifiee', 'retours', 'poursuivie', 'fiancailles']);
const OPEN_STATES = new Set(['proposee', 'acceptee', 'rencontre-planifiee', 'retours', 'poursuivie']);

/** The outcome of one introduction, as the member reads it (never the other's reason). */
export function progressOutcome(p: Pick<ProgressSource, 'state' | 'myAnswer' | 'myFeedback'>): string {
  const top = p.state.split('.')[0];
  switch (top) {
    case 'proposee':
      if (p.myAnswer.status === 'accepted') return 'Vous avez accepté ; en attente de l’autre réponse';
      return 'En attente de votre réponse';
    case 'declinee':
      return p.myAnswer.status === 'declined' ? 'Vous avez décliné' : 'Sans suite';
    case 'expiree':
      return 'Expirée sans réponse';
    case 'acceptee':
      return 'Acceptée des deux côtés';
    case 'rencontre-planifiee':
      return 'Première rencontre planifiée';
    case 'retours':
      return p.myFeedback ? 'Rencontre faite : votre retour est enregistré' : 'Rencontre faite : votre retour est attendu';
    case 'poursuivie':
      return 'Vous continuez à vous connaître';
    case 'fiancailles':
      return 'Fiançailles : félicitations !';
    case 'close':
      return 'Terminée';
    default:
      return 'En cours';
  }
}

export function progressItem(p: ProgressSource): ProgressItem {
  return {
    id: p.id,
    proposedAt: p.proposedAt,
    firstName: p.other?.firstName ?? null,
    outcome: progressOutcome(p),
    fit: p.outsideCriteria
      ? 'Proposée hors d’un de vos critères indispensables, avec l’explication de votre conseillère'
      : (p.reasons[0] ?? null),
    open: OPEN_STATES.has(p.state.split('.')[0] ?? ''),
  };
}

export function progressCounts(list: readonly ProgressSource[], now: number): ProgressCounts {
  return {
    proposals: list.length,
    mutual: list.filter((p) => MUTUAL_STATES.has(p.state) || (p.state === 'close' && p.meeting !== null)).length,
    meetings: list.filter((p) => p.meeting !== null && Date.parse(p.meeting.at) <= now && p.state !== 'rencontre-planifiee').length,
  };
}
