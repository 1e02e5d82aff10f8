import type { TerminationView } from '#bff/api-type.ts';
import { type ChangeEvent, useState } from 'react';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import {
  MAX_PROOF_BYTES,
  NO_PROOF_FOR_HEALTH,
  PROOF_ACCEPT,
  PROOF_RULES,
  proofHint,
  proofLabel,
  proofSizeText,
  TERMINATION_HOW,
  TERMINATION_PROOF,
} from '#machines/onboarding/termination-texts.ts';
import { ActionDialog, type ActionOutcome } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import * as styles from '#src/features/privacy/privacy.css.ts';
import { type ApiResult, send } from '#src/lib/api-result.ts';
import { notify } from '#src/lib/notifications.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { unwrap } from '#src/lib/query-client.ts';

type Reason = keyof typeof terminationReasonLabels;
const reasonOptions = Object.entries(terminationReasonLabels).map(([value, label]) => ({ value, label }));
const isReason = (value: string): value is Reason => Object.hasOwn(terminationReasonLabels, value);

/** The file field's name, as the server reads it (bff/api/termination-routes.ts). */
const PROOF_FIELD = 'justificatif';

const parisDate = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long' });

/** The form as it is sent: an empty file input is left out; a file over 5 Mo is refused before it is sent. */
function proofProblem(form: FormData): string | null {
  const file = form.get(PROOF_FIELD);
  if (file instanceof File && file.size === 0 && file.name === '') form.delete(PROOF_FIELD);
  else if (file instanceof File && file.size > MAX_PROOF_BYTES)
    return 'Le justificatif dépasse 5\u00a0Mo. Choisissez un fichier plus léger (PDF, JPEG ou PNG).';
  return null;
}

const post = (path: string, form: FormData) =>
  send(fetch(path, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' }, body: form }));

function outcomeOf(result: ApiResult<unknown>): ActionOutcome {
  if (result.ok) return null;
  const { fieldErrors, message } = result.error;
  return Object.keys(fieldErrors).length > 0 ? { fieldErrors, formError: message } : message;
}

/** The file field of a reason (none for illness: no health data is asked, GDPR art. 9). */
function ProofField({ reason, error }: { reason: Reason | null; error?: string | undefined }) {
  const hint = proofHint(reason);
  if (hint === null)
    return (
      <p className={styles.notice} data-testid="no-proof-for-health">
        {NO_PROOF_FOR_HEALTH}
      </p>
    );
  return (
    <TextField
      type="file"
      name={PROOF_FIELD}
      label={proofLabel(reason)}
      hint={hint}
      accept={PROOF_ACCEPT}
      required={reason !== null && PROOF_RULES[reason] === 'required'}
      error={error}
    />
  );
}

/**
 * The request's fields: how to terminate in the contract's words, the reason, a few words, and the
 * file field of that reason. Exported for the wording test (tests/unit/termination-wording.test.tsx).
 */
export function TerminationRequestFields({
  reason,
  errors,
  onReason,
}: {
  reason: Reason | null;
  errors: Record<string, string>;
  onReason?: (reason: Reason) => void;
}) {
  return (
    <>
      <p className={styles.text} data-testid="termination-how">
        {TERMINATION_HOW}
      </p>
      <p className={styles.text}>{TERMINATION_PROOF}</p>
      <div
        onChange={(event: ChangeEvent<HTMLDivElement>) => {
          const target = event.target as unknown as HTMLInputElement;
          if (target.name === 'reason' && isReason(target.value)) onReason?.(target.value);
        }}
      >
        <RadioGroup
          name="reason"
          legend="Motif"
          options={reasonOptions}
          defaultValue={reason ?? undefined}
          required
          error={errors.reason}
        />
      </div>
      <TextAreaField
        name="explanation"
        label="Votre situation, en quelques mots"
        hint={'Quelques phrases suffisent\u00a0; inutile de détailler votre état de santé.'}
        rows={4}
        maxLength={2000}
        required
        error={errors.explanation}
      />
      <ProofField reason={reason} error={errors[PROOF_FIELD]} />
    </>
  );
}

/**
 * « Résilier pour un motif légitime » (R224-2, decisions 119 and 189): the member's request, with
 * a reason from the list, a few words, and the proof the reason asks for as a file. How to
 * terminate is said in the shared words of the contract and the CGV (a letter is accepted too).
 * The server checks everything again and records it with its proof; staff decide.
 */
export function TerminationRequest() {
  const { goToCurrent } = useOnboardingUpdate();
  const [reason, setReason] = useState<Reason | null>(null);
  async function submit(form: FormData): Promise<ActionOutcome> {
    const problem = proofProblem(form);
    if (problem) return { fieldErrors: { [PROOF_FIELD]: problem } };
    const result = await post('/api/v1/user/terminations', form);
    if (result.ok) {
      notify({ title: 'Demande de résiliation envoyée\u00a0: vous recevez une confirmation par e-mail.', variant: 'success' });
      await goToCurrent();
    }
    return outcomeOf(result);
  }

  return (
    <div className={styles.actions}>
      <ActionDialog
        trigger={<Button variant="secondary">Résilier pour un motif légitime</Button>}
        title="Résilier pour un motif légitime ?"
        description={
          <>
            Un déménagement, un changement de situation matrimoniale, une maladie ou une invalidité grave, ou un autre motif grave vous
            permet de mettre fin au contrat (article R224‑2 du Code de la consommation). L’agence examine votre demande ; si elle est
            acceptée, le prix est réduit au prorata de la durée écoulée et le reste vous est remboursé au plus tard deux mois après votre
            demande. Pendant l’examen, aucune proposition ne vous est faite.
          </>
        }
        submitLabel="Envoyer ma demande"
        busyLabel="Envoi en cours…"
        onSubmit={submit}
      >
        {(errors) => <TerminationRequestFields reason={reason} errors={errors} onReason={setReason} />}
      </ActionDialog>
    </div>
  );
}

const fetchMyTerminations = () =>
  send(fetch('/api/v1/user/terminations', { credentials: 'same-origin', headers: { accept: 'application/json' } })) as Promise<
    ApiResult<{ terminations: TerminationView[] }>
  >;

/**
 * While staff review her request: how it reached the agency and its proof; she may add or replace
 * the proof (for illness, none is taken). Nothing shows when the list cannot be loaded.
 */
export function PendingTermination() {
  const { data } = useQuery({ queryKey: memberKeys.terminations, queryFn: () => unwrap(fetchMyTerminations()) });
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: memberKeys.terminations });
  const latest = data?.terminations[0];
  if (!latest?.pending) return null;
  const takesProof = latest.proofRule !== 'none';
  return (
    <div className={styles.item} data-testid="pending-termination">
      <p className={styles.status}>
        {`${latest.byLetter ? 'Demande reçue par courrier' : 'Demande faite en ligne'} le ${parisDate.format(new Date(latest.requestedAt))}, motif\u00a0: ${latest.reasonLabel}.`}
      </p>
      <p className={styles.status}>
        {latest.proof
          ? `Justificatif joint\u00a0: ${latest.proof.typeLabel}, ${proofSizeText(latest.proof.sizeBytes)}, le ${parisDate.format(new Date(latest.proof.uploadedAt))}.`
          : takesProof
            ? 'Aucun justificatif joint pour le moment.'
            : 'Aucun justificatif n’est demandé pour ce motif.'}
      </p>
      {takesProof ? (
        <div className={styles.actions}>
          <ActionDialog
            trigger={<Button variant="secondary">{latest.proof ? 'Remplacer le justificatif' : 'Ajouter un justificatif'}</Button>}
            title={latest.proof ? 'Remplacer le justificatif ?' : 'Ajouter un justificatif ?'}
            description="Le fichier est joint à votre demande et seule l’équipe peut l’ouvrir ; chaque consultation est enregistrée."
            submitLabel="Envoyer le fichier"
            busyLabel="Envoi en cours…"
            onSubmit={async (form) => {
              const problem = proofProblem(form);
              if (problem) return { fieldErrors: { [PROOF_FIELD]: problem } };
              const result = await post(`/api/v1/user/terminations/${latest.id}/proof`, form);
              if (result.ok) {
                notify({ title: 'Justificatif envoyé.', variant: 'success' });
                await reload();
              }
              return outcomeOf(result);
            }}
          >
            {(errors) => <ProofField reason={latest.reason} error={errors[PROOF_FIELD]} />}
          </ActionDialog>
        </div>
      ) : null}
    </div>
  );
}
