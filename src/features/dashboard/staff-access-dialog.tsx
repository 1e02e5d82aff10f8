import { Button } from '#src/components/ui/button.tsx';
import { ConfirmDialog } from '#src/features/dashboard/confirm-dialog.tsx';
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
  const who = account.name;
  const disable = !account.disabled;
  const action = disable ? 'Désactiver le compte' : 'Réactiver le compte';
  const param = { param: { id: account.id } };
  return (
    <ConfirmDialog
      trigger={
        <Button variant={disable ? 'dangerOutline' : 'secondary'} aria-label={`${action} de ${who}`}>
          {action}
        </Button>
      }
      title={disable ? `Désactiver le compte de ${who} ?` : `Réactiver le compte de ${who} ?`}
      description={
        disable
          ? `${who} est déconnecté·e tout de suite, sur tous ses appareils, et ne peut plus se connecter au tableau de bord tant que le compte reste désactivé.`
          : `${who} pourra de nouveau se connecter avec son mot de passe et son second facteur.`
      }
      confirmLabel={action}
      busyLabel={disable ? 'Désactivation…' : 'Réactivation…'}
      destructive={disable}
      request={() => send(disable ? api.dashboard.staff[':id'].disable.$post(param) : api.dashboard.staff[':id'].enable.$post(param))}
      onConfirmed={async () => {
        notify({ title: disable ? `Compte de ${who} désactivé.` : `Compte de ${who} réactivé.`, variant: 'success' });
        await onDone();
      }}
    >
      <p className={styles.muted}>Compte concerné : {account.email}. Le changement est enregistré à votre nom, avec sa date.</p>
    </ConfirmDialog>
  );
}
