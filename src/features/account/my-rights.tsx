import { termEndsAtMs, terminationRefundDueByMs } from '#machines/onboarding/periods.ts';
import { untilText } from '#machines/onboarding/deadline-texts.ts';
import { contractDeadlines, renunciationOpen, withdrawalOpen } from '#machines/onboarding/legal-deadlines.ts';
import { isPlanId } from '#machines/onboarding/plans.ts';
import { Button } from '#src/components/ui/button.tsx';
import { PendingTermination, TerminationRequest } from '#src/features/account/termination-request.tsx';
import * as styles from '#src/features/privacy/privacy.css.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useSession } from '#src/lib/use-session.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { useQuery } from '@tanstack/react-query';
import { myProgressQuery } from '#src/features/introductions/introduction-queries.ts';

/**
 * « Mes droits » (decision 118): renounce within 7 days of signing (L224-91), withdraw within 14
 * days (L221-18), both in civil days with their last day shown (decision 165), terminate for a legitimate reason (R224-2, decision 119), the term's end
 * (L224-90) and a new contract after it. Each action asks for
 * confirmation in a dialog that states its consequence and deadline; the server decides.
 */

const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' });
const parisDate = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long' });
const dateTime = (ms: number | null) => (ms === null ? '—' : parisDateTime.format(new Date(ms)));
/** A request counts from its day (a letter from the day it was received): its date only. */
const day = (ms: number | null) => (ms === null ? '—' : parisDate.format(new Date(ms)));
/** The last day of a term ending at `end` (midnight, Paris). */
const lastDay = (end: number | null) => (end === null ? '—' : parisDate.format(new Date(end - 1)));

function recordField(onboarding: unknown, key: string): string | null {
  if (!onboarding || typeof onboarding !== 'object') return null;
  const value = (onboarding as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

function ConfirmRight(props: {
  trigger: string;
  title: string;
  consequence: string;
  deadline: string;
  confirmLabel: string;
  body: { context: string } & Record<string, unknown>;
}) {
  const { update } = useOnboardingUpdate();
  return (
    <div className={styles.actions}>
      <ActionDialog
        trigger={<Button variant="secondary">{props.trigger}</Button>}
        title={props.title}
        description={props.consequence}
        submitLabel={props.confirmLabel}
        busyLabel="Envoi en cours…"
        onSubmit={async () => {
          const outcome = await update(props.body);
          return outcome.ok ? null : outcome.error.message;
        }}
      >
        <p className={styles.text}>{props.deadline}</p>
      </ActionDialog>
    </div>
  );
}

/**
 * Which rights the page offers: the states where the chart accepts them, and only while their
 * civil-day period runs (decision 165), so that no button is offered that the server would refuse
 * (a member who has not paid stays on `frais-de-dossier` after the 14 days; an early starter stays
 * in `attente` until the matchmaking meeting).
 */
export function offeredRights(state: string, subscriptionDate: string | null, now: number): { canRenounce: boolean; canWithdraw: boolean } {
  const top = state.split('.', 1)[0] ?? '';
  return {
    canRenounce: state === 'attente-contrat.delai-renonciation' && renunciationOpen(subscriptionDate, now),
    canWithdraw: (top === 'frais-de-dossier' || top === 'attente' || top === 'membre-actif') && withdrawalOpen(subscriptionDate, now),
  };
}

/** The contract's end as the server reads it from the ledger (`GET /user/progress`, decision 176). */
export interface EndedContract {
  on: string;
  reason: string;
  refundedCents: number;
}

/**
 * What an ended contract gave back, from its ledger (issue 59 point 3): the amount refunded (the
 * refunds of this contract that did not fail), or why nothing was. `top` is the member's end state.
 */
export function endedRefundText(top: string, ended: EndedContract): string {
  if (ended.refundedCents > 0) {
    return `Remboursé sur votre moyen de paiement\u00a0: ${formatEuros(ended.refundedCents)}\u00a0; le détail vous a été envoyé par e\u2011mail.`;
  }
  if (top === 'renonce') return 'Aucune somme ne vous a été ni ne vous sera demandée\u00a0: rien n’est à rembourser.';
  if (top === 'retracte') return 'Vous n’aviez rien payé\u00a0: rien n’est à rembourser.';
  if (top === 'resilie') return 'Aucun remboursement n’est dû\u00a0: ce que vous avez payé couvre la période écoulée.';
  return 'Aucun remboursement n’est dû\u00a0: le contrat a été mené à son terme.';
}

/** The end of the member's contract from the server, once the page shows an end state. */
function useEndedContract(ended: boolean): EndedContract | null {
  const query = useQuery({ ...myProgressQuery, enabled: ended });
  return ended ? (query.data?.term.ended ?? null) : null;
}

export function MyRights() {
  const { user } = useSession();
  const state = user?.state ?? null;
  const top = state?.split('.', 1)[0] ?? '';
  const ended = top === 'renonce' || top === 'retracte' || top === 'contrat-termine' || top === 'resilie';
  const endedContract = useEndedContract(ended);
  if (!user || !state) return null;
  const signed = user.subscription.subscriptionDate;
  const planId = isPlanId(user.selectedPlanId) ? user.selectedPlanId : null;
  const deadlines = contractDeadlines(signed);
  const termEnds = termEndsAtMs({ subscriptionDate: signed, selectedPlanId: planId });
  const renouncedAt = recordField(user.onboarding, 'contractRenouncedAt');
  const withdrawnAt = recordField(user.onboarding, 'contractWithdrawnAt');
  const terminationRequestedAt = recordField(user.onboarding, 'terminationRequestedAt');
  const terminatedAt = recordField(user.onboarding, 'terminatedAt');
  const now = Date.now();
  const { canRenounce, canWithdraw } = offeredRights(state, signed, now);
  const terminationPending = top === 'resiliation-demandee';
  // After the last day the term's job moves the state; until it runs, nothing is offered the server would refuse.
  const termPassed = termEnds !== null && now >= termEnds;
  if (!canRenounce && !canWithdraw && !ended && !terminationPending && top !== 'membre-actif') return null;

  return (
    <section className={styles.section} aria-labelledby="my-rights">
      <h2 id="my-rights" className={styles.heading}>
        Mes droits
      </h2>
      {top === 'renonce' ? (
        <p className={styles.text} data-testid="rights-state">
          Contrat annulé (renonciation) le {dateTime(renouncedAt ? Date.parse(renouncedAt) : null)}.
        </p>
      ) : null}
      {top === 'retracte' ? (
        <p className={styles.text} data-testid="rights-state">
          Contrat résilié (rétractation) le {dateTime(withdrawnAt ? Date.parse(withdrawnAt) : null)}. Les sommes versées vous sont
          remboursées dans un délai de 14 jours au plus ; le détail vous a été envoyé par e-mail.
        </p>
      ) : null}
      {top === 'contrat-termine' ? (
        <p className={styles.text} data-testid="rights-state">
          Votre contrat a pris fin le {lastDay(termEnds)}, à son terme. Il n’est pas reconduit tacitement.
        </p>
      ) : null}
      {top === 'resilie' ? (
        <p className={styles.text} data-testid="rights-state">
          Contrat résilié pour motif légitime le {dateTime(terminatedAt ? Date.parse(terminatedAt) : null)}.
        </p>
      ) : null}
      {ended && endedContract ? (
        <p className={styles.text} data-testid="rights-refund">
          {endedRefundText(top, endedContract)}
        </p>
      ) : null}
      {terminationPending ? (
        <p className={styles.text} data-testid="rights-state">
          Vous avez demandé la résiliation de votre contrat pour motif légitime le{' '}
          {day(terminationRequestedAt ? Date.parse(terminationRequestedAt) : null)}. L’équipe examine votre demande et vous répond par
          e-mail ; si elle est acceptée, le remboursement est fait au plus tard le{' '}
          {day(terminationRequestedAt ? terminationRefundDueByMs(Date.parse(terminationRequestedAt)) : null)}. Aucune proposition ne vous
          est faite en attendant.
        </p>
      ) : null}
      {terminationPending ? <PendingTermination /> : null}
      {top === 'membre-actif' && !termPassed ? (
        <p className={styles.text}>
          Votre contrat prend fin le {lastDay(termEnds)}, sans reconduction tacite. Nous vous écrirons 30 jours et 7 jours avant cette date.
        </p>
      ) : null}
      {canRenounce ? (
        <ConfirmRight
          trigger="Renoncer au contrat"
          title="Renoncer au contrat ?"
          consequence="Le contrat sera annulé. Aucune somme ne vous sera demandée, ni maintenant ni plus tard (article L224‑91 du Code de la consommation). Vous pourrez conclure un nouveau contrat plus tard si vous le souhaitez."
          deadline={`Vous pouvez renoncer ${deadlines ? untilText(deadlines.renunciation) : '—'} (7 jours après le jour de la signature, prolongés jusqu’au premier jour ouvrable s’ils finissent un samedi, un dimanche ou un jour férié).`}
          confirmLabel="Oui, je renonce au contrat"
          body={{ context: 'renounce', confirm: true }}
        />
      ) : null}
      {canWithdraw ? (
        <ConfirmRight
          trigger="Me rétracter"
          title="Vous rétracter ?"
          consequence={
            user.subscription.renouncedWithdrawalRight === true
              ? 'Le contrat prendra fin. Vous aviez demandé que l’accompagnement commence avant la fin du délai de rétractation : le prix des jours écoulés reste dû (article L221‑25), le reste de ce que vous avez payé vous est remboursé dans les 14 jours.'
              : 'Le contrat prendra fin et tout ce que vous avez payé vous sera remboursé dans un délai de 14 jours au plus, par le moyen de paiement utilisé (articles L221‑18 et L221‑24 du Code de la consommation).'
          }
          deadline={`Vous pouvez vous rétracter ${deadlines ? untilText(deadlines.withdrawal) : '—'} (14 jours après le jour de la signature, prolongés jusqu’au premier jour ouvrable s’ils finissent un samedi, un dimanche ou un jour férié).`}
          confirmLabel="Oui, je me rétracte"
          body={{ context: 'withdraw', confirm: true }}
        />
      ) : null}
      {top === 'membre-actif' && !termPassed ? <TerminationRequest /> : null}
      {ended ? (
        <ConfirmRight
          trigger="Choisir une nouvelle formule"
          title="Conclure un nouveau contrat ?"
          consequence="Vos informations et votre questionnaire sont conservés. Vous choisirez une formule, puis un entretien, un nouveau contrat à lire et à signer ; aucun paiement avant 7 jours pleins après la signature."
          deadline="Rien n’est engagé tant que vous n’avez pas signé."
          confirmLabel="Oui, choisir une formule"
          body={{ context: 'renew' }}
        />
      ) : null}
    </section>
  );
}
