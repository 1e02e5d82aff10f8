import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { addNeverPropose, type Candidate, removeFromShortlist, removeNeverPropose } from '#src/features/introductions/introductions-api.ts';
import { notify } from '#src/lib/notifications.ts';

/**
 * Staff's working lists on a member's candidates (issue 62 point 7, decision 201): the shortlist,
 * the pairs never to propose with their reason, and the dialog that records such a pair.
 */

/** « Sélection pour … »: the candidates staff keep aside for this member (decision 201). */
export function ShortlistPart({
  memberId,
  entries,
  onChanged,
}: {
  memberId: string;
  entries: { memberId: string; name: string | null }[];
  onChanged: () => void;
}) {
  return (
    <div className={styles.part} data-testid="shortlist">
      <h3 className={styles.partTitle}>Sélection</h3>
      {entries.length === 0 ? <p className={styles.muted}>Aucun candidat gardé de côté.</p> : null}
      <ul>
        {entries.map((e) => (
          <li key={e.memberId}>
            <Link to="/dashboard/member/$memberId" params={{ memberId: e.memberId }}>
              {e.name ?? 'Membre'}
            </Link>{' '}
            <Button
              variant="ghost"
              aria-label={`Retirer ${e.name ?? 'ce membre'} de la sélection`}
              onClick={async () => {
                const result = await removeFromShortlist(memberId, e.memberId);
                if (!result.ok) notify({ title: result.error.message, variant: 'error' });
                onChanged();
              }}
            >
              Retirer
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** « À ne jamais proposer »: pairs with their reason, staff-only, enforced by the server (decision 201). */
export function NeverProposePart({
  memberId,
  entries,
  onChanged,
}: {
  memberId: string;
  entries: { memberId: string; name: string | null; reason: string; createdBy: string | null }[];
  onChanged: () => void;
}) {
  return (
    <div className={styles.part} data-testid="never-propose">
      <h3 className={styles.partTitle}>À ne jamais proposer</h3>
      {entries.length === 0 ? <p className={styles.muted}>Aucune personne écartée.</p> : null}
      <ul>
        {entries.map((e) => (
          <li key={e.memberId}>
            <Link to="/dashboard/member/$memberId" params={{ memberId: e.memberId }}>
              {e.name ?? 'Membre'}
            </Link>{' '}
            — {e.reason}
            {e.createdBy ? <span className={styles.muted}> ({e.createdBy})</span> : null}{' '}
            <Button
              variant="ghost"
              aria-label={`Ne plus écarter ${e.name ?? 'ce membre'}`}
              onClick={async () => {
                const result = await removeNeverPropose(memberId, e.memberId);
                if (!result.ok) notify({ title: result.error.message, variant: 'error' });
                onChanged();
              }}
            >
              Ne plus écarter
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** « Ne jamais proposer » a candidate to this member, with the reason (decision 201). */
export function NeverProposeDialog({
  memberId,
  memberName,
  candidate,
  onDone,
}: {
  memberId: string;
  memberName: string;
  candidate: Candidate;
  onDone: () => void;
}) {
  const id = useId();
  const other = candidate.firstName ?? 'ce membre';
  async function submit(data: FormData): Promise<string | null> {
    const reason = String(data.get('reason') ?? '').trim();
    if (!reason) return 'Écrivez pourquoi ces deux personnes ne doivent jamais être proposées l’une à l’autre.';
    const result = await addNeverPropose(memberId, candidate.memberId, reason);
    if (!result.ok) return result.error.message;
    notify({ title: `${other} ne sera plus proposé à ${memberName}.`, variant: 'success' });
    onDone();
    return null;
  }
  return (
    <ActionDialog
      trigger={
        <Button variant="ghost" aria-label={`Ne jamais proposer ${other} à ${memberName}`}>
          Ne jamais proposer
        </Button>
      }
      title={`Ne jamais proposer ${other} à ${memberName}`}
      description="La paire disparaît des candidats des deux côtés et toute proposition en est refusée. Seule l’équipe lit la raison."
      submitLabel="Écarter cette paire"
      busyLabel="Enregistrement…"
      onSubmit={submit}
    >
      <label className={styles.control} htmlFor={id}>
        Raison (obligatoire, lue par l’équipe seulement)
        <textarea id={id} name="reason" className={styles.textarea} maxLength={1000} required />
      </label>
    </ActionDialog>
  );
}
