import { Button } from '#src/components/ui/button.tsx';
import { ConfirmDialog } from '#src/features/dashboard/confirm-dialog.tsx';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { api, send } from '#src/lib/api-client.ts';
import { notify } from '#src/lib/notifications.ts';

/** Deletes one of one's own internal notes, after confirmation (decision 124). */
export function DeleteNoteDialog({
  memberId,
  note,
  onDone,
}: {
  memberId: string;
  /** The note's id and when it was written (ISO). */
  note: { id: number; at: string };
  onDone: () => Promise<void>;
}) {
  return (
    <ConfirmDialog
      trigger={<Button variant="dangerOutline">Supprimer</Button>}
      title="Supprimer cette note ?"
      description={<>La note du {formatDateTime(note.at)} disparaît du dossier pour toute l’équipe ; elle ne peut pas être récupérée.</>}
      confirmLabel="Supprimer la note"
      busyLabel="Suppression…"
      request={() => send(api.dashboard.members[':id'].notes[':noteId'].$delete({ param: { id: memberId, noteId: String(note.id) } }))}
      onConfirmed={async () => {
        notify({ title: 'Note supprimée.', variant: 'success' });
        await onDone();
      }}
    />
  );
}
