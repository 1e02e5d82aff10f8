import { useSession } from '#src/lib/use-session.ts';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { stateLabel } from '#machines/onboarding/labels.ts';
import { steps } from '#machines/onboarding/steps.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { getFunnel, getLeadFunnel } from '#src/features/dashboard/dashboard-api.ts';
import { type DashboardSearch, dashboardEndStates } from '#src/features/dashboard/dashboard-search.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { PlanSettingCard } from '#src/features/dashboard/plan-setting.tsx';
import { TodayFrame, WaitingGroups, WaitingToggle } from '#src/features/dashboard/today-frame.tsx';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { count, plural } from '#machines/french/plural.ts';

const _route = getRouteApi('/dashboard/_staff/');

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
// The member list (decision 210): its filters, selection and dialogs load after the first paint, its place kept by its title.
const MemberList = lazy(() => import('#src/features/dashboard/member-list.tsx').then((m) => ({ default: m.MemberList })));
const CouponsCard = lazy(() => import('#src/features/dashboard/coupons-card.tsx').then((m) => ({ default: m.CouponsCard })));

/** `/dashboard`: « Aujourd’hui » (issue 63), the funnel, the presentations to examine (decision 200), the plan setting and the member list (search, step filter, sorting, paging). */
export function DashboardHomePage() {
  const session = useSession();
  // The plans and the codes are the administration's (decision 206).
  const isAdministration = session.user?.staffRole === 'administration';
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Tableau de bord</h1>
      <Suspense fallback={<TodayPlaceholder agencyWide={isAdministration} />}>
        <TodayCard />
      </Suspense>
      <FunnelCard />
      <LeadFunnelCard />
      <Suspense fallback={null}>
        <PresentationReviewCard />
      </Suspense>
      <Suspense fallback={<MembersPlaceholder />}>
        <MemberList />
      </Suspense>
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

function MembersPlaceholder() {
  return (
    <section className={styles.card} aria-labelledby="members-title" aria-busy>
      <h2 id="members-title" className={styles.cardTitle}>
        Membres
      </h2>
    </section>
  );
}

/** « Aujourd’hui » while its code loads: its frame, its toggle's place and its eight groups' titles. */
function TodayPlaceholder({ agencyWide }: { agencyWide: boolean }) {
  return (
    <TodayFrame busy date={'\u00a0'} toggle={agencyWide ? <WaitingToggle /> : null}>
      <WaitingGroups />
    </TodayFrame>
  );
}

function FunnelCard() {
  const query = useQuery({ queryKey: staffKeys.funnel, queryFn: () => unwrap(getFunnel()) });
  const funnel = query.data;
  const error = errorMessage(query.error);
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
  const query = useQuery({ queryKey: staffKeys.leadFunnel, queryFn: () => unwrap(getLeadFunnel()) });
  const funnel = query.data;
  const error = errorMessage(query.error);
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
