import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode, Ref } from 'react';
import { Button } from '#src/components/ui/button.tsx';

/** A dialog's row of buttons: the action(s) given, then « Annuler » (or `cancelLabel`), which closes the dialog. */
export function DialogActions({
  className,
  children,
  cancelLabel = 'Annuler',
  cancelRef,
}: {
  className: string;
  children: ReactNode;
  cancelLabel?: string;
  /** To put the focus on the safe answer first (`ActionDialog`'s `focusCancel`). */
  cancelRef?: Ref<HTMLButtonElement>;
}) {
  return (
    <div className={className}>
      {children}
      <Dialog.Close asChild ref={cancelRef}>
        <Button variant="ghost">{cancelLabel}</Button>
      </Dialog.Close>
    </div>
  );
}
