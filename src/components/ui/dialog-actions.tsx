import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button } from '#src/components/ui/button.tsx';

/** A dialog's row of buttons: the action(s) given, then « Annuler », which closes the dialog. */
export function DialogActions({ className, children }: { className: string; children: ReactNode }) {
  return (
    <div className={className}>
      {children}
      <Dialog.Close asChild>
        <Button variant="ghost">Annuler</Button>
      </Dialog.Close>
    </div>
  );
}
