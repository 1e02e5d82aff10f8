import { useId } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { decideTermination, type MemberDetail } from '#src/features/dashboard/dashboard-api.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';

type Termination = NonNullable<NonNullable<MemberDetail['rights']>['termination']>;

/**
 * A member's termination request for a legitimate reason (R224-2, decision 119) as staff read it,
 * and, while it waits, the two decisions: each dialog says what happens to the member.
 */
export function TerminationDecision(props: { memberId: string; termination: Termination; onDecided: () => Promise<void> }) {
  const { termination } = props;
  return (
    <div className={styles.page} data-testid="termination-request">
      <h3 className={styles.cardTitle}>Résiliation pour motif légitime</h3>
      <dl className={styles.definitions}>
        <dt>Demandée le</dt>
        <dd>{formatDateTime(termination.requestedAt)}</dd>
        <dt>Motif</dt>
        <dd>{termination.reasonLabel}</dd>
        <dt>Explication du membre</dt>
        <dd>{termination.explanation}</dd>
        <dt>Justificatif</dt>
        <dd>{termination.proof ?? 'Aucun'}</dd>
        <dt>Décision et remboursement au plus tard le</dt>
        <dd>{formatDateTime(termination.dueBy)}</dd>
        <dt>Statut</dt>
        <dd>
          {termination.statusLabel}
          {termination.decidedAt ? ` le ${formatDateTime(termination.decidedAt)}` : ''}
        </dd>
        {termination.refusalReason ? (
          <>
            <dt>Raison du refus</dt>
            <dd>{termination.refusalReason}</dd>
          </>
        ) : null}
      </dl>
      {termination.pending ? (
        <div className={styles.actions}>
          <Decide {...props} accept />
          <Decide {...props} accept={false} />
        </div>
      ) : null}
    </div>
  );
}

function Decide(props: { memberId: string; accept: boolean; onDecided: () => Promise<void> }) {
  const reasonId = useId();
  const confirm = async (form: FormData): Promise<string | null> => {
    const reason = String(form.get('reason') ?? '');
    const result = await decideTermination(props.memberId, props.accept ? { accept: true } : { accept: false, reason });
    if (!result.ok) return result.error.message;
    notify({
      title: props.accept ? 'Résiliation acceptée : le membre est prévenu par e-mail.' : 'Refus envoyé au membre.',
      variant: 'success',
    });
    await props.onDecided();
    return null;
  };
  return (
    <ActionDialog
      trigger={
        <Button variant={props.accept ? 'primary' : 'dangerOutline'}>
          {props.accept ? 'Accepter la résiliation' : 'Refuser la résiliation'}
        </Button>
      }
      title={props.accept ? 'Accepter la résiliation ?' : 'Refuser la résiliation ?'}
      description={
        props.accept
          ? 'Le contrat prend fin aujourd’hui. Le prix est réduit au prorata des jours écoulés jusqu’à la demande ; le reste est remboursé au membre, avec un avoir, et il le reçoit par e-mail.'
          : 'Le contrat continue et le membre redevient proposable. Il reçoit par e-mail la raison que vous écrivez ici ; il pourra faire une nouvelle demande.'
      }
      submitLabel={props.accept ? 'Oui, accepter' : 'Envoyer le refus'}
      busyLabel="Envoi en cours…"
      onSubmit={confirm}
    >
      {props.accept ? null : (
        <label className={styles.control} htmlFor={reasonId}>
          Raison du refus (envoyée au membre)
          <textarea id={reasonId} name="reason" className={styles.textarea} maxLength={2000} required />
        </label>
      )}
    </ActionDialog>
  );
}
