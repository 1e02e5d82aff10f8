import { useSession } from '#src/lib/use-session.ts';
import { getRouteApi, Link } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useId, useMemo, useState } from 'react';
import { stateLabel } from '#machines/onboarding/labels.ts';
import { steps } from '#machines/onboarding/steps.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { getFunnel, getLeadFunnel, listMembers, PER_PAGE } from '#src/features/dashboard/dashboard-api.ts';
import {
  type DashboardEndState,
  type DashboardSearch,
  DashboardSearchSchema,
  dashboardEndStates,
} from '#src/features/dashboard/dashboard-search.ts';
import { formatDateTime as formatDate } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { PlanSettingCard } from '#src/features/dashboard/plan-setting.tsx';
import { SearchField } from '#src/features/dashboard/search-field.tsx';
import { SelectField } from '#src/features/dashboard/select-field.tsx';
import { FollowUpFilters } from '#src/features/dashboard/member-list-filters.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useLoaded } from '#src/lib/use-loaded.ts';
import { count, plural } from '#machines/french/plural.ts';

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
  ...steps.map((s) => ({ value: s.id, label: `${s.number}. ${s.title}` })),
  ...dashboardEndStates.map((id) => ({ value: id, label: endStateFilterLabels[id] })),
];

const SORT_OPTIONS = [
  { value: 'created:desc', label: 'Inscription (récentes d’abord)' },
  { value: 'created:asc', label: 'Inscription (anciennes d’abord)' },
  { value: 'updated:desc', label: 'Dernière activité' },
  { value: 'email:asc', label: 'E-mail (A → Z)' },
  { value: 'email:desc', label: 'E-mail (Z → A)' },
] as const;

const SEARCH_DELAY_MS = 300;

/** The funnel's lines before its figures arrive (same labels as the server's answer). */
const placeholderSteps: { id: DashboardSearch['step']; number: number | null; title: string; count: number | null }[] = [
  ...steps.map((s) => ({ id: s.id, number: s.number, title: s.title, count: null })),
  ...dashboardEndStates.map((id) => ({ id, number: null, title: stateLabel(id), count: null })),
];

// The presentations to examine and the coupons load after the page's first paint: their modules
// (forms, dates, dialogs) would add files to the dashboard's shell (decision 159's ceiling).
const PresentationReviewCard = lazy(() =>
  import('#src/features/dashboard/presentation-review-card.tsx').then((m) => ({ default: m.PresentationReviewCard })),
);
// « Aujourd’hui » (issue 63, decision 203): loaded after the first paint as well, its place kept by its title.
const TodayCard = lazy(() => import('#src/features/dashboard/today-card.tsx').then((m) => ({ default: m.TodayCard })));
const CouponsCard = lazy(() => import('#src/features/dashboard/coupons-card.tsx').then((m) => ({ default: m.CouponsCard })));

/** `/dashboard`: « Aujourd’hui » (issue 63), the funnel, the presentations to examine (decision 200), the plan setting and the member list (search, step filter, sorting, paging). */
export function DashboardHomePage() {
  const session = useSession();
  // The plans and the codes are the administration's (decision 206).
  const isAdministration = session.user?.staffRole === 'administration';
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Tableau de bord</h1>
      <Suspense fallback={<TodayPlaceholder />}>
        <TodayCard />
      </Suspense>
      <FunnelCard />
      <LeadFunnelCard />
      <Suspense fallback={null}>
        <PresentationReviewCard />
      </Suspense>
      <MemberList />
      {isAdministration ? (
        <>
          <PlanSettingCard />
          <Suspense fallback={null}>
            <CouponsCard />
          </Suspense>
        </>
      ) : null}
    </div>
  );
}

function TodayPlaceholder() {
  return (
    <section className={styles.card} aria-labelledby="today-title" aria-busy>
      <h2 id="today-title" className={styles.cardTitle}>
        Aujourd’hui
      </h2>
    </section>
  );
}

function FunnelCard() {
  const { data: funnel, error } = useLoaded(getFunnel, []);
  return (
    <section className={styles.card} aria-labelledby="funnel-title">
      <h2 id="funnel-title" className={styles.cardTitle}>
        Parcours des membres {funnel ? <span className={styles.muted}>({funnel.total} au total)</span> : null}
      </h2>
      <FormAlert tone="error">{error}</FormAlert>
      {/* While loading, the same lines with « — »: the page does not move when the figures arrive. */}
      <ul className={styles.waiting} aria-label="En attente de l’équipe">
        <li className={styles.waitingItem}>
          <strong>{funnel?.waitingOnStaff.onboardingMeeting ?? '—'}</strong>{' '}
          {plural(funnel?.waitingOnStaff.onboardingMeeting ?? 0, 'entretien personnalisé', 'entretiens personnalisés')} à valider
          {funnel && funnel.waitingOnStaff.onboardingMeetingPast > 0
            ? ` (dont ${funnel.waitingOnStaff.onboardingMeetingPast} déjà ${plural(funnel.waitingOnStaff.onboardingMeetingPast, 'passé', 'passés')})`
            : ''}
        </li>
        <li className={styles.waitingItem}>
          <strong>{funnel?.waitingOnStaff.matchmakingMeeting ?? '—'}</strong>{' '}
          {plural(funnel?.waitingOnStaff.matchmakingMeeting ?? 0, 'entretien', 'entretiens')} de rapprochement à tenir
        </li>
      </ul>
      <ol className={styles.funnel} aria-label="Membres par étape">
        {(funnel?.steps ?? placeholderSteps).map((s) => (
          <li key={s.id} className={styles.funnelItem}>
            <span className={styles.muted}>{s.number ? `${s.number}. ${s.title}` : s.title}</span>
            {s.count === null ? (
              <span className={styles.funnelCount}>—</span>
            ) : (
              <Link
                to="/dashboard"
                search={{ step: s.id }}
                className={styles.funnelCount}
                aria-label={`${s.title} : ${count(s.count, 'membre', 'membres')}`}
              >
                {s.count}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Pre-registrations → accounts opened with their address → active members among them (decision 112). */
function LeadFunnelCard() {
  const { data: funnel, error } = useLoaded(getLeadFunnel, []);
  return (
    <section className={styles.card} aria-labelledby="lead-funnel-title">
      <h2 id="lead-funnel-title" className={styles.cardTitle}>
        Des prospects aux membres
      </h2>
      <FormAlert tone="error">{error}</FormAlert>
      <ol className={styles.funnel} aria-label="Prospects, comptes et membres actifs">
        <li className={styles.funnelItem}>
          <span className={styles.muted}>Prospects (pré-inscriptions)</span>
          {funnel ? (
            <Link to="/dashboard/prospects" className={styles.funnelCount} aria-label={count(funnel.prospects, 'prospect', 'prospects')}>
              {funnel.prospects}
            </Link>
          ) : (
            <span className={styles.funnelCount}>—</span>
          )}
        </li>
        <li className={styles.funnelItem}>
          <span className={styles.muted}>Comptes ouverts</span>
          <span className={styles.funnelCount}>{funnel?.accounts ?? '—'}</span>
        </li>
        <li className={styles.funnelItem}>
          <span className={styles.muted}>Membres actifs</span>
          <span className={styles.funnelCount}>{funnel?.activeMembers ?? '—'}</span>
        </li>
      </ol>
    </section>
  );
}

function MemberList() {
  // Parsed here, not in the route (see src/routes/dashboard/_staff/index.tsx): malformed values fall back to defaults.
  // Memoised on the URL's values: a new object each render would refetch the list in a loop.
  const raw = route.useSearch();
  const key = JSON.stringify(raw);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is `raw`'s value; its identity may change each render
  const search = useMemo(() => DashboardSearchSchema(raw), [key]);
  const navigate = route.useNavigate();
  const ids = { q: useId(), step: useId(), sort: useId() };
  const [text, setText] = useState(search.q ?? '');
  const { data, error, loading } = useLoaded(() => listMembers(search), [search]);

  const go = (patch: Partial<DashboardSearch>) => navigate({ search: (prev) => ({ ...prev, page: undefined, ...patch }), replace: true });

  // The search box updates the URL after a short pause in typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `go` is rebuilt each render; only the text matters
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === (search.q ?? '')) return;
    const timer = setTimeout(() => void go({ q: trimmed || undefined }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, search.q]);

  const sortValue = `${search.sort ?? 'created'}:${search.dir ?? (search.sort === 'email' ? 'asc' : 'desc')}`;

  return (
    <section className={styles.card} aria-labelledby="members-title" aria-busy={loading}>
      <h2 id="members-title" className={styles.cardTitle}>
        Membres
      </h2>
      <div className={styles.filters}>
        <SearchField id={ids.q} label="Rechercher (e-mail ou nom)" placeholder="Rechercher un membre…" value={text} onChange={setText} />
        <SelectField
          id={ids.step}
          label="Étape"
          value={search.step ?? ''}
          onChange={(value) => void go({ step: (value || undefined) as DashboardSearch['step'] })}
          options={[{ value: '', label: 'Toutes les étapes' }, ...stepOptions]}
        />
        <SelectField
          id={ids.sort}
          label="Trier par"
          value={sortValue}
          onChange={(value) => {
            const [sort, dir] = value.split(':') as [DashboardSearch['sort'], DashboardSearch['dir']];
            void go({ sort, dir });
          }}
          options={SORT_OPTIONS}
        />
        <FollowUpFilters tag={search.tag} counsellor={search.counsellor} onChange={(patch) => void go(patch)} />
      </div>
      <FormAlert tone="error">{error}</FormAlert>
      {data && data.items.length === 0 ? (
        <p role="status">{search.q ? `Aucun membre ne correspond à « ${search.q} ».` : 'Aucun membre ne correspond à ces filtres.'}</p>
      ) : null}
      {data && data.items.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className={styles.caption}>{count(data.total, 'membre', 'membres')}</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Nom</th>
                <th scope="col">Étape</th>
                <th scope="col">Inscription</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((m) => (
                <tr key={m.id}>
                  <td>
                    <Link to="/dashboard/member/$memberId" params={{ memberId: m.id }}>
                      {m.email}
                    </Link>{' '}
                    {m.disabled ? <span className={styles.badge.danger}>désactivé</span> : null}
                  </td>
                  <td>{m.name ?? '—'}</td>
                  <td>{m.step ? `${m.step.number}. ${m.step.title}` : stateLabel(m.top)}</td>
                  <td>{formatDate(m.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {data && data.total > PER_PAGE ? (
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
