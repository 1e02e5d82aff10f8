import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, type RefObject, useCallback, useEffect, useId, useRef, useState } from 'react';
import { leadKinds, leadStatuses } from '#machines/leads/labels.ts';
import { NOTE_MAX_LENGTH, UNASSIGNED } from '#machines/leads/leads.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import {
  addLeadNote,
  changeLead,
  eraseLead,
  getLeadHistory,
  type Lead,
  type LeadEvent,
  type LeadList,
  type LeadsFilters,
  listLeads,
} from '#src/features/dashboard/dashboard-api.ts';
import { ConfirmDialog } from '#src/features/dashboard/confirm-dialog.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { followUpDue, formatFollowUp, historyLine, kindLabel, leadTitle, statusLabel } from '#src/features/dashboard/leads-view.ts';
import { notify } from '#src/lib/notifications.ts';
import { SearchField } from '#src/features/dashboard/search-field.tsx';
import { SelectField, staffOptions } from '#src/features/dashboard/select-field.tsx';
import { StackedCell } from '#src/features/dashboard/stacked-cell.tsx';
import { useLoaded } from '#src/lib/use-loaded.ts';
import { count } from '#machines/french/plural.ts';

const statusOptions = leadStatuses.map((s) => ({ value: s, label: statusLabel(s) }));

const SEARCH_DELAY_MS = 300;
type Staff = LeadList['staff'][number];

/**
 * `/dashboard/prospects`: pre-registrations and contact messages in one list, newest first
 * (decision 112). Filters by status, assignee and kind, a search box; each row opens a dialog
 * where staff change the status, the assignee and the follow-up date, add a note and read the
 * history. A converted pre-registration links to the member's page. A prospect who asks for the
 * erasure of their data is erased from the same dialog (decision 157).
 */
const LEAD_COLUMNS = ['Reçu le', 'Type', 'Nom et e-mail', 'Statut', 'En charge', 'Relance', 'Suivi'] as const;

/** A cell of the leads table, named by one of its columns. */
function LeadCell({ column, children }: { column: (typeof LEAD_COLUMNS)[number]; children: ReactNode }) {
  return <StackedCell label={column}>{children}</StackedCell>;
}

export function LeadsPage() {
  const ids = { q: useId(), status: useId(), assignee: useId(), kind: useId() };
  const [text, setText] = useState('');
  const [filters, setFilters] = useState<LeadsFilters>({});

  const set = (patch: Partial<LeadsFilters>) => setFilters((prev) => ({ ...prev, page: undefined, ...patch }));

  // The search box filters after a short pause in typing.
  useEffect(() => {
    const trimmed = text.trim();
    const timer = setTimeout(
      () => setFilters((prev) => (prev.q === (trimmed || undefined) ? prev : { ...prev, page: undefined, q: trimmed || undefined })),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text]);

  const { data, error, loading, reload: load } = useLoaded(() => listLeads(filters), [filters]);
  // After an erasure the row and its dialog go: the focus goes to the list's heading.
  const listHeading = useRef<HTMLHeadingElement>(null);

  const now = new Date();
  return (
    <div className={styles.page}>
      <div>
        <h1 className={styles.title}>Prospects</h1>
        <p className={styles.text}>
          Les pré-inscriptions et les messages reçus par le formulaire de contact, les plus récents d’abord. Une pré-inscription dont
          l’adresse a ensuite ouvert un compte est « Convertie » et mène à la fiche du membre.
        </p>
      </div>
      <section className={styles.card} aria-labelledby="leads-title" aria-busy={loading}>
        <h2 id="leads-title" className={styles.cardTitle} ref={listHeading} tabIndex={-1}>
          Boîte des prospects
        </h2>
        <div className={styles.filters}>
          <SearchField
            id={ids.q}
            label="Rechercher (nom, e-mail, ville, message)"
            placeholder="Rechercher un prospect…"
            value={text}
            onChange={setText}
          />
          <SelectField
            id={ids.status}
            label="Statut"
            value={filters.status ?? ''}
            onChange={(value) => set({ status: value || undefined })}
            options={[{ value: '', label: 'Tous les statuts' }, ...statusOptions]}
          />
          <SelectField
            id={ids.assignee}
            label="En charge"
            value={filters.assignee ?? ''}
            onChange={(value) => set({ assignee: value || undefined })}
            options={[{ value: '', label: 'Tout le monde' }, { value: UNASSIGNED, label: 'Personne' }, ...staffOptions(data?.staff ?? [])]}
          />
          <SelectField
            id={ids.kind}
            label="Type"
            value={filters.kind ?? ''}
            onChange={(value) => set({ kind: value || undefined })}
            options={[{ value: '', label: 'Tous les types' }, ...leadKinds.map((k) => ({ value: k, label: kindLabel(k) }))]}
          />
        </div>
        <FormAlert tone="error">{error}</FormAlert>
        {data && data.items.length === 0 ? <p role="status">Aucun prospect ne correspond à ces critères.</p> : null}
        {data && data.items.length > 0 ? (
          <div className={styles.tableWrap}>
            <table className={`${styles.table} ${styles.stackedTable}`}>
              <caption className={styles.caption}>{count(data.total, 'prospect', 'prospects')}</caption>
              <thead>
                <tr>
                  {LEAD_COLUMNS.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.items.map((lead) => (
                  <tr key={lead.id}>
                    <LeadCell column="Reçu le">{formatDateTime(lead.createdAt)}</LeadCell>
                    <LeadCell column="Type">{kindLabel(lead.kind)}</LeadCell>
                    <LeadCell column="Nom et e-mail">
                      {lead.name ? (
                        <>
                          {lead.name}
                          <br />
                        </>
                      ) : null}
                      <span className={styles.muted}>{lead.email}</span>
                      {lead.member ? (
                        <>
                          <br />
                          <Link to="/dashboard/member/$memberId" params={{ memberId: lead.member.id }}>
                            Fiche du membre
                          </Link>
                        </>
                      ) : null}
                    </LeadCell>
                    <LeadCell column="Statut">
                      <span className={styles.badge.neutral}>{statusLabel(lead.status)}</span>
                    </LeadCell>
                    <LeadCell column="En charge">{lead.assignee?.name ?? '—'}</LeadCell>
                    <LeadCell column="Relance">
                      {formatFollowUp(lead.followUpOn)}
                      {lead.followUpOn &&
                      followUpDue(lead.followUpOn, now) &&
                      lead.status !== 'converti' &&
                      lead.status !== 'sans_suite' ? (
                        <span className={styles.badge.danger}> à relancer</span>
                      ) : null}
                    </LeadCell>
                    <LeadCell column="Suivi">
                      <LeadDialog lead={lead} staff={data.staff} onChanged={load} listHeading={listHeading} />
                      {lead.notes.length > 0 ? <span className={styles.muted}> {count(lead.notes.length, 'note', 'notes')}</span> : null}
                    </LeadCell>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {data && data.pageCount > 1 ? (
          <nav className={styles.pager} aria-label="Pagination">
            <Button variant="secondary" disabled={data.page <= 1} onClick={() => setFilters((prev) => ({ ...prev, page: data.page - 1 }))}>
              Précédent
            </Button>
            <span>
              Page {data.page} sur {data.pageCount}
            </span>
            <Button
              variant="secondary"
              disabled={data.page >= data.pageCount}
              onClick={() => setFilters((prev) => ({ ...prev, page: data.page + 1 }))}
            >
              Suivant
            </Button>
          </nav>
        ) : null}
      </section>
    </div>
  );
}

/** The follow-up of one lead in a dialog: its message, status, assignee, follow-up date, notes and history. */
function LeadDialog({
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
  const [history, setHistory] = useState<LeadEvent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [adding, setAdding] = useState(false);
  const who = leadTitle(lead);
  const converted = lead.member !== null;
  const self = staff.find((s) => s.self);

  const loadHistory = useCallback(async () => {
    const result = await getLeadHistory(lead.id);
    if (result.ok) setHistory(result.data.events);
  }, [lead.id]);

  function reset(next: boolean) {
    setOpen(next);
    setError(null);
    if (next) {
      setStatus(lead.status);
      setAssigneeId(lead.assignee?.id ?? '');
      setFollowUpOn(lead.followUpOn ?? '');
      void loadHistory();
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
    await Promise.all([onChanged(), loadHistory()]);
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
    await Promise.all([onChanged(), loadHistory()]);
  }

  async function onErased() {
    setOpen(false);
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
          {lead.kind === 'contact' ? (
            <div>
              <p>
                <strong>Objet :</strong> {lead.details.subject}
              </p>
              <p className={styles.pre}>{lead.details.message}</p>
            </div>
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
          <section aria-labelledby={`${ids.status}-history`}>
            <h3 id={`${ids.status}-history`} className={styles.cardTitle}>
              Historique
            </h3>
            {history === null ? (
              <p className={styles.muted}>Chargement…</p>
            ) : history.length === 0 ? (
              <p className={styles.muted}>Aucune modification pour l’instant.</p>
            ) : (
              <ol className={styles.timeline}>
                {history.map((e) => (
                  <li key={e.id} className={styles.timelineItem}>
                    {formatDateTime(e.at)} — {historyLine(e)}
                  </li>
                ))}
              </ol>
            )}
          </section>
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
