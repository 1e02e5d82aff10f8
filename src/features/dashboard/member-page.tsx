import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { type KeyboardEvent, lazy, Suspense, useCallback } from 'react';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { getMember, type MemberDetail } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDay } from '#src/features/dashboard/format-fr.ts';
import { getMemberSummary, type MemberSummaryView } from '#src/features/dashboard/member-file-api.ts';
import * as file from '#src/features/dashboard/member-file.css.ts';
import type { MemberTab } from '#src/features/dashboard/member-tab-ids.ts';
import { MEMBER_TABS, openTab } from '#src/features/dashboard/member-tabs.ts';
import { useScrollToHash } from '#src/lib/scroll-to-hash.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { useSession } from '#src/lib/use-session.ts';

/**
 * The tabs' contents, each chunk fetched when the tab first shows, beside the data (decisions
 * 138, 209): the labels, the chart and the phone formatter stay out of the page's first load.
 */
let sections: Promise<typeof import('#src/features/dashboard/member-sections.tsx')> | null = null;
const sectionsChunk = () => {
  sections ??= import('#src/features/dashboard/member-sections.tsx');
  return sections;
};
// The chunk of the tabs that read the file is asked as soon as this page's code runs: it comes
// beside the header's and the file's answers, not once the file has arrived.
void sectionsChunk();
const ProfileTab = lazy(() => sectionsChunk().then((m) => ({ default: m.ProfileTab })));
const ContractTab = lazy(() => sectionsChunk().then((m) => ({ default: m.ContractTab })));
const HistoryTab = lazy(() => sectionsChunk().then((m) => ({ default: m.HistoryTab })));
const IntroductionsTab = lazy(() => import('#src/features/dashboard/member-file-tabs.tsx').then((m) => ({ default: m.IntroductionsTab })));
const MessagesTab = lazy(() => import('#src/features/dashboard/member-file-tabs.tsx').then((m) => ({ default: m.MessagesTab })));
const MemberFollowUpSection = lazy(() =>
  import('#src/features/dashboard/member-follow-up-section.tsx').then((m) => ({ default: m.MemberFollowUpSection })),
);
const MemberAccessLog = lazy(() => import('#src/features/dashboard/member-access-log.tsx').then((m) => ({ default: m.MemberAccessLog })));

const route = getRouteApi('/dashboard/_staff/member/$memberId');

/**
 * `/dashboard/member/{memberId}?onglet=…`: a member's file on one screen (issue 63 point 2,
 * decision 209). A header that says who the member is and where they stand, then tabs. The
 * header's answer and the file's are asked at once, with the open tab's own data: none waits for
 * another.
 */
export function DashboardMemberPage() {
  const { memberId } = route.useParams();
  const { onglet } = route.useSearch();
  // A link to one of the file's cards (« Aujourd’hui », issue 63) opens its tab, then lands on it once drawn.
  useScrollToHash(memberId);
  // Billing and the access log are the administration's (decision 206).
  const isAdministration = useSession().user?.staffRole === 'administration';
  const tabs = MEMBER_TABS.filter((t) => t.id !== 'acces' || isAdministration);
  const asked = openTab(onglet, globalThis.location?.hash ?? '');
  const tab: MemberTab = tabs.some((t) => t.id === asked) ? asked : 'profil';

  // Two queries, asked at once: the header does not wait for the file.
  const summaryQuery = useQuery({ queryKey: memberFileKeys.summary(memberId), queryFn: () => unwrap(getMemberSummary(memberId)) });
  const detailQuery = useQuery({ queryKey: memberFileKeys.detail(memberId), queryFn: () => unwrap(getMember(memberId)) });
  const summary = { data: summaryQuery.data ?? null, error: errorMessage(summaryQuery.error) };
  const detail = { data: detailQuery.data ?? null, error: errorMessage(detailQuery.error) };
  const client = useQueryClient();
  // A staff action, a new counsellor or tag changes the header and the file: both are asked again.
  const reload = useCallback(async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: memberFileKeys.summary(memberId) }),
      client.invalidateQueries({ queryKey: memberFileKeys.detail(memberId) }),
    ]);
  }, [client, memberId]);

  const label = tabs.find((t) => t.id === tab)?.label ?? 'Profil';
  return (
    <div className={styles.page}>
      <MemberHeader memberId={memberId} summary={summary.data} error={summary.error} />
      {summary.error && !summary.data ? null : (
        <>
          <nav className={file.tabBar} aria-label="Onglets de la fiche">
            <ul className={file.tabList} onKeyDown={moveFocus}>
              {tabs.map((t) => (
                <li key={t.id}>
                  <Link
                    to="/dashboard/member/$memberId"
                    params={{ memberId }}
                    search={{ onglet: t.id }}
                    resetScroll={false}
                    className={file.tab}
                    aria-current={t.id === tab ? 'page' : undefined}
                  >
                    {t.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <section className={file.panel} aria-label={`Onglet ${label}`} data-testid="member-tab" data-tab={tab}>
            <Suspense fallback={<p className={styles.muted}>Chargement…</p>}>
              <TabPanel
                tab={tab}
                memberId={memberId}
                summary={summary.data}
                detail={detail.data}
                detailError={detail.error}
                isAdministration={isAdministration}
                onReload={reload}
              />
            </Suspense>
          </section>
        </>
      )}
    </div>
  );
}

/** The arrows, Home and End move between the tabs (Enter opens one, as any link). */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  const links = [...event.currentTarget.querySelectorAll('a')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (at < 0) return;
  const next =
    event.key === 'ArrowRight'
      ? (at + 1) % links.length
      : event.key === 'ArrowLeft'
        ? (at - 1 + links.length) % links.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? links.length - 1
            : null;
  if (next === null) return;
  event.preventDefault();
  links[next]?.focus();
}

function TabPanel({
  tab,
  memberId,
  summary,
  detail,
  detailError,
  isAdministration,
  onReload,
}: {
  tab: MemberTab;
  memberId: string;
  summary: MemberSummaryView | null;
  detail: MemberDetail | null;
  detailError: string | null;
  isAdministration: boolean;
  onReload: () => Promise<void>;
}) {
  switch (tab) {
    case 'mises-en-relation':
      return (
        <IntroductionsTab
          memberId={memberId}
          memberName={summary ? (nameOf(summary) ?? summary.email) : 'ce membre'}
          active={summary?.stage.key === 'membre-actif'}
        />
      );
    case 'messages':
      return <MessagesTab memberId={memberId} />;
    case 'notes':
      // A new counsellor or tag asks the header and the history again (« Suivi confié à … »): the card invalidates the file.
      return <MemberFollowUpSection memberId={memberId} />;
    case 'acces':
      return <MemberAccessLog memberId={memberId} />;
    default:
      break;
  }
  // The tabs that read the member's file.
  if (!detail) return detailError ? <FormAlert tone="error">{detailError}</FormAlert> : <p className={styles.muted}>Chargement…</p>;
  const now = Date.now();
  if (tab === 'contrat') return <ContractTab detail={detail} now={now} onReload={onReload} isAdministration={isAdministration} />;
  if (tab === 'historique') return <HistoryTab detail={detail} />;
  return <ProfileTab detail={detail} now={now} onReload={onReload} />;
}

function nameOf(summary: MemberSummaryView): string | null {
  const name = [summary.firstName, summary.lastName].filter(Boolean).join(' ');
  return name === '' ? null : name;
}

/** « Sérénité, 12 mois… · signé le 3 sept. 2026 · fin le 3 sept. 2027 · En cours ». */
function contractText(contract: MemberSummaryView['contract']): string {
  if (contract.signedAt === null) return [contract.planLabel, contract.statusLabel].filter(Boolean).join(' · ');
  return [
    contract.planLabel,
    `signé le ${formatDay(contract.signedAt)}`,
    contract.endsAt ? `fin le ${formatDay(contract.endsAt)}` : null,
    contract.statusLabel,
  ]
    .filter(Boolean)
    .join(' · ');
}

function waliText(guardian: MemberSummaryView['guardian']): string {
  if (!guardian) return 'Aucun walī indiqué · contact : ses propres coordonnées';
  return `${guardian.name} (${guardian.relationLabel.toLowerCase()}), ${guardian.phone ?? 'aucun numéro'} · contact : ${guardian.contactLabel.toLowerCase()}`;
}

/** Who the member is and where they stand, in words: the file's top. */
function MemberHeader({ memberId, summary, error }: { memberId: string; summary: MemberSummaryView | null; error: string | null }) {
  if (!summary) {
    return (
      <div className={file.header}>
        <h1 className={styles.title}>Fiche membre</h1>
        <FormAlert tone="error">{error}</FormAlert>
        {error ? null : <p className={styles.muted}>Chargement…</p>}
      </div>
    );
  }
  const facts = [summary.age === null ? null : `${summary.age} ans`, summary.city, summary.stage.label].filter(Boolean).join(' · ');
  return (
    <header className={file.header} data-testid="member-header">
      <div className={file.headline}>
        <h1 className={styles.title}>{nameOf(summary) ?? summary.email}</h1>
        {summary.disabled ? <span className={styles.badge.danger}>Compte désactivé</span> : null}
      </div>
      <p className={file.facts} data-testid="member-facts">
        {facts}
      </p>
      <FormAlert tone="error">{error}</FormAlert>
      <dl className={file.fields}>
        <div className={file.field}>
          <dt>Conseiller·ère</dt>
          <dd>{summary.counsellor?.name ?? 'Personne'}</dd>
        </div>
        <div className={file.field}>
          <dt>Étiquettes</dt>
          <dd>{summary.tags.length === 0 ? 'Aucune' : summary.tags.join(' · ')}</dd>
        </div>
        <div className={file.field}>
          <dt>Contrat</dt>
          <dd>{contractText(summary.contract)}</dd>
        </div>
        <div className={file.field}>
          <dt>Walī</dt>
          <dd>{waliText(summary.guardian)}</dd>
        </div>
      </dl>
      <p>
        <Link to="/dashboard/message-direct" search={{ memberId }}>
          Écrire un message
        </Link>
      </p>
    </header>
  );
}
