import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { decideTermination, type MemberDetail } from '#src/features/dashboard/dashboard-api.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';
import { DialogActions } from '#src/components/ui/dialog-actions.tsx';

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
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setRunning(true);
    setError(null);
    const result = await decideTermination(props.memberId, props.accept ? { accept: true } : { accept: false, reason });
    setRunning(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setOpen(false);
    notify({
      title: props.accept ? 'Résiliation acceptée : le membre est prévenu par e-mail.' : 'Refus envoyé au membre.',
      variant: 'success',
    });
    await props.onDecided();
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <Button variant={props.accept ? 'primary' : 'secondary'} className={props.accept ? undefined : styles.dangerButton}>
          {props.accept ? 'Accepter la résiliation' : 'Refuser la résiliation'}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.dialog}>
          <Dialog.Title className={styles.dialogTitle}>
            {props.accept ? 'Accepter la résiliation ?' : 'Refuser la résiliation ?'}
          </Dialog.Title>
          <Dialog.Description className={styles.text}>
            {props.accept
              ? 'Le contrat prend fin aujourd’hui. Le prix est réduit au prorata des jours écoulés jusqu’à la demande ; le reste est remboursé au membre, avec un avoir, et il le reçoit par e-mail.'
              : 'Le contrat continue et le membre redevient proposable. Il reçoit par e-mail la raison que vous écrivez ici ; il pourra faire une nouvelle demande.'}
          </Dialog.Description>
          {props.accept ? null : (
            <label className={styles.control} htmlFor={reasonId}>
              Raison du refus (envoyée au membre)
              <textarea
                id={reasonId}
                className={styles.textarea}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={2000}
                required
              />
            </label>
          )}
          <FormAlert tone="error">{error}</FormAlert>
          <DialogActions className={styles.actions}>
            <Button onClick={confirm} loading={running} loadingText="Envoi en cours…">
              {props.accept ? 'Oui, accepter' : 'Envoyer le refus'}
            </Button>
          </DialogActions>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
