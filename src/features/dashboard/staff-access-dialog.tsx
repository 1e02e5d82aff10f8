import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { api, send } from '#src/lib/api-client.ts';
import { notify } from '#src/lib/notifications.ts';

/**
 * Disable or re-enable a colleague's account (decision 124), behind a Radix dialog that says what
 * happens; the safe answer has the focus first. Never shown for one's own account.
 */
export function StaffAccessDialog({
  account,
  onDone,
}: {
  account: { id: string; name: string; email: string; disabled: boolean };
  onDone: () => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const who = account.name;
  const disable = !account.disabled;

  async function confirm() {
    setRunning(true);
    setError(null);
    const param = { param: { id: account.id } };
    const result = await send(disable ? api.dashboard.staff[':id'].disable.$post(param) : api.dashboard.staff[':id'].enable.$post(param));
    setRunning(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setOpen(false);
    notify({ title: disable ? `Compte de ${who} désactivé.` : `Compte de ${who} réactivé.`, variant: 'success' });
    await onDone();
  }

  const action = disable ? 'Désactiver le compte' : 'Réactiver le compte';
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (running) return;
        setOpen(next);
        if (!next) setError(null);
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant="secondary" className={disable ? styles.dangerButton : undefined} aria-label={`${action} de ${who}`}>
          {action}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.dialog}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancelRef.current?.focus();
          }}
        >
          <Dialog.Title className={styles.dialogTitle}>
            {disable ? `Désactiver le compte de ${who} ?` : `Réactiver le compte de ${who} ?`}
          </Dialog.Title>
          <Dialog.Description className={disable ? styles.dialogWarning : styles.muted}>
            {disable
              ? `${who} est déconnecté·e tout de suite, sur tous ses appareils, et ne peut plus se connecter au tableau de bord tant que le compte reste désactivé.`
              : `${who} pourra de nouveau se connecter avec son mot de passe et son second facteur.`}
          </Dialog.Description>
          <p className={styles.muted}>Compte concerné : {account.email}. Le changement est enregistré à votre nom, avec sa date.</p>
          <FormAlert tone="error">{error}</FormAlert>
          <div className={styles.actions}>
            <Button
              className={disable ? styles.destructive : undefined}
              data-tone={disable ? 'danger' : undefined}
              onClick={confirm}
              loading={running}
              loadingText={disable ? 'Désactivation…' : 'Réactivation…'}
            >
              {action}
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
