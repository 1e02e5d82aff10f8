import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { feedbackOutcomeLabels } from '#machines/introductions/labels.ts';
import type { MemberProgress, ProgressItem } from '#src/features/introductions/accompaniment-api.ts';
import { formatLongDateTime } from '#src/features/introductions/introductions-view.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { count } from '#machines/french/plural.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';

/**
 * What « Mon accompagnement », the feedback step of a proposal and the guardian's contact show
 * (issue 22, decision 117). Pure and unit-tested: French words only, dates in Paris time.
 */

const longDay = frenchDateFormat({ dateStyle: 'long', timeZone: 'Europe/Paris' });

/** '2027-10-04' → '4 octobre 2027' (a calendar day, read at noon UTC so no time zone moves it). */
export function formatDay(day: string | null): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return '—';
  const date = new Date(`${day}T12:00:00Z`);
  return Number.isNaN(date.getTime()) ? '—' : longDay.format(date);
}

/** The term in one sentence: its end date, or why there is none yet. */
export function termText(term: MemberProgress['term']): string {
  const plan = term.plan ? `${term.plan}${term.durationMonths ? `, ${term.durationMonths} mois` : ''}` : null;
  // An ended contract says when and how it ended, and what was refunded (decision 176).
  if (term.ended) {
    const refunded = term.ended.refundedCents > 0 ? ` Nous vous avons remboursé ${formatEuros(term.ended.refundedCents)}.` : '';
    return `Votre contrat${plan ? ` (${plan})` : ''} a pris fin le ${formatDay(term.ended.on)} (${term.ended.reason}).${refunded}`;
  }
  if (term.endsOn) {
    return `Votre accompagnement${plan ? ` (${plan})` : ''} prend fin le ${formatDay(term.endsOn)}, sans reconduction tacite.`;
  }
  if (plan) return `Votre accompagnement : ${plan}. ${term.note ?? 'Date de fin communiquée à la signature.'}`;
  return term.note ?? 'Votre formule n’est pas encore choisie.';
}

/** How a proposal fitted the member's own criteria: what matched, never a count of what did not (decision 193). */
export function fitText(item: Pick<ProgressItem, 'fit'>): string {
  return item.fit ?? 'Résumé du profil plus disponible';
}

/** The counts above the list, in words. */
export function countsText(counts: MemberProgress['counts']): string[] {
  return [
    count(counts.proposals, 'proposition reçue', 'propositions reçues'),
    count(counts.mutual, 'acceptation mutuelle', 'acceptations mutuelles'),
    count(counts.meetings, 'première rencontre', 'premières rencontres'),
  ];
}

export function proposalTitle(item: Pick<ProgressItem, 'firstName' | 'proposedAt'>): string {
  return `${item.firstName ?? 'Profil retiré'} — proposée le ${formatLongDateTime(item.proposedAt)}`;
}

type Outcome = keyof typeof feedbackOutcomeLabels;
const option = (value: Outcome) => ({ value, label: feedbackOutcomeLabels[value] });

export interface FeedbackStep {
  /** Whether the feedback form is offered. */
  form: boolean;
  /** The choices the chart accepts from this member now. */
  options: { value: string; label: string }[];
  /** What the member already said, in words, or null. */
  given: string | null;
}

/**
 * The feedback step of a proposal after the meeting, per the chart (machines/introductions):
 * in `retours` each side answers once (the form is gone once given); in `poursuivie` either may
 * stop or announce the engagement, and one who announced it alone may take it back.
 */
export function feedbackStep(p: {
  state: string;
  myFeedback?: { outcome: string; outcomeLabel: string; at: string; byPhone?: boolean } | null;
}): FeedbackStep {
  const mine = p.myFeedback ?? null;
  // Decision 205: a feedback staff heard by phone is said as such, and counts as given.
  const given = mine
    ? `Votre retour du ${formatLongDateTime(mine.at)}${mine.byPhone ? ', recueilli par téléphone par votre conseillère' : ''} : ${mine.outcomeLabel.toLowerCase()}.`
    : null;
  if (p.state === 'retours') {
    return mine
      ? { form: false, options: [], given: `${given} Votre conseillère vous recontactera après le retour de l’autre personne.` }
      : { form: true, options: [option('continuer'), option('arreter'), option('fiances')], given: null };
  }
  if (p.state === 'poursuivie') {
    if (mine?.outcome === 'fiances') {
      return {
        form: true,
        options: [option('continuer'), option('arreter')],
        given: `Vous avez annoncé vos fiançailles le ${formatLongDateTime(mine.at)} ; l’autre personne ne l’a pas encore confirmé.`,
      };
    }
    return { form: true, options: [option('arreter'), option('fiances')], given };
  }
  return { form: false, options: [], given };
}

/** The other's guardian, as lines of the contact block. */
export function guardianLines(g: { name: string; relation: string; email: string | null; phone: string | null }): string[] {
  return [`${g.name} (${g.relation.toLowerCase()})`, ...(g.email ? [g.email] : []), ...(g.phone ? [formatPhone(g.phone)] : [])];
}
