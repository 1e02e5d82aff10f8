import * as Dialog from '@radix-ui/react-dialog';
import { type FormEvent, type ReactElement, type ReactNode, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { DialogActions } from '#src/components/ui/dialog-actions.tsx';
import * as styles from '#src/components/ui/dialog.css.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';

/**
 * Every action of the product behind a Radix dialog, member area and dashboard alike: the title
 * says the action, the description what it does, the children are its fields (or more to read),
 * then the French error if it failed and the buttons, « Annuler » last. `onSubmit` receives the
 * form's data and answers the error to show, or null: the dialog then closes. While it runs, the
 * confirm button is busy and the dialog cannot be closed; closing it clears the error.
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
  children?: ReactNode;
  submitLabel: ReactNode;
  busyLabel: string;
  /** « Ne rien changer » where « Annuler » would name the action (« Annuler le rendez-vous »). */
  cancelLabel?: string;
  tone?: 'normal' | 'danger';
  focusCancel?: boolean;
  onSubmit: (data: FormData) => Promise<string | null>;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    let failure: string | null = null;
    try {
      failure = await onSubmit(data);
    } finally {
      setBusy(false);
    }
    if (failure) setError(failure);
    else setOpen(false);
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        setOpen(next);
        if (!next) setError(null);
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
          <form className={styles.dialogBody} onSubmit={submit} noValidate>
            {children}
            <FormAlert tone="error">{error}</FormAlert>
            <DialogActions className={styles.dialogActions} cancelLabel={cancelLabel} cancelRef={cancelRef}>
              <Button type="submit" variant={tone === 'danger' ? 'danger' : 'primary'} loading={busy} loadingText={busyLabel}>
                {submitLabel}
              </Button>
            </DialogActions>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
