import { Link, Outlet } from '@tanstack/react-router';
import { useSignOut } from '#src/features/auth/api/sign-out.ts';
import * as styles from '#src/features/layout/layouts.css.ts';
import { BRAND_NAME } from '#src/features/layout/navigation.ts';
import { UnreadBadge } from '#src/features/messages/unread-badge.tsx';
import { useStaffUnread } from '#src/features/messages/unread.ts';
import { container } from '#src/styles/global.css.ts';
import { QueryProvider } from '#src/lib/query-provider.tsx';
import { useSession } from '#src/lib/use-session.ts';

/** Staff shell: a plain top bar; the staff menu shows only to a staff member at aal2. The app's query client serves every page. */
export function DashboardLayout() {
  return (
    <QueryProvider>
      <DashboardShell />
    </QueryProvider>
  );
}

function DashboardShell() {
  const session = useSession();
  const isStaff = session.status === 'signed-in' && session.user?.role === 'staff' && session.aal === 'aal2';
  // The administration's pages (decision 206): the server refuses them to a counsellor anyway.
  const isAdministration = isStaff && session.user?.staffRole === 'administration';
  const { signOut, pending } = useSignOut();
  return (
    <div className={styles.dashShell}>
      <header className={styles.dashBar}>
        <div className={`${container} ${styles.dashBarInner}`}>
          <Link to="/dashboard" className={styles.dashBrand}>
            {BRAND_NAME} — Espace équipe
          </Link>
          {isStaff ? (
            <>
              <nav aria-label="Navigation de l’équipe">
                <ul className={styles.dashNavList}>
                  <li>
                    <Link to="/dashboard" className={styles.dashLink} activeOptions={{ exact: true }}>
                      Membres
                    </Link>
                  </li>
                  <li>
                    <Link to="/dashboard/mises-en-relation" className={styles.dashLink}>
                      Mises en relation
                    </Link>
                  </li>
                  <li>
                    <Link to="/dashboard/agenda" className={styles.dashLink}>
                      Agenda
                    </Link>
                  </li>
                  <li>
                    <Link to="/dashboard/message-direct" className={styles.dashLink}>
                      Messages
                      <StaffUnreadBadge />
                    </Link>
                  </li>
                  <li>
                    <Link to="/dashboard/prospects" className={styles.dashLink}>
                      Prospects
                    </Link>
                  </li>
                  {isAdministration ? (
                    <>
                      <li>
                        <Link to="/dashboard/facturation" className={styles.dashLink}>
                          Facturation
                        </Link>
                      </li>
                      <li>
                        <Link to="/dashboard/equipe" className={styles.dashLink}>
                          Équipe
                        </Link>
                      </li>
                      <li>
                        <Link to="/dashboard/journal" className={styles.dashLink}>
                          Journal des accès
                        </Link>
                      </li>
                    </>
                  ) : null}
                </ul>
              </nav>
              <button type="button" className={styles.dashSignOut} onClick={signOut} disabled={pending}>
                Se déconnecter
              </button>
            </>
          ) : null}
        </div>
      </header>
      <main id="contenu" tabIndex={-1} className={`${container} ${styles.dashMain}`}>
        <Outlet />
      </main>
    </div>
  );
}

/** Members' messages no one on the staff has opened (asked only once the staff menu shows). */
function StaffUnreadBadge() {
  return <UnreadBadge count={useStaffUnread()} />;
}
