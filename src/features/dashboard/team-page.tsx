import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { STAFF_ROLE_LABELS, STAFF_ROLE_SCOPES, STAFF_ROLES, type StaffRole } from '#machines/staff/roles.ts';
import { setStaffRole } from '#src/features/dashboard/access-journal-api.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { listStaff, resetStaffMfa, type StaffAccount } from '#src/features/dashboard/dashboard-api.ts';
import { formatDateTime as formatDate } from '#src/features/dashboard/format-fr.ts';
import { ConfirmDialog } from '#src/features/dashboard/confirm-dialog.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { StaffAccessDialog } from '#src/features/dashboard/staff-access-dialog.tsx';
import { StaffInvitationsSection } from '#src/features/dashboard/staff-invitations-section.tsx';
import { count } from '#machines/french/plural.ts';
import { srOnly } from '#src/styles/global.css.ts';

const factorLabels: Record<StaffAccount['secondFactor'], string> = {
  actif: 'Actif',
  'en-attente': 'Configuration commencée, non terminée',
  aucun: 'À configurer à la prochaine connexion',
  inconnu: 'Inconnu (service indisponible)',
};

const headingId = (id: string) => `equipe-${id}`;

/**
 * `/dashboard/equipe`: the staff accounts and their second factor. A staff member can reset a
 * colleague's lost factor (never their own) after a confirmation dialog that says what happens;
 * the colleague enrols a new one at their next sign-in (decision 103).
 */
export function TeamPage() {
  const { data, error } = useQuery({ queryKey: staffKeys.team, queryFn: () => unwrap(listStaff()) });
  const loadError = errorMessage(error);
  const client = useQueryClient();
  // After a write (role, second factor, access): the list is asked again.
  const load = () => client.invalidateQueries({ queryKey: staffKeys.team });
  const staff = data?.staff ?? null;

  return (
    <div className={styles.page}>
      <div>
        <h1 className={styles.title}>Équipe</h1>
        <p className={styles.text}>
          Les comptes de l’équipe et leur second facteur. Si un collègue a perdu son téléphone ou son application d’authentification,
          réinitialisez son second facteur : il en configurera un nouveau à sa prochaine connexion. Un nouveau collègue reçoit une
          invitation par e-mail.
        </p>
      </div>
      <StaffInvitationsSection />
      <FormAlert tone="error">{loadError}</FormAlert>
      {staff === null ? (
        loadError ? null : (
          <p className={styles.muted} role="status">
            Chargement…
          </p>
        )
      ) : (
        <section aria-labelledby="team-count">
          <p id="team-count" className={styles.caption}>
            {count(staff.length, 'compte', 'comptes')} de l’équipe
          </p>
          <ul className={styles.teamList} aria-labelledby="team-count">
            {staff.map((account) => (
              <li key={account.id} className={styles.card}>
                <h2 className={styles.cardTitle} id={headingId(account.id)} tabIndex={-1}>
                  {account.name}
                  {account.self ? <span className={styles.badge.neutral}> vous</span> : null}
                  {account.disabled ? <span className={styles.badge.danger}> désactivé</span> : null}
                </h2>
                <dl className={styles.teamDefinitions}>
                  <dt>E-mail</dt>
                  <dd>{account.email}</dd>
                  <dt>Rôle</dt>
                  <dd>
                    <RoleField account={account} onDone={load} />
                  </dd>
                  <dt>Second facteur</dt>
                  <dd>{factorLabels[account.secondFactor]}</dd>
                  <dt>Dernière réinitialisation</dt>
                  <dd>
                    {account.lastReset
                      ? `${formatDate(account.lastReset.at)} par ${account.lastReset.byEmail ?? 'un compte supprimé'}`
                      : '—'}
                  </dd>
                </dl>
                <div className={styles.actions}>
                  {account.self ? (
                    <p className={styles.muted}>Votre propre second facteur ne peut être réinitialisé que par un collègue.</p>
                  ) : account.secondFactor === 'aucun' ? (
                    <p className={styles.muted}>Aucun second facteur à réinitialiser.</p>
                  ) : (
                    <ResetDialog account={account} onDone={load} />
                  )}
                  {account.self ? null : <StaffAccessDialog account={account} onDone={load} />}
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** The colleague's role (decision 206): a select that saves at once; the server keeps one administrator. */
function RoleField({ account, onDone }: { account: StaffAccount; onDone: () => Promise<void> }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <label htmlFor={id} className={srOnly}>
        Rôle de {account.name}
      </label>
      <select
        id={id}
        className={styles.input}
        value={account.role}
        disabled={busy}
        aria-describedby={`${id}-scope`}
        onChange={async (event) => {
          const role = event.target.value as StaffRole;
          setBusy(true);
          setError(null);
          const result = await setStaffRole(account.id, role);
          setBusy(false);
          if (!result.ok) {
            setError(result.error.message);
            return;
          }
          notify({ title: `${account.name} : ${STAFF_ROLE_LABELS[role]}.`, description: STAFF_ROLE_SCOPES[role], variant: 'success' });
          await onDone();
        }}
      >
        {STAFF_ROLES.map((role) => (
          <option key={role} value={role}>
            {STAFF_ROLE_LABELS[role]}
          </option>
        ))}
      </select>
      <span id={`${id}-scope`} className={styles.muted}>
        {' '}
        {STAFF_ROLE_SCOPES[account.role]}
      </span>
      {error ? <FormAlert tone="error">{error}</FormAlert> : null}
    </>
  );
}

/** The account's button and its confirmation: focus trapped inside, back on the button when it closes. */
function ResetDialog({ account, onDone }: { account: StaffAccount; onDone: () => Promise<void> }) {
  const done = useRef(false);
  const who = account.name;
  return (
    <ConfirmDialog
      trigger={
        <Button variant="dangerOutline" aria-label={`Réinitialiser le second facteur de ${who}`}>
          Réinitialiser le second facteur
        </Button>
      }
      title={<>Réinitialiser le second facteur de {who} ?</>}
      description={
        <>
          {who} devra configurer à nouveau son application d’authentification à sa prochaine connexion ; ses sessions ouvertes prennent fin.
        </>
      }
      confirmLabel="Réinitialiser le second facteur"
      busyLabel="Réinitialisation…"
      request={() => resetStaffMfa(account.id)}
      onConfirmed={async () => {
        done.current = true;
        notify({
          title: `Second facteur de ${who} réinitialisé.`,
          description: 'Un e-mail l’en informe ; il configurera un nouveau second facteur à sa prochaine connexion.',
          variant: 'success',
        });
        await onDone();
      }}
      onCloseAutoFocus={(event) => {
        // After a reset this button goes (nothing left to reset): the focus goes to the account's heading.
        if (!done.current) return;
        done.current = false;
        event.preventDefault();
        document.getElementById(headingId(account.id))?.focus();
      }}
    >
      <p className={styles.muted}>
        Un e-mail l’en informe ({account.email}). La réinitialisation est enregistrée à votre nom, avec sa date.
      </p>
    </ConfirmDialog>
  );
}
