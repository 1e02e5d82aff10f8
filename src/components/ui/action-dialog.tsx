import * as Dialog from '@radix-ui/react-dialog';
import { type ReactElement, type ReactNode, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { DialogActions } from '#src/components/ui/dialog-actions.tsx';
import * as styles from '#src/components/ui/dialog.css.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { type SubmitOutcome, useForm } from '#src/components/ui/use-form.ts';
import type { FieldErrors } from '#src/lib/api-client.ts';

/** What an action answers: null when done, else the French error (a sentence, or field errors). */
export type ActionOutcome = string | SubmitOutcome | null;

/**
 * Every action of the product behind a Radix dialog, member area and dashboard alike: the title
 * says the action, the description what it does, the children are its fields (or more to read),
 * then the French error if it failed and the buttons, « Annuler » last. `onSubmit` receives the
 * form's data and answers the error to show (a sentence, or field errors as `useForm` takes them,
 * the children then being a function of them), or null: the dialog then closes. The form state is
 * `useForm`'s: one submission at a time, the focus on the first invalid field, an unexpected
 * failure shown in French. While it runs, the confirm button is busy and the dialog cannot be
 * closed; closing it clears the errors.
 *
 * A destructive action (`tone="danger"`) shows its description as a warning and confirms with a
 * red button; `focusCancel` puts the focus on « Annuler » first, the safe answer, where there is
 * no field to fill.
 */
export function ActionDialog({
  trigger,
  title,
  description,
  children,
  submitLabel,
  busyLabel,
  cancelLabel = 'Annuler',
  tone = 'normal',
  focusCancel = false,
  onSubmit,
  onCloseAutoFocus,
}: {
  /** The button that opens the dialog. */
  trigger: ReactElement;
  title: ReactNode;
  description: ReactNode;
  /** The fields, or a function of the field errors to show. */
  children?: ReactNode | ((fieldErrors: FieldErrors) => ReactNode);
  submitLabel: ReactNode;
  busyLabel: string;
  /** « Ne rien changer » where « Annuler » would name the action (« Annuler le rendez-vous »). */
  cancelLabel?: string;
  tone?: 'normal' | 'danger';
  focusCancel?: boolean;
  onSubmit: (data: FormData) => Promise<ActionOutcome>;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const [open, setOpen] = useState(false);
  const { formRef, fieldErrors, formError, submitting, handleSubmit, reset } = useForm();
  const cancelRef = useRef<HTMLButtonElement>(null);

  const submit = handleSubmit(async (data) => {
    const outcome = await onSubmit(data);
    if (outcome === null) {
      setOpen(false);
      return undefined;
    }
    return typeof outcome === 'string' ? { formError: outcome } : outcome;
  });

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (submitting) return;
        setOpen(next);
        if (!next) reset();
      }}
    >
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.dialog}
          onOpenAutoFocus={
            focusCancel
              ? (openEvent) => {
                  openEvent.preventDefault();
                  cancelRef.current?.focus();
                }
              : undefined
          }
          onCloseAutoFocus={onCloseAutoFocus}
        >
          <Dialog.Title className={styles.dialogTitle}>{title}</Dialog.Title>
          <Dialog.Description className={tone === 'danger' ? styles.dialogWarning : styles.dialogDescription}>
            {description}
          </Dialog.Description>
          <form ref={formRef} className={styles.dialogBody} onSubmit={submit} noValidate>
            {typeof children === 'function' ? children(fieldErrors) : children}
            <FormAlert tone="error">{formError}</FormAlert>
            <DialogActions className={styles.dialogActions} cancelLabel={cancelLabel} cancelRef={cancelRef}>
              <Button type="submit" variant={tone === 'danger' ? 'danger' : 'primary'} loading={submitting} loadingText={busyLabel}>
                {submitLabel}
              </Button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
