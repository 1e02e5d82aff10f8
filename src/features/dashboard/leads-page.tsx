import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { count } from '#machines/french/plural.ts';
import { leadKinds, leadStatuses } from '#machines/leads/labels.ts';
import { leadSubjects, UNASSIGNED } from '#machines/leads/leads.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { type LeadsFilters, listLeads } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { LeadDialog } from '#src/features/dashboard/lead-dialog.tsx';
import { followUpDue, formatFollowUp, kindLabel, statusLabel } from '#src/features/dashboard/leads-view.ts';
import { SearchField } from '#src/features/dashboard/search-field.tsx';
import { SelectField, staffOptions } from '#src/features/dashboard/select-field.tsx';
import { StackedCell } from '#src/features/dashboard/stacked-cell.tsx';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';

const statusOptions = leadStatuses.map((s) => ({ value: s, label: statusLabel(s) }));

const SEARCH_DELAY_MS = 300;

/**
 * `/dashboard/prospects`: pre-registrations and contact messages in one list, newest first
 * (decision 112), each with its subject. Filters by status, assignee, kind, subject and period of
 * reception, a search box; each row opens a dialog (`lead-dialog.tsx`) where staff change the
 * status, the assignee and the follow-up date, add a note, answer by mail (decision 211) and read
 * the history. A converted pre-registration links to the member's page. A prospect who asks for the
 * erasure of their data is erased from the same dialog (decision 157).
 */
const LEAD_COLUMNS = ['Reçu le', 'Type', 'Objet', 'Nom et e-mail', 'Statut', 'En charge', 'Relance', 'Suivi'] as const;

/** A cell of the leads table, named by one of its columns. */
function LeadCell({ column, children }: { column: (typeof LEAD_COLUMNS)[number]; children: ReactNode }) {
  return <StackedCell label={column}>{children}</StackedCell>;
}

export function LeadsPage() {
  const ids = { q: useId(), status: useId(), assignee: useId(), kind: useId(), subject: useId(), from: useId(), to: useId() };
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

  // Another filter or page: the list shown stays until the new one arrives.
  const query = useQuery({
    queryKey: staffKeys.leadList(filters),
    queryFn: () => unwrap(listLeads(filters)),
    placeholderData: keepPreviousData,
  });
  const { data } = query;
  const error = errorMessage(query.error);
  const loading = query.isFetching;
  const client = useQueryClient();
  // A lead changed (status, note, answer, erasure): the lists and the dashboard's funnel are asked again.
  const load = async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: staffKeys.leads }),
      client.invalidateQueries({ queryKey: staffKeys.leadFunnel }),
    ]);
  };
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
          <SelectField
            id={ids.subject}
            label="Objet"
            value={filters.subject ?? ''}
            onChange={(value) => set({ subject: value || undefined })}
            options={[{ value: '', label: 'Tous les objets' }, ...leadSubjects.map((s) => ({ value: s, label: s }))]}
          />
          <DayField id={ids.from} label="Reçu depuis le" value={filters.from} onChange={(from) => set({ from })} />
          <DayField id={ids.to} label="Reçu jusqu’au" value={filters.to} onChange={(to) => set({ to })} />
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
                    <LeadCell column="Objet">{lead.subject}</LeadCell>
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

/** A day of the period filter: a date input, empty for no bound. */
function DayField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string | undefined;
  onChange: (day: string | undefined) => void;
}) {
  return (
    <label className={styles.control} htmlFor={id}>
      {label}
      <input id={id} type="date" className={styles.input} value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)} />
    </label>
  );
}
