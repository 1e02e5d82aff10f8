import { useId } from 'react';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import * as styles from '#src/features/privacy/privacy.css.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';

const reasonOptions = Object.entries(terminationReasonLabels).map(([value, label]) => ({ value, label }));

/**
 * « Résilier pour un motif légitime » (R224-2, decision 119): the member's request, with a reason
 * from the list, a few words of explanation and, if they wish, what proof they can give. The
 * server checks it (the same schema as every other path) and records it; staff decide.
 */
export function TerminationRequest() {
  const { update } = useOnboardingUpdate();
  const explanationId = useId();
  async function submit(form: FormData): Promise<string | null> {
    const reason = form.get('reason');
    if (typeof reason !== 'string') return 'Veuillez choisir un motif.';
    const proof = String(form.get('proof') ?? '').trim();
    const outcome = await update({
      context: 'terminate',
      reason,
      explanation: String(form.get('explanation') ?? ''),
      ...(proof ? { proof } : {}),
    });
    return outcome.ok ? null : outcome.error.message;
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
        <RadioGroup name="reason" legend="Motif" options={reasonOptions} required />
        <div className={fieldStyles.field}>
          <label htmlFor={explanationId} className={fieldStyles.label}>
            Votre situation, en quelques mots
          </label>
          <textarea id={explanationId} name="explanation" className={fieldStyles.input} rows={4} maxLength={2000} required />
        </div>
        <TextField
          name="proof"
          label="Justificatif (facultatif)"
          hint="Par exemple : attestation de l’employeur, certificat médical ; l’équipe vous le demandera si besoin."
          maxLength={500}
          autoComplete="off"
        />
      </ActionDialog>
    </div>
  );
}
