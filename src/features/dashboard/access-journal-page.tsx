import { Link } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { accessJournalExportHref, getAccessJournal, type JournalFilters } from '#src/features/dashboard/access-journal-api.ts';
import { listStaff } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { journalFiltersText } from '#machines/staff/journal-filters.ts';
import { StackedCell } from '#src/features/dashboard/stacked-cell.tsx';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { count } from '#machines/french/plural.ts';

/**
 * `/dashboard/journal` (issue 63 point 5, decision 206): every read of members' data by the team,
 * newest first, filtered by period, colleague and what was read, 50 a page, with the CSV export of
 * the same filters. For the administration; the server refuses anyone else (and records this read).
 */
export function AccessJournalPage() {
  const ids = { from: useId(), to: useId(), staff: useId(), what: useId() };
  const [filters, setFilters] = useState<JournalFilters>({});
  const journal = useQuery({
    queryKey: staffKeys.accessJournal(filters),
    queryFn: () => unwrap(getAccessJournal(filters)),
    placeholderData: keepPreviousData,
  });
  const { data } = journal;
  const error = errorMessage(journal.error);
  const loading = journal.isFetching;
  const team = useQuery({ queryKey: staffKeys.team, queryFn: () => unwrap(listStaff()) });
  const set = (patch: Partial<JournalFilters>) => setFilters((prev) => ({ ...prev, page: undefined, ...patch }));
  const page = data?.page ?? 1;

  return (
    <div className={styles.page}>
      <div>
        <h1 className={styles.title}>Journal des accès</h1>
        <p className={styles.text}>
          Chaque lecture des données des membres par l’équipe : qui, quand, quoi. Les membres retrouvent les lectures de leur dossier dans
          l’export de leurs données, sans le nom de la personne. Les entrées sont conservées 12 mois.
        </p>
      </div>
      <section className={styles.card} aria-labelledby="journal-title" aria-busy={loading}>
        <h2 id="journal-title" className={styles.cardTitle}>
          Lectures
        </h2>
        <div className={styles.filters}>
          <label className={styles.control} htmlFor={ids.from}>
            Du
            <input
              id={ids.from}
              type="date"
              className={styles.input}
              value={filters.du ?? ''}
              onChange={(e) => set({ du: e.target.value })}
            />
          </label>
          <label className={styles.control} htmlFor={ids.to}>
            Au
            <input
              id={ids.to}
              type="date"
              className={styles.input}
              value={filters.au ?? ''}
              onChange={(e) => set({ au: e.target.value })}
            />
          </label>
          <label className={styles.control} htmlFor={ids.staff}>
            Membre de l’équipe
            <select id={ids.staff} className={styles.input} value={filters.equipe ?? ''} onChange={(e) => set({ equipe: e.target.value })}>
              <option value="">Toute l’équipe</option>
              {(team.data?.staff ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.control} htmlFor={ids.what}>
            Lecture
            <select id={ids.what} className={styles.input} value={filters.quoi ?? ''} onChange={(e) => set({ quoi: e.target.value })}>
              <option value="">Toutes les lectures</option>
              {(data?.resources ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
          <a href={accessJournalExportHref(filters)} download data-testid="journal-export">
            Exporter en CSV (Excel)
          </a>
        </div>
        {error ? <p role="alert">{error}</p> : null}
        {data ? (
          <>
            <p className={styles.muted} data-testid="journal-total">
              {count(data.total, 'lecture', 'lectures')} · page {page} sur {data.pageCount}
            </p>
            {data.entries.length === 0 ? (
              <p className={styles.muted}>Aucune lecture pour ces critères.</p>
            ) : (
              <div className={styles.tableWrap}>
                <table className={`${styles.table} ${styles.stackedTable}`} data-testid="journal-entries">
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Membre de l’équipe</th>
                      <th scope="col">Membre</th>
                      <th scope="col">Lecture</th>
                      <th scope="col">Filtres</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.entries.map((e) => (
                      <tr key={e.id}>
                        <StackedCell label="Date">{formatDateTime(e.at)}</StackedCell>
                        <StackedCell label="Membre de l’équipe">{e.staff.name}</StackedCell>
                        <StackedCell label="Membre">
                          {e.member ? (
                            <Link to="/dashboard/member/$memberId" params={{ memberId: e.member.id }}>
                              {e.member.name}
                            </Link>
                          ) : (
                            'Liste de l’agence'
                          )}
                        </StackedCell>
                        <StackedCell label="Lecture">{e.label}</StackedCell>
                        <StackedCell label="Filtres">{journalFiltersText(e.detail)}</StackedCell>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {data.pageCount > 1 ? (
              <nav aria-label="Pages du journal" className={styles.actions}>
                <Button variant="secondary" disabled={page <= 1} onClick={() => setFilters((f) => ({ ...f, page: String(page - 1) }))}>
                  Page précédente
                </Button>
                <Button
                  variant="secondary"
                  disabled={page >= data.pageCount}
                  onClick={() => setFilters((f) => ({ ...f, page: String(page + 1) }))}
                >
                  Page suivante
                </Button>
              </nav>
            ) : null}
          </>
        ) : null}
      </section>
    </div>
  );
}
