import { useSession } from '#src/lib/use-session.ts';
import { getRouteApi, Link } from '@tanstack/react-router';
import { lazy, Suspense, useDeferredValue, useEffect, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { getMember } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { type FollowUpResult, getFollowUp, MemberFollowUpSection } from '#src/features/dashboard/member-follow-up-section.tsx';
import { notify } from '#src/lib/notifications.ts';
import { useScrollToHash } from '#src/lib/scroll-to-hash.ts';
import { useLoaded } from '#src/lib/use-loaded.ts';

/**
 * Everything below the file's top is fetched once the top is drawn (decision 138): the sections
 * (chart, actions, answers, contract, history, change requests) and, inside them, the photos,
 * candidates, billing and access log, which fetch their own data once shown (decision 134).
 */
const MemberSections = lazy(() => import('#src/features/dashboard/member-sections.tsx').then((m) => ({ default: m.MemberSections })));
const ChangeRequestsSection = lazy(() =>
  import('#src/features/dashboard/change-requests-section.tsx').then((m) => ({ default: m.ChangeRequestsSection })),
);
const MemberPhotosSection = lazy(() =>
  import('#src/features/dashboard/member-photos-section.tsx').then((m) => ({ default: m.MemberPhotosSection })),
);
const CandidatesSection = lazy(() =>
  import('#src/features/introductions/candidates-section.tsx').then((m) => ({ default: m.CandidatesSection })),
);
const MemberBilling = lazy(() => import('#src/features/billing/member-billing.tsx').then((m) => ({ default: m.MemberBilling })));
const MemberAccessLog = lazy(() => import('#src/features/dashboard/member-access-log.tsx').then((m) => ({ default: m.MemberAccessLog })));

const route = getRouteApi('/dashboard/_staff/member/$memberId');

/** How long the copy button says "Copié" (spec §9). */
const COPIED_RESET_MS = 1500;

/** `/dashboard/member/{memberId}`: everything about one member, their chart, and the staff actions. */
export function DashboardMemberPage() {
  const { memberId } = route.useParams();
  // A link to one of the file's cards (« Aujourd’hui », issue 63) lands on it once drawn.
  useScrollToHash(memberId);
  // Billing and the access log are the administration's (decision 206).
  const isAdministration = useSession().user?.staffRole === 'administration';
  // The internal follow-up is fetched beside the file, not once the page has drawn: its card sits
  // at the top, and arriving later it pushed the whole page down.
  const [followUp, setFollowUp] = useState<FollowUpResult | null>(null);
  useEffect(() => {
    let live = true;
    setFollowUp(null);
    void getFollowUp(memberId).then((result) => {
      if (live) setFollowUp(result);
    });
    return () => {
      live = false;
    };
  }, [memberId]);

  const { data: detail, error, reload: load } = useLoaded(() => getMember(memberId), [memberId]);
  // The file's top (name, follow-up) is drawn first; the sections below it follow in a background
  // render that yields to the browser, instead of one long task before anything of the file shows.
  // They come under what is already drawn: nothing moves.
  const below = useDeferredValue(detail, null);

  if (!detail || !followUp) {
    return (
      <div className={styles.page}>
        <h1 className={styles.title}>Fiche membre</h1>
        <FormAlert tone="error">{error}</FormAlert>
        {error ? null : <p className={styles.muted}>Chargement…</p>}
      </div>
    );
  }

  const { member } = detail;
  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <h1 className={styles.title}>{member.name ?? member.email}</h1>
        {member.disabled ? <span className={styles.badge.danger}>Compte désactivé</span> : null}
      </div>
      <div className={styles.idLine}>
        <span className={styles.muted}>Identifiant :</span>
        <code className={styles.code}>{member.id}</code>
        <CopyButton value={member.id} />
        <Link to="/dashboard/message-direct" search={{ memberId: member.id }}>
          Écrire un message
        </Link>
      </div>
      <FormAlert tone="error">{error}</FormAlert>

      <MemberFollowUpSection memberId={member.id} initial={followUp} onChanged={load} />
      {below ? (
        <Suspense fallback={<p className={styles.muted}>Chargement de la fiche…</p>}>
          <MemberSections detail={below} now={Date.now()} onReload={load} />
          <Suspense fallback={null}>
            <MemberPhotosSection memberId={member.id} memberName={member.name ?? member.email} />
            <CandidatesSection memberId={member.id} memberName={member.name ?? member.email} active={member.state === 'membre-actif'} />
            {isAdministration ? <MemberBilling memberId={member.id} /> : null}
          </Suspense>
          <ChangeRequestsSection memberId={member.id} onChanged={load} />
          {isAdministration ? (
            <Suspense fallback={null}>
              <MemberAccessLog memberId={member.id} />
            </Suspense>
          ) : null}
        </Suspense>
      ) : null}
    </div>
  );
}

/** Copies the value; its "Copié" flag resets after 1500 ms. */
function CopyButton({ value }: { value: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return (
    <Button
      variant="ghost"
      aria-live="polite"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          notify({ title: 'Copie impossible : sélectionnez l’identifiant à la main.', variant: 'warning' });
          return;
        }
        setCopied(true);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
      }}
    >
      {copied ? 'Copié !' : 'Copier l’identifiant'}
    </Button>
  );
}
