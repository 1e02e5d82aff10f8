import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '@tanstack/react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { leadStatuses } from '#machines/leads/labels.ts';
import { NOTE_MAX_LENGTH } from '#machines/leads/leads.ts';
import { count } from '#machines/french/plural.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { ConfirmDialog } from '#src/features/dashboard/confirm-dialog.tsx';
import { addLeadNote, changeLead, eraseLead, getLeadHistory, type Lead, type LeadList } from '#src/features/dashboard/dashboard-api.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { unwrap } from '#src/lib/query-client.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { LeadAnswerForm } from '#src/features/dashboard/lead-answer-form.tsx';
import { LeadAnswers, LeadHistory } from '#src/features/dashboard/lead-history.tsx';
import { kindLabel, leadTitle, statusLabel } from '#src/features/dashboard/leads-view.ts';
import { SelectField, staffOptions } from '#src/features/dashboard/select-field.tsx';
import { notify } from '#src/lib/notifications.ts';

/**
 * A lead's history and the answers sent, asked at each opening of its dialog (never fresh: an
 * answer's delivery moves from « En cours d’envoi » to « Envoyé » meanwhile) and while it is open.
 * Its key is under `staffKeys.leads`: the page's `onChanged` (after a change, a note or an answer)
 * invalidates the lists and, with them, the open dialog's history.
 */
const leadHistoryQuery = (leadId: string) => ({
  queryKey: staffKeys.leadHistory(leadId),
  queryFn: () => unwrap(getLeadHistory(leadId)),
  staleTime: 0,
});

const statusOptions = leadStatuses.map((s) => ({ value: s, label: statusLabel(s) }));
type Staff = LeadList['staff'][number];

/** The follow-up of one lead in a dialog: its message, status, assignee, follow-up date, notes and history. */
export function LeadDialog({
  lead,
  staff,
  onChanged,
  listHeading,
}: {
  lead: Lead;
  staff: Staff[];
  onChanged: () => Promise<void>;
  listHeading: RefObject<HTMLHeadingElement | null>;
}) {
  const ids = { status: useId(), assignee: useId(), date: useId(), note: useId() };
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState(lead.status);
  const [assigneeId, setAssigneeId] = useState(lead.assignee?.id ?? '');
  const [followUpOn, setFollowUpOn] = useState(lead.followUpOn ?? '');
  const [note, setNote] = useState('');
  const client = useQueryClient();
  const historyQuery = useQuery({ ...leadHistoryQuery(lead.id), enabled: open });
  const history = historyQuery.data?.events ?? null;
  const answers = historyQuery.data?.answers ?? null;
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [adding, setAdding] = useState(false);
  const who = leadTitle(lead);
  const converted = lead.member !== null;
  const self = staff.find((s) => s.self);

  // An answer moves the status and the assignee (server side): the form follows the list's reload.
  useEffect(() => {
    setStatus(lead.status);
    setAssigneeId(lead.assignee?.id ?? '');
  }, [lead.status, lead.assignee?.id]);

  function reset(next: boolean) {
    setOpen(next);
    setError(null);
    if (next) {
      setStatus(lead.status);
      setAssigneeId(lead.assignee?.id ?? '');
      setFollowUpOn(lead.followUpOn ?? '');
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    const result = await changeLead(lead.id, {
      ...(converted ? {} : { status }),
      assigneeId: assigneeId || null,
      followUpOn: followUpOn || null,
    });
    setSaving(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    notify({ title: result.data.changed.length > 0 ? 'Suivi enregistré.' : 'Rien n’a changé.', variant: 'success' });
    await onChanged();
  }

  async function addNote(event: FormEvent) {
    event.preventDefault();
    setAdding(true);
    setError(null);
    const result = await addLeadNote(lead.id, note);
    setAdding(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setNote('');
    notify({ title: 'Note ajoutée.', variant: 'success' });
    await onChanged();
  }

  async function onErased() {
    setOpen(false);
    // The lead is gone: its history leaves the cache before the lists are asked again (the dialog
    // is still open for this render, and its query would be asked, for a 404).
    client.removeQueries({ queryKey: staffKeys.leadHistory(lead.id) });
    await onChanged();
    listHeading.current?.focus();
  }

  return (
    <Dialog.Root open={open} onOpenChange={reset}>
      <Dialog.Trigger asChild>
        <Button variant="secondary" aria-label={`Suivre ${who}`}>
          Suivre
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content className={styles.dialog}>
          <Dialog.Title className={styles.dialogTitle}>
            {kindLabel(lead.kind)} : {who}
          </Dialog.Title>
          <Dialog.Description className={styles.muted}>Reçu le {formatDateTime(lead.createdAt)}</Dialog.Description>
          <p>
            <strong>Objet :</strong> {lead.subject}
          </p>
          {lead.kind === 'contact' ? (
            <p className={styles.pre}>{lead.details.message}</p>
          ) : (
            <p>
              {lead.details.gender === 'homme' ? 'Homme' : 'Femme'}, {lead.details.age} ans, {lead.details.zipCode} {lead.details.city}
            </p>
          )}
          {lead.member ? (
            <p>
              A ouvert un compte :{' '}
              <Link to="/dashboard/member/$memberId" params={{ memberId: lead.member.id }}>
                voir la fiche du membre
              </Link>
            </p>
          ) : null}
          <FormAlert tone="error">{error}</FormAlert>
          <form className={styles.form} onSubmit={save} aria-label="Suivi du prospect">
            <SelectField
              id={ids.status}
              label="Statut"
              value={status}
              disabled={converted}
              onChange={(value) => setStatus(value as Lead['status'])}
              options={statusOptions}
            />
            <SelectField
              id={ids.assignee}
              label="En charge"
              value={assigneeId}
              onChange={setAssigneeId}
              options={[{ value: '', label: 'Personne' }, ...staffOptions(staff)]}
            />
            {self && assigneeId !== self.id ? (
              <Button type="button" variant="ghost" onClick={() => setAssigneeId(self.id)}>
                M’en charger
              </Button>
            ) : null}
            <label className={styles.control} htmlFor={ids.date}>
              Date de relance
              <input
                id={ids.date}
                type="date"
                className={styles.input}
                value={followUpOn}
                onChange={(e) => setFollowUpOn(e.target.value)}
              />
            </label>
            <div className={styles.actions}>
              <Button type="submit" loading={saving} loadingText="Enregistrement…">
                Enregistrer le suivi
              </Button>
            </div>
          </form>
          <section aria-labelledby={`${ids.note}-title`}>
            <h3 id={`${ids.note}-title`} className={styles.cardTitle}>
              Notes
            </h3>
            {lead.notes.length === 0 ? <p className={styles.muted}>Aucune note.</p> : null}
            <ul className={styles.messages}>
              {lead.notes.map((n) => (
                <li key={n.id} className={styles.message}>
                  <p className={styles.muted}>
                    {n.author}, le {formatDateTime(n.at)}
                  </p>
                  <p className={styles.pre}>{n.body}</p>
                </li>
              ))}
            </ul>
            <form className={styles.form} onSubmit={addNote}>
              <label className={styles.control} htmlFor={ids.note}>
                Nouvelle note
                <textarea
                  id={ids.note}
                  className={styles.textarea}
                  value={note}
                  maxLength={NOTE_MAX_LENGTH}
                  onChange={(e) => setNote(e.target.value)}
                />
              </label>
              <div className={styles.actions}>
                <Button type="submit" variant="secondary" loading={adding} loadingText="Ajout…" disabled={note.trim() === ''}>
                  Ajouter la note
                </Button>
              </div>
            </form>
          </section>
          <LeadAnswerForm lead={lead} onSent={onChanged} />
          <LeadAnswers answers={answers} titleId={`${ids.status}-answers`} />
          <LeadHistory events={history} titleId={`${ids.status}-history`} />
          {converted ? null : (
            <section aria-labelledby={`${ids.status}-erase`}>
              <h3 id={`${ids.status}-erase`} className={styles.cardTitle}>
                Demande d’effacement
              </h3>
              <p className={styles.muted}>
                Si cette personne demande la suppression de ses données (RGPD, article 17), effacez tout ce qui concerne son adresse.
              </p>
              <EraseLeadDialog lead={lead} onErased={onErased} />
            </section>
          )}
          <div className={styles.actions}>
            <Dialog.Close asChild>
              <Button variant="ghost">Fermer</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The erasure of a prospect's data, after a confirmation that says what goes (decision 157). */
function EraseLeadDialog({ lead, onErased }: { lead: Lead; onErased: () => Promise<void> }) {
  const done = useRef(false);
  return (
    <ConfirmDialog
      trigger={
        <Button variant="dangerOutline" aria-label={`Effacer les données de ${lead.email}`}>
          Effacer ses données
        </Button>
      }
      title={<>Effacer les données de {lead.email} ?</>}
      description={
        <>
          Les pré-inscriptions et messages de contact de cette adresse, leur suivi, leurs notes et leur historique, ainsi que les e-mails
          qui la concernent, sont supprimés définitivement. Les preuves de consentement sont gardées sans rien qui permette de l’identifier.
        </>
      }
      confirmLabel="Effacer définitivement"
      busyLabel="Effacement…"
      request={() => eraseLead(lead.id)}
      onConfirmed={async (data) => {
        notify({
          title: `Données de ${lead.email} effacées.`,
          description: `${count(data.erased.preRegistrations, 'pré-inscription', 'pré-inscriptions')}, ${count(data.erased.contactMessages, 'message de contact', 'messages de contact')}, ${count(data.erased.mails, 'e-mail', 'e-mails')}.`,
          variant: 'success',
        });
        done.current = true;
        await onErased();
      }}
      onCloseAutoFocus={(event) => {
        // Cancelled: back to this button. Erased: the lead is gone, `onErased` moved the focus.
        if (done.current) event.preventDefault();
      }}
    />
  );
}
