import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { count } from '#machines/french/plural.ts';
import { practiceLevels } from '#machines/matching/match-profile.ts';
import { homeRegions } from '#machines/matching/regions.ts';
import { prayerPracticeLabels, regionLabels, stateLabel } from '#machines/onboarding/labels.ts';
import { steps } from '#machines/onboarding/steps.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { listMembers, type MemberListItem, memberExportHref, PER_PAGE } from '#src/features/dashboard/dashboard-api.ts';
import {
  type DashboardEndState,
  type DashboardSearch,
  DashboardSearchSchema,
  dashboardEndStates,
  type MemberListSort,
  memberPageSizes,
} from '#src/features/dashboard/dashboard-search.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime as formatDate } from '#src/features/dashboard/format-fr.ts';
import { FollowUpFilters } from '#src/features/dashboard/member-list-filters.tsx';
import * as listStyles from '#src/features/dashboard/member-list.css.ts';
import { SearchField } from '#src/features/dashboard/search-field.tsx';
import { SelectField } from '#src/features/dashboard/select-field.tsx';
import { StackedCell } from '#src/features/dashboard/stacked-cell.tsx';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { BulkBar } from '#src/features/dashboard/member-list-bulk.tsx';
import { useSession } from '#src/lib/use-session.ts';

const route = getRouteApi('/dashboard/_staff/');

/** The step filter's words for the states without a step number, in the plural. */
const endStateFilterLabels: Record<DashboardEndState, string> = {
  'membre-actif': 'Membres actifs',
  'resiliation-demandee': 'Résiliations demandées (motif légitime)',
  renonce: 'Contrats annulés (renonciation)',
  retracte: 'Contrats résiliés (rétractation)',
  'contrat-termine': 'Contrats terminés',
  resilie: 'Contrats résiliés (motif légitime)',
  desactive: 'Comptes désactivés',
};

const stepOptions = [
  { value: '', label: 'Toutes les étapes' },
  ...steps.map((s) => ({ value: s.id, label: `${s.number}. ${s.title}` })),
  ...dashboardEndStates.map((id) => ({ value: id, label: endStateFilterLabels[id] })),
];
const genderOptions = [
  { value: '', label: 'Femmes et hommes' },
  { value: 'femme', label: 'Femmes' },
  { value: 'homme', label: 'Hommes' },
];
const regionOptions = [{ value: '', label: 'Toutes les régions' }, ...homeRegions.map((r) => ({ value: r, label: regionLabels[r] }))];
const practiceOptions = [
  { value: '', label: 'Toutes les pratiques' },
  ...practiceLevels.map((p) => ({ value: p, label: prayerPracticeLabels[p] })),
];
const pageSizeOptions = memberPageSizes.map((size) => ({ value: String(size), label: `${size} par page` }));

/** The column headers one can sort by, and the order a first click gives (as the server's default). */
const SORTABLE: { sort: MemberListSort; label: string; first: 'asc' | 'desc' }[] = [
  { sort: 'name', label: 'Nom', first: 'asc' },
  { sort: 'age', label: 'Âge', first: 'asc' },
  { sort: 'stage', label: 'Étape', first: 'asc' },
  { sort: 'counsellor', label: 'Conseiller·ère', first: 'asc' },
  { sort: 'created', label: 'Inscription', first: 'desc' },
];
const SORT_OPTIONS = [
  { value: 'created:desc', label: 'Inscription (récentes d’abord)' },
  { value: 'created:asc', label: 'Inscription (anciennes d’abord)' },
  { value: 'updated:desc', label: 'Dernière activité' },
  { value: 'name:asc', label: 'Nom (A → Z)' },
  { value: 'name:desc', label: 'Nom (Z → A)' },
  { value: 'age:asc', label: 'Âge (les plus jeunes d’abord)' },
  { value: 'age:desc', label: 'Âge (les plus âgés d’abord)' },
  { value: 'stage:asc', label: 'Étape (du début à la fin)' },
  { value: 'counsellor:asc', label: 'Suivi par (A → Z)' },
  { value: 'email:asc', label: 'E-mail (A → Z)' },
] as const;
const defaultDir = (sort: MemberListSort) => (sort === 'created' || sort === 'updated' ? 'desc' : 'asc');

const TYPING_DELAY_MS = 300;

/** A text the URL follows after a short pause in typing (search, ages). */
function useDebounced(value: string | undefined, commit: (text: string) => void) {
  const [text, setText] = useState(value ?? '');
  const committed = useRef(value ?? '');
  // The URL changed from elsewhere (a link, « Effacer les filtres »): the box follows.
  useEffect(() => {
    if ((value ?? '') !== committed.current) {
      committed.current = value ?? '';
      setText(value ?? '');
    }
  }, [value]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `commit` is rebuilt each render; only the text matters
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = trimmed;
      commit(trimmed);
    }, TYPING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return [text, setText] as const;
}

/**
 * The member list of `/dashboard` (issue 63 point 3, decision 210): filters in the URL, sortable
 * columns, a chosen page size, a selection with bulk actions (entrust to a counsellor, tag, send a
 * templated message) and the CSV of the filtered list. On a phone the rows become cards.
 */
export function MemberList() {
  // Parsed here, not in the route (see src/routes/dashboard/_staff/index.tsx): malformed values fall back to defaults.
  // Memoised on the URL's values: a new object each render would refetch the list in a loop.
  const raw = route.useSearch();
  const key = JSON.stringify(raw);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is `raw`'s value; its identity may change each render
  const search = useMemo(() => DashboardSearchSchema(raw), [key]);
  const navigate = route.useNavigate();
  const session = useSession();
  const isAdministration = session.user?.staffRole === 'administration';
  const ids = {
    q: useId(),
    step: useId(),
    sort: useId(),
    gender: useId(),
    ageMin: useId(),
    ageMax: useId(),
    region: useId(),
    practice: useId(),
    perPage: useId(),
  };
  const perPage = search.perPage ?? PER_PAGE;
  // Another filter or page: the list shown stays until the new one arrives.
  const list = { queryKey: staffKeys.memberList(search), queryFn: () => unwrap(listMembers({ ...search, perPage })) };
  const query = useQuery({ ...list, placeholderData: keepPreviousData });
  const { data } = query;
  const error = errorMessage(query.error);
  const loading = query.isFetching;
  const client = useQueryClient();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);

  const go = (patch: Partial<DashboardSearch>) => navigate({ search: (prev) => ({ ...prev, page: undefined, ...patch }), replace: true });
  const [text, setText] = useDebounced(search.q, (q) => void go({ q: q || undefined }));
  const ageOf = (value: string) => (/^\d{2,3}$/.test(value) && Number(value) >= 18 && Number(value) <= 120 ? Number(value) : undefined);
  const [ageMin, setAgeMin] = useDebounced(search.ageMin?.toString(), (v) => void go({ ageMin: ageOf(v) }));
  const [ageMax, setAgeMax] = useDebounced(search.ageMax?.toString(), (v) => void go({ ageMax: ageOf(v) }));

  // Another filter or page: the selection was of rows no longer shown.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the selection follows the URL's list
  useEffect(() => setSelected(new Set()), [key]);

  const sort = search.sort ?? 'created';
  const dir = search.dir ?? defaultDir(sort);
  const filters = { ...search, page: undefined, perPage: undefined };
  const anyFilter = Boolean(
    search.q ||
      search.step ||
      search.tag ||
      search.counsellor ||
      search.gender ||
      search.ageMin ||
      search.ageMax ||
      search.region ||
      search.practice,
  );
  const pageIds = data?.items.map((m) => m.id) ?? [];
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const someOnPage = pageIds.some((id) => selected.has(id));

  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const togglePage = () => setSelected(allOnPage ? new Set() : new Set(pageIds));

  return (
    <section className={styles.card} aria-labelledby="members-title" aria-busy={loading}>
      <div className={listStyles.head}>
        <h2 id="members-title" className={styles.cardTitle}>
          Membres
        </h2>
        <a className={listStyles.exportLink} href={memberExportHref(filters)} download data-testid="members-export">
          Exporter la liste (CSV)
        </a>
      </div>
      <search className={listStyles.filters} aria-label="Filtres de la liste des membres">
        <SearchField id={ids.q} label="Rechercher (e-mail ou nom)" placeholder="Rechercher un membre…" value={text} onChange={setText} />
        <SelectField
          id={ids.step}
          label="Étape"
          value={search.step ?? ''}
          onChange={(value) => void go({ step: (value || undefined) as DashboardSearch['step'] })}
          options={stepOptions}
        />
        <SelectField
          id={ids.gender}
          label="Sexe"
          value={search.gender ?? ''}
          onChange={(value) => void go({ gender: (value || undefined) as DashboardSearch['gender'] })}
          options={genderOptions}
        />
        <label className={styles.control} htmlFor={ids.ageMin}>
          Âge minimum
          <input
            id={ids.ageMin}
            className={styles.input}
            type="number"
            inputMode="numeric"
            min={18}
            max={120}
            placeholder="18"
            value={ageMin}
            onChange={(e) => setAgeMin(e.target.value)}
          />
        </label>
        <label className={styles.control} htmlFor={ids.ageMax}>
          Âge maximum
          <input
            id={ids.ageMax}
            className={styles.input}
            type="number"
            inputMode="numeric"
            min={18}
            max={120}
            placeholder="120"
            value={ageMax}
            onChange={(e) => setAgeMax(e.target.value)}
          />
        </label>
        <SelectField
          id={ids.region}
          label="Région"
          value={search.region ?? ''}
          onChange={(value) => void go({ region: value || undefined })}
          options={regionOptions}
        />
        <SelectField
          id={ids.practice}
          label="Pratique (si consentie)"
          value={search.practice ?? ''}
          onChange={(value) => void go({ practice: value || undefined })}
          options={practiceOptions}
        />
        <FollowUpFilters tag={search.tag} counsellor={search.counsellor} onChange={(patch) => void go(patch)} />
        <SelectField
          id={ids.sort}
          label="Trier par"
          value={SORT_OPTIONS.some((o) => o.value === `${sort}:${dir}`) ? `${sort}:${dir}` : 'created:desc'}
          onChange={(value) => {
            const [nextSort, nextDir] = value.split(':') as [MemberListSort, 'asc' | 'desc'];
            void go({ sort: nextSort, dir: nextDir });
          }}
          options={SORT_OPTIONS}
        />
        <SelectField
          id={ids.perPage}
          label="Par page"
          value={String(perPage)}
          onChange={(value) => void go({ perPage: Number(value) as DashboardSearch['perPage'] })}
          options={pageSizeOptions}
        />
        {anyFilter ? (
          <Button
            variant="secondary"
            onClick={() =>
              void navigate({
                search: (prev) => ({
                  ...prev,
                  q: undefined,
                  step: undefined,
                  tag: undefined,
                  counsellor: undefined,
                  gender: undefined,
                  ageMin: undefined,
                  ageMax: undefined,
                  region: undefined,
                  practice: undefined,
                  page: undefined,
                }),
                replace: true,
              })
            }
          >
            Effacer les filtres
          </Button>
        ) : null}
      </search>
      <FormAlert tone="error">{error}</FormAlert>
      {notice ? (
        <p role="status" className={listStyles.notice}>
          {notice}
        </p>
      ) : null}
      {data && data.items.length > 0 ? (
        <div className={listStyles.selectionBar}>
          <label className={listStyles.checkLabel}>
            <input
              type="checkbox"
              className={listStyles.checkbox}
              checked={allOnPage}
              ref={(input) => {
                if (input) input.indeterminate = someOnPage && !allOnPage;
              }}
              onChange={togglePage}
            />
            Tout sélectionner sur la page
          </label>
          {selected.size > 0 ? (
            <BulkBar
              selected={[...selected]}
              isAdministration={isAdministration}
              onDone={async (message) => {
                setNotice(message);
                setSelected(new Set());
                // Several members' tags, counsellors or messages changed: everything of the staff's is asked again.
                await client.invalidateQueries({ queryKey: staffKeys.all });
              }}
            />
          ) : (
            <span className={styles.muted}>Cochez des membres pour agir sur eux ensemble.</span>
          )}
        </div>
      ) : null}
      {data && data.items.length === 0 ? (
        <p role="status">{search.q ? `Aucun membre ne correspond à « ${search.q} ».` : 'Aucun membre ne correspond à ces filtres.'}</p>
      ) : null}
      {data && data.items.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.stackedTable}`} data-testid="members-table">
            <caption className={styles.caption}>{count(data.total, 'membre', 'membres')}</caption>
            <thead>
              <tr className={listStyles.headRow}>
                <th scope="col">
                  <span className={listStyles.visuallyHidden}>Sélection</span>
                </th>
                {SORTABLE.slice(0, 2).map((column) => (
                  <SortHeader key={column.sort} column={column} sort={sort} dir={dir} go={go} />
                ))}
                <th scope="col">Région</th>
                {SORTABLE.slice(2, 4).map((column) => (
                  <SortHeader key={column.sort} column={column} sort={sort} dir={dir} go={go} />
                ))}
                <th scope="col">Étiquettes</th>
                <SortHeader column={SORTABLE[4] as (typeof SORTABLE)[number]} sort={sort} dir={dir} go={go} />
              </tr>
            </thead>
            <tbody>
              {data.items.map((m) => (
                <MemberRow key={m.id} member={m} checked={selected.has(m.id)} onToggle={() => toggle(m.id)} />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {data && data.total > perPage ? (
        <nav className={styles.pager} aria-label="Pagination">
          <Button
            variant="secondary"
            disabled={data.page <= 1}
            onClick={() => void navigate({ search: (prev) => ({ ...prev, page: data.page - 1 }) })}
          >
            Précédent
          </Button>
          <span>
            Page {data.page} sur {data.pageCount}
          </span>
          <Button
            variant="secondary"
            disabled={data.page >= data.pageCount}
            onClick={() => void navigate({ search: (prev) => ({ ...prev, page: data.page + 1 }) })}
          >
            Suivant
          </Button>
        </nav>
      ) : null}
    </section>
  );
}

function SortHeader({
  column,
  sort,
  dir,
  go,
}: {
  column: (typeof SORTABLE)[number];
  sort: MemberListSort;
  dir: 'asc' | 'desc';
  go: (patch: Partial<DashboardSearch>) => void;
}) {
  const active = sort === column.sort;
  const next = active ? (dir === 'asc' ? 'desc' : 'asc') : column.first;
  return (
    <th scope="col" aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className={listStyles.sortButton} onClick={() => go({ sort: column.sort, dir: next })}>
        {column.label}
        <span aria-hidden="true" className={listStyles.sortMark}>
          {active ? (dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

function MemberRow({ member: m, checked, onToggle }: { member: MemberListItem; checked: boolean; onToggle: () => void }) {
  const who = m.name ?? m.email;
  return (
    <tr data-testid="member-row" aria-selected={checked}>
      <td className={listStyles.checkCell}>
        <input type="checkbox" className={listStyles.checkbox} checked={checked} onChange={onToggle} aria-label={`Sélectionner ${who}`} />
      </td>
      <StackedCell label="Nom">
        <Link to="/dashboard/member/$memberId" params={{ memberId: m.id }}>
          {m.name ?? 'Sans nom'}
        </Link>{' '}
        {m.disabled ? <span className={styles.badge.danger}>désactivé</span> : null}
        <div className={`${styles.muted} ${styles.breakAnywhere}`}>{m.email}</div>
      </StackedCell>
      <StackedCell label="Âge">{m.age === null ? '—' : `${m.age}\u00a0ans`}</StackedCell>
      <StackedCell label="Région">{m.region?.label ?? '—'}</StackedCell>
      <StackedCell label="Étape">{m.step ? `${m.step.number}. ${m.step.title}` : stateLabel(m.top)}</StackedCell>
      <StackedCell label="Conseiller·ère">{m.counsellor?.name ?? <span className={styles.muted}>Sans conseiller</span>}</StackedCell>
      <StackedCell label="Étiquettes">
        {m.tags.length > 0 ? (
          <span className={listStyles.tags}>
            {m.tags.map((t) => (
              <span key={t} className={styles.badge.neutral}>
                {t}
              </span>
            ))}
          </span>
        ) : (
          '—'
        )}
      </StackedCell>
      <StackedCell label="Inscription">{formatDate(m.createdAt)}</StackedCell>
    </tr>
  );
}
