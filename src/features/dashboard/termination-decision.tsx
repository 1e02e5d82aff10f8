import { type ChangeEvent, useId, useState } from 'react';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import { MAX_PROOF_BYTES, PROOF_ACCEPT, PROOF_RULES } from '#machines/onboarding/termination-texts.ts';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { send } from '#src/lib/api-result.ts';
import { Button } from '#src/components/ui/button.tsx';
import { decideTermination, type MemberDetail } from '#src/features/dashboard/dashboard-api.ts';
import { formatDateTime, formatDay } from '#src/features/dashboard/format-fr.ts';
import { proofSizeText } from '#machines/onboarding/termination-texts.ts';

const NO_PROOF_KEPT = 'Pour ce motif, aucun justificatif n’est conservé\u00a0: ne numérisez aucun document médical.';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';
import { ActionDialog, type ActionOutcome } from '#src/components/ui/action-dialog.tsx';

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
        <dt>{termination.byLetter ? 'Courrier reçu le' : 'Demandée le'}</dt>
        <dd>{termination.byLetter ? formatDay(termination.requestedAt) : formatDateTime(termination.requestedAt)}</dd>
        <dt>Reçue</dt>
        <dd>{termination.channelLabel}</dd>
        <dt>Motif</dt>
        <dd>{termination.reasonLabel}</dd>
        <dt>{termination.byLetter ? 'Ce que dit le courrier' : 'Explication du membre'}</dt>
        <dd className={styles.pre}>{termination.explanation}</dd>
        <dt>Justificatif</dt>
        <dd>
          {termination.proof ? (
            <a href={termination.proof.url} target="_blank" rel="noopener noreferrer">
              Ouvrir le justificatif ({termination.proof.typeLabel}, {proofSizeText(termination.proof.sizeBytes)})
            </a>
          ) : (
            'Aucun'
          )}{' '}
          <span className={styles.muted}>— {termination.proofRuleLabel}</span>
        </dd>
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

type Reason = keyof typeof terminationReasonLabels;
const reasonOptions = Object.entries(terminationReasonLabels).map(([value, label]) => ({ value, label }));
const isReason = (value: string): value is Reason => Object.hasOwn(terminationReasonLabels, value);

/**
 * « Enregistrer une demande de résiliation reçue par courrier » (decision 189): a letter, registered
 * or not, is entered at the day it was received, with its reason and what it says, and the
 * enclosure scanned if staff wish (never a medical document); then it is reviewed like an online
 * request. The server checks the date against the contract and sends the member the confirmation.
 */
export function TerminationLetter(props: { memberId: string; onRecorded: () => Promise<void> }) {
  const [reason, setReason] = useState<Reason | null>(null);
  const takesProof = reason === null || PROOF_RULES[reason] !== 'none';
  async function submit(form: FormData): Promise<ActionOutcome> {
    const file = form.get('justificatif');
    if (file instanceof File && file.size === 0 && file.name === '') form.delete('justificatif');
    else if (file instanceof File && file.size > MAX_PROOF_BYTES)
      return { fieldErrors: { justificatif: 'Le justificatif dépasse 5\u00a0Mo. Numérisez-le plus léger (PDF, JPEG ou PNG).' } };
    const result = await send(
      fetch(`/api/v1/dashboard/members/${encodeURIComponent(props.memberId)}/terminations`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
        body: form,
      }),
    );
    if (!result.ok) {
      const { fieldErrors, message } = result.error;
      return Object.keys(fieldErrors).length > 0 ? { fieldErrors, formError: message } : message;
    }
    notify({ title: 'Demande par courrier enregistrée\u00a0: le membre en reçoit la confirmation par e-mail.', variant: 'success' });
    await props.onRecorded();
    return null;
  }
  return (
    <div className={styles.actions}>
      <ActionDialog
        trigger={<Button variant="secondary">Enregistrer une demande de résiliation reçue par courrier</Button>}
        title="Enregistrer une demande de résiliation reçue par courrier"
        description="Un courrier, recommandé ou non, vaut demande de résiliation à sa date de réception : les deux mois pour répondre et rembourser courent à partir de cette date. Le membre reçoit une confirmation par e-mail ; la demande s’examine ensuite comme une demande en ligne."
        submitLabel="Enregistrer la demande"
        busyLabel="Enregistrement…"
        onSubmit={submit}
      >
        {(errors) => (
          <>
            <TextField type="date" name="receivedOn" label="Reçu le" required error={errors.receivedOn} />
            <div
              onChange={(event: ChangeEvent<HTMLDivElement>) => {
                const target = event.target as unknown as HTMLInputElement;
                if (target.name === 'reason' && isReason(target.value)) setReason(target.value);
              }}
            >
              <RadioGroup name="reason" legend="Motif indiqué dans le courrier" options={reasonOptions} required error={errors.reason} />
            </div>
            <TextAreaField
              name="explanation"
              label="Ce que dit le courrier"
              hint="En quelques phrases, sans recopier de détail sur la santé du membre."
              rows={4}
              maxLength={2000}
              required
              error={errors.explanation}
            />
            {takesProof ? (
              <TextField
                type="file"
                name="justificatif"
                label="Justificatif joint au courrier, numérisé (facultatif)"
                hint="PDF, JPEG ou PNG, 5 Mo au plus. Ne numérisez aucun document médical."
                accept={PROOF_ACCEPT}
                error={errors.justificatif}
              />
            ) : (
              <p className={styles.muted}>{NO_PROOF_KEPT}</p>
            )}
          </>
        )}
      </ActionDialog>
    </div>
  );
}
