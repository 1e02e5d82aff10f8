import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CANDIDATES_RULE_TEXT } from '#machines/introductions/candidate-lists.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { CandidateFilters } from '#src/features/introductions/candidate-filters.tsx';
import { CandidateItem } from '#src/features/introductions/candidate-item.tsx';
import { NeverProposePart, ShortlistPart } from '#src/features/introductions/candidate-lists-parts.tsx';
import {
  type CandidateFilterValues,
  getNeverPropose,
  getShortlist,
  listCandidates,
  NO_CANDIDATE_FILTERS,
} from '#src/features/introductions/introductions-api.ts';
import * as own from '#src/features/introductions/introductions.css.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';

type Mode = 'criteres' | 'hors';

/**
 * The "Candidats" section of a member's file: active members of the other gender that break no
 * indispensable criterion of either side, ranked by the two-way score, each with a table of the
 * criteria both ways; and, on demand, those outside an indispensable criterion, which staff may
 * still propose with a reason written to the member (decision 193). "Proposer" sends a note to each.
 */
export function CandidatesSection({ memberId, memberName, active }: { memberId: string; memberName: string; active: boolean }) {
  const [mode, setMode] = useState<Mode>('criteres');
  const [filters, setFilters] = useState<CandidateFilterValues>(NO_CANDIDATE_FILTERS);
  const [page, setPage] = useState(1);
  const outside = mode === 'hors';
  const client = useQueryClient();
  // Another page, mode or filter: the list shown stays until the new one arrives.
  const list = useQuery({
    queryKey: memberFileKeys.candidateList(memberId, outside, filters, page),
    queryFn: () => unwrap(listCandidates(memberId, outside, filters, page)),
    enabled: active,
    placeholderData: keepPreviousData,
  });
  const lists = useQuery({ queryKey: memberFileKeys.shortlist(memberId), queryFn: () => unwrap(getShortlist(memberId)), enabled: active });
  const never = useQuery({
    queryKey: memberFileKeys.neverPropose(memberId),
    queryFn: () => unwrap(getNeverPropose(memberId)),
    enabled: active,
  });
  const data = list.data;
  const error = errorMessage(list.error);
  const candidates = data?.candidates ?? null;
  // « …, le maximum. » read inside a sentence ending with its own full stop.
  const blocked = data?.member.unavailableReason?.replace(/\.$/, '') ?? null;
  // A shortlist or never-propose change: the candidates and both lists are asked again.
  const refresh = () => void client.invalidateQueries({ queryKey: memberFileKeys.candidates(memberId) });
  const first = ((data?.page ?? page) - 1) * (data?.perPage ?? 20);

  return (
    <section className={styles.card} aria-labelledby="candidates-title">
      <h2 id="candidates-title" className={styles.cardTitle}>
        Candidats
      </h2>
      {!active ? (
        <p className={styles.muted}>Les candidats s’affichent une fois le membre actif (parcours d’inscription terminé).</p>
      ) : (
        <>
          <div className={own.modeSwitch}>
            <Button
              variant={mode === 'criteres' ? 'primary' : 'secondary'}
              aria-pressed={mode === 'criteres'}
              onClick={() => {
                setMode('criteres');
                setPage(1);
              }}
            >
              Dans les critères
            </Button>
            <Button
              variant={mode === 'hors' ? 'primary' : 'secondary'}
              aria-pressed={mode === 'hors'}
              onClick={() => {
                setMode('hors');
                setPage(1);
              }}
            >
              Hors critères indispensables
            </Button>
          </div>
          <p className={styles.muted} data-testid="candidates-rule">
            {mode === 'criteres'
              ? CANDIDATES_RULE_TEXT
              : 'Les membres actifs qui s’écartent d’au moins un critère indispensable, d’un côté ou de l’autre. Pour en proposer un, écrivez au membre concerné pourquoi : il lira votre explication avec la proposition.'}
          </p>
          <CandidateFilters
            sought={data?.member.gender === 'homme' ? 'femme' : data?.member.gender === 'femme' ? 'homme' : null}
            value={filters}
            onChange={(next) => {
              setFilters(next);
              setPage(1);
            }}
          />
          <FormAlert tone="error">{error}</FormAlert>
          {candidates === null && !error ? <p className={styles.muted}>Chargement…</p> : null}
          {candidates?.length === 0 ? (
            <p role="status">
              {blocked
                ? `Aucune proposition possible pour l’instant. Raison : ${blocked}.`
                : page > 1
                  ? 'Aucun candidat de plus.'
                  : 'Aucun candidat pour l’instant.'}
            </p>
          ) : null}
          {candidates && candidates.length > 0 ? (
            <ol className={own.candidates} aria-label={`Candidats pour ${memberName}`} start={first + 1}>
              {candidates.map((c, index) => (
                <CandidateItem
                  key={c.memberId}
                  candidate={c}
                  index={first + index}
                  memberId={memberId}
                  memberName={memberName}
                  onListsChanged={refresh}
                />
              ))}
            </ol>
          ) : null}
          {page > 1 || data?.hasMore ? (
            <nav className={styles.actions} aria-label="Pages de candidats" data-testid="candidates-pages">
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Candidats précédents
              </Button>
              <span className={styles.muted}>Page {page}</span>
              <Button variant="secondary" disabled={!data?.hasMore} onClick={() => setPage(page + 1)}>
                Candidats suivants
              </Button>
            </nav>
          ) : null}
          <ShortlistPart memberId={memberId} entries={lists.data?.shortlist ?? []} onChanged={refresh} />
          <NeverProposePart memberId={memberId} entries={never.data?.pairs ?? []} onChanged={refresh} />
        </>
      )}
    </section>
  );
}
