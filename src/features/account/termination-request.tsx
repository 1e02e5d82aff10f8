import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, useId, useState } from 'react';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import { Button } from '#src/components/ui/button.tsx';
import * as fieldStyles from '#src/components/ui/field.css.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
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
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const reason = form.get('reason');
    if (typeof reason !== 'string') {
      setError('Veuillez choisir un motif.');
      return;
    }
    const proof = String(form.get('proof') ?? '').trim();
    setRunning(true);
    setError(null);
    const outcome = await update({
      context: 'terminate',
      reason,
      explanation: String(form.get('explanation') ?? ''),
      ...(proof ? { proof } : {}),
    });
    setRunning(false);
    if (outcome.ok) setOpen(false);
    else setError(outcome.error.message);
  };

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <div className={styles.actions}>
        <Dialog.Trigger asChild>
          <Button variant="secondary">Résilier pour un motif légitime</Button>
        </Dialog.Trigger>
      </div>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.dialog}>
          <Dialog.Title className={styles.dialogTitle}>Résilier pour un motif légitime ?</Dialog.Title>
          <Dialog.Description className={styles.text}>
            Un déménagement, un changement de situation matrimoniale, une maladie ou une invalidité grave, ou un autre motif grave vous
            permet de mettre fin au contrat (article R224‑2 du Code de la consommation). L’agence examine votre demande ; si elle est
            acceptée, le prix est réduit au prorata de la durée écoulée et le reste vous est remboursé au plus tard deux mois après votre
            demande. Pendant l’examen, aucune proposition ne vous est faite.
          </Dialog.Description>
          <form className={styles.list} onSubmit={submit} noValidate>
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
            <FormAlert tone="error">{error}</FormAlert>
            <div className={styles.actions}>
              <Button type="submit" loading={running} loadingText="Envoi en cours…">
                Envoyer ma demande
              </Button>
              <Dialog.Close asChild>
                <Button type="button" variant="ghost">
                  Annuler
                </Button>
              </Dialog.Close>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
