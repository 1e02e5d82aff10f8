import { STAFF_ROLE_LABELS, STAFF_ROLE_SCOPES, STAFF_ROLES } from '#machines/staff/roles.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { StaffInvitationSchema, STAFF_INVITATION_VALIDITY_DAYS } from '#machines/auth/staff-invitation.ts';
import { type ActionOutcome, ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import {
  inviteStaff,
  listInvitations,
  type PendingInvitation,
  resendInvitation,
  revokeInvitation,
} from '#src/features/dashboard/dashboard-api.ts';
import { ConfirmDialog } from '#src/features/dashboard/confirm-dialog.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { textOf, validate } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';

/**
 * The team page's invitations (decision 126): « Inviter un collègue » (a Radix dialog: address and
 * name, checked here and again by the server), and the pending invitations with who sent them,
 * when, until when, « Renvoyer » (a new link, the old one stops working) and « Révoquer ».
 */
export function StaffInvitationsSection() {
  const { data, error } = useQuery({ queryKey: staffKeys.invitations, queryFn: () => unwrap(listInvitations()) });
  const loadError = errorMessage(error);
  const client = useQueryClient();
  // After an invitation is sent, sent again or revoked: the list is asked again.
  const load = () => client.invalidateQueries({ queryKey: staffKeys.invitations });
  const invitations = data?.invitations ?? null;

  return (
    <section aria-labelledby="invitations-title" className={styles.form}>
      <div className={styles.header}>
        <h2 id="invitations-title" className={styles.cardTitle}>
          Invitations en attente
        </h2>
        <InviteDialog onDone={load} />
      </div>
      <FormAlert tone="error">{loadError}</FormAlert>
      {invitations === null ? null : invitations.length === 0 ? (
        <p className={styles.muted}>Aucune invitation en attente.</p>
      ) : (
        <ul className={styles.teamList} aria-labelledby="invitations-title">
          {invitations.map((invitation) => (
            <InvitationCard key={invitation.id} invitation={invitation} onDone={load} />
          ))}
        </ul>
      )}
    </section>
  );
}

function InvitationCard({ invitation, onDone }: { invitation: PendingInvitation; onDone: () => Promise<void> }) {
  const [resending, setResending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function resend() {
    setResending(true);
    setError(null);
    const result = await resendInvitation(invitation.id);
    setResending(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    notify({
      title: `Invitation renvoyée à ${invitation.email}.`,
      description: 'Le lien précédent ne fonctionne plus.',
      variant: 'success',
    });
    await onDone();
  }

  return (
    <li className={styles.card} aria-label={`Invitation de ${invitation.name}`}>
      <h3 className={styles.cardTitle}>
        {invitation.name}
        {invitation.expired ? <span className={styles.badge.danger}> expirée</span> : null}
      </h3>
      <dl className={styles.teamDefinitions}>
        <dt>E-mail</dt>
        <dd className={styles.breakAnywhere}>{invitation.email}</dd>
        <dt>Rôle</dt>
        <dd>{STAFF_ROLE_LABELS[invitation.role]}</dd>
        <dt>Invité par</dt>
        <dd>{invitation.invitedBy ? invitation.invitedBy.name : 'un compte supprimé'}</dd>
        <dt>Envoyée le</dt>
        <dd>{formatDateTime(invitation.sentAt)}</dd>
        <dt>{invitation.expired ? 'Expirée depuis le' : 'Valable jusqu’au'}</dt>
        <dd>{formatDateTime(invitation.expiresAt)}</dd>
      </dl>
      <FormAlert tone="error">{error}</FormAlert>
      <div className={styles.actions}>
        <Button
          variant="secondary"
          onClick={resend}
          loading={resending}
          loadingText="Envoi…"
          aria-label={`Renvoyer l’invitation à ${invitation.email}`}
        >
          Renvoyer
        </Button>
        <RevokeDialog invitation={invitation} onDone={onDone} />
      </div>
    </li>
  );
}

function RevokeDialog({ invitation, onDone }: { invitation: PendingInvitation; onDone: () => Promise<void> }) {
  return (
    <ConfirmDialog
      trigger={
        <Button variant="dangerOutline" aria-label={`Révoquer l’invitation de ${invitation.email}`}>
          Révoquer
        </Button>
      }
      title={<>Révoquer l’invitation de {invitation.name} ?</>}
      description={<>Le lien envoyé à {invitation.email} ne fonctionnera plus. Vous pourrez inviter cette adresse à nouveau plus tard.</>}
      confirmLabel="Révoquer l’invitation"
      busyLabel="Révocation…"
      request={() => revokeInvitation(invitation.id)}
      onConfirmed={async () => {
        notify({ title: `Invitation de ${invitation.name} révoquée.`, variant: 'success' });
        await onDone();
      }}
    />
  );
}

function InviteDialog({ onDone }: { onDone: () => Promise<void> }) {
  const invite = async (data: FormData): Promise<ActionOutcome> => {
    const checked = validate(StaffInvitationSchema, {
      email: textOf(data, 'email'),
      name: textOf(data, 'name'),
      role: textOf(data, 'role'),
    });
    if (!checked.success) return { fieldErrors: checked.fieldErrors };
    const result = await inviteStaff(checked.output);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    notify({
      title: `Invitation envoyée à ${checked.output.email}.`,
      description: `Le lien est valable ${STAFF_INVITATION_VALIDITY_DAYS} jours.`,
      variant: 'success',
    });
    await onDone();
    return null;
  };

  return (
    <ActionDialog
      trigger={<Button>Inviter un collègue</Button>}
      title="Inviter un collègue"
      description={
        <>
          Il recevra un e-mail avec un lien personnel, valable {STAFF_INVITATION_VALIDITY_DAYS} jours, pour choisir son mot de passe et
          enregistrer son second facteur. L’invitation est enregistrée à votre nom.
        </>
      }
      submitLabel="Envoyer l’invitation"
      busyLabel="Envoi de l’invitation…"
      onSubmit={invite}
    >
      {(fieldErrors) => (
        <>
          <TextField
            name="email"
            type="email"
            label="Adresse e-mail du collègue"
            autoComplete="off"
            spellCheck={false}
            required
            error={fieldErrors.email}
          />
          <TextField name="name" label="Prénom et nom" autoComplete="off" required error={fieldErrors.name} />
          <fieldset className={styles.control}>
            <legend>Rôle</legend>
            {STAFF_ROLES.map((role) => (
              <label key={role}>
                <input type="radio" name="role" value={role} defaultChecked={role === 'conseil'} /> {STAFF_ROLE_LABELS[role]} —{' '}
                <span className={styles.muted}>{STAFF_ROLE_SCOPES[role]}</span>
              </label>
            ))}
          </fieldset>
        </>
      )}
    </ActionDialog>
  );
}
