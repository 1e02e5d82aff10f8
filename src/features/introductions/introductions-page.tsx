import { Link } from '@tanstack/react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { StackedCell } from '#src/features/dashboard/stacked-cell.tsx';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import * as own from '#src/features/introductions/introductions.css.ts';
import { staffIntroductionsQuery } from '#src/features/introductions/introduction-queries.ts';
import { answerLabel, deadlineSoon, sideNames, stateFilterOptions } from '#src/features/introductions/introductions-view.ts';
import { errorMessage } from '#src/lib/query-client.ts';
import { count } from '#machines/french/plural.ts';

/**
 * `/dashboard/mises-en-relation`: every introduction staff follow, the open ones by default with
 * the nearest deadline first; a filter by state; each row opens the introduction and both files.
 */
export function IntroductionsPage() {
  const filterId = useId();
  const [etat, setEtat] = useState('ouvertes');
  const list = useQuery({ ...staffIntroductionsQuery(etat), placeholderData: keepPreviousData });
  const { data } = list;
  const error = errorMessage(list.error);
  const loading = list.isFetching;
  const items = data?.introductions ?? null;

  const now = Date.now();
  return (
    <div className={styles.page}>
      <div>
        <h1 className={styles.title}>Mises en relation</h1>
        <p className={styles.text}>
          Les propositions faites aux membres et leur suite : réponses, première rencontre, retours. Pour proposer quelqu’un, ouvrez la
          fiche d’un membre actif et sa liste de candidats.
        </p>
      </div>
      <section className={styles.card} aria-labelledby="introductions-title" aria-busy={loading}>
        <h2 id="introductions-title" className={styles.cardTitle}>
          Suivi
        </h2>
        <div className={styles.filters}>
          <label className={`${styles.control} ${own.fitControl}`} htmlFor={filterId}>
            État
            <select id={filterId} className={`${styles.input} ${own.fitSelect}`} value={etat} onChange={(e) => setEtat(e.target.value)}>
              {stateFilterOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <FormAlert tone="error">{error}</FormAlert>
        {items && items.length === 0 ? <p role="status">Aucune mise en relation dans cet état.</p> : null}
        {items && items.length > 0 ? (
          <div className={styles.tableWrap}>
            <table className={`${styles.table} ${styles.stackedTable}`}>
              <caption className={styles.caption}>{count(items.length, 'mise en relation', 'mises en relation')}</caption>
              <thead>
                <tr>
                  <th scope="col">Mise en relation</th>
                  <th scope="col">État</th>
                  <th scope="col">Réponses</th>
                  <th scope="col">Réponse attendue avant</th>
                  <th scope="col">Proposée le</th>
                  <th scope="col">Fiches</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => {
                  const names = sideNames(item.members);
                  const answering = item.state.startsWith('proposee');
                  return (
                    <tr key={item.id}>
                      <StackedCell label="Mise en relation">
                        <Link
                          to="/dashboard/mises-en-relation/$id"
                          params={{ id: item.id }}
                          aria-label={`Ouvrir la mise en relation ${names.a} et ${names.b}`}
                        >
                          {names.a} et {names.b}
                        </Link>
                      </StackedCell>
                      <StackedCell label="État">
                        <span className={own.stateBadge}>{item.stateLabel}</span>
                      </StackedCell>
                      <StackedCell label="Réponses">
                        {names.a} : {answerLabel(item.answers.a)}
                        <br />
                        {names.b} : {answerLabel(item.answers.b)}
                      </StackedCell>
                      <StackedCell label="Réponse attendue avant">
                        {answering ? formatDateTime(item.deadlineAt) : '—'}
                        {answering && deadlineSoon(item.deadlineAt, now) ? (
                          <span className={styles.badge.danger}> bientôt échue</span>
                        ) : null}
                      </StackedCell>
                      <StackedCell label="Proposée le">{formatDateTime(item.proposedAt)}</StackedCell>
                      <StackedCell label="Fiches">
                        <Link to="/dashboard/member/$memberId" params={{ memberId: item.members.a.id }}>
                          {names.a}
                        </Link>
                        <br />
                        <Link to="/dashboard/member/$memberId" params={{ memberId: item.members.b.id }}>
                          {names.b}
                        </Link>
                      </StackedCell>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </div>
  );
}
