import { Link, Outlet } from '@tanstack/react-router';
import * as styles from '#src/features/layout/layouts.css.ts';
import { SiteFooter } from '#src/features/layout/site-footer.tsx';
import { SiteHeader } from '#src/features/layout/site-header.tsx';
import { UnreadBadge } from '#src/features/messages/unread-badge.tsx';
import { useMemberUnread } from '#src/features/messages/unread.ts';
import { QueryProvider } from '#src/lib/query-provider.tsx';
import { container } from '#src/styles/global.css.ts';

/** Member area (`/mon-compte/*`, guarded): the site header, the account menu and the page, with the app's query client. */
export function AccountLayout() {
  return (
    <QueryProvider>
      <AccountShell />
    </QueryProvider>
  );
}

function AccountShell() {
  const unread = useMemberUnread();
  return (
    <div className={styles.shell}>
      <SiteHeader />
      <div className={`${container} ${styles.accountBody}`}>
        <nav aria-labelledby="account-nav-title" className={styles.accountNav}>
          <h2 id="account-nav-title" className={styles.accountNavTitle}>
            Mon espace
          </h2>
          <ul className={styles.accountNavList}>
            <li>
              <Link to="/mon-compte" className={styles.accountNavLink} activeOptions={{ exact: true }}>
                Tableau de bord
              </Link>
            </li>
            <li>
              <Link to="/mon-compte/propositions" className={styles.accountNavLink}>
                Mes propositions
              </Link>
            </li>
            <li>
              <Link to="/mon-compte/progression" className={styles.accountNavLink}>
                Mon accompagnement
              </Link>
            </li>
            <li>
              <Link to="/mon-compte/messages" className={styles.accountNavLink}>
                Messages
                <UnreadBadge count={unread} />
              </Link>
            </li>
            <li>
              <Link to="/mon-compte/mon-profil" className={styles.accountNavLink}>
                Mon profil
              </Link>
            </li>
          </ul>
        </nav>
        <main id="contenu" tabIndex={-1} className={styles.main}>
          <Outlet />
        </main>
      </div>
      <SiteFooter />
    </div>
  );
}
