import * as Dialog from '@radix-ui/react-dialog';
import { type ReactElement, type ReactNode, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import type { ApiResult } from '#src/lib/api-result.ts';
import { useRequest } from '#src/lib/use-request.ts';

/**
 * A staff action behind a Radix confirmation dialog: the title asks, the description says what
 * will happen, « Annuler » has the focus first (the safe answer), the confirm button runs the
 * request (busy, then the French error if it failed, the dialog still open) and, once it
 * succeeded, the dialog closes and `onConfirmed` runs. The dialog cannot be closed while the
 * request runs; closing it clears the error.
 */
export function ConfirmDialog<T>({
  trigger,
  title,
  description,
  children,
  confirmLabel,
  busyLabel,
  destructive = true,
  request,
  onConfirmed,
  onCloseAutoFocus,
}: {
  /** The button that opens the dialog. */
  trigger: ReactElement;
  title: ReactNode;
  description: ReactNode;
  /** More to read under the description (who is concerned, what is recorded). */
  children?: ReactNode;
  confirmLabel: ReactNode;
  busyLabel: string;
  /** A destructive action: warning text and danger-toned confirm button. */
  destructive?: boolean;
  request: () => Promise<ApiResult<T>>;
  onConfirmed: (data: T) => Promise<void> | void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const [open, setOpen] = useState(false);
  const { busy, error, setError, run } = useRequest();
  const cancelRef = useRef<HTMLButtonElement>(null);

  async function confirm() {
    await run(request, async (data) => {
      setOpen(false);
      await onConfirmed(data);
    });
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
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancelRef.current?.focus();
          }}
          onCloseAutoFocus={onCloseAutoFocus}
        >
          <Dialog.Title className={styles.dialogTitle}>{title}</Dialog.Title>
          <Dialog.Description className={destructive ? styles.dialogWarning : styles.muted}>{description}</Dialog.Description>
          {children}
          <FormAlert tone="error">{error}</FormAlert>
          <div className={styles.actions}>
            <Button
              className={destructive ? styles.destructive : undefined}
              data-tone={destructive ? 'danger' : undefined}
              onClick={confirm}
              loading={busy}
              loadingText={busyLabel}
            >
              {confirmLabel}
            </Button>
            <Dialog.Close asChild ref={cancelRef}>
              <Button variant="ghost">Annuler</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
