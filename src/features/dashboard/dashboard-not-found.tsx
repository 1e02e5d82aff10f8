import { Link, useLocation } from '@tanstack/react-router';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import * as layout from '#src/features/layout/layouts.css.ts';
import { BRAND_NAME } from '#src/features/layout/navigation.ts';
import { container } from '#src/styles/global.css.ts';
import { useDocumentTitle } from '#src/lib/document-title.tsx';

/**
 * An unknown `/dashboard/…` address (issue 63): a back-office « Page introuvable » inside the
 * staff's layout, with the way back to the day, not the public site's 404. The server answers
 * such an address with the application's shell and status 404 (bff/site/site-pages.ts); the
 * root's not-found page (the router's `notFoundMode` is `root`) hands it over here.
 */
export function BackOfficeNotFound() {
  // The dashboard layout's own bar and frame, drawn here rather than by importing the layout: this
  // page is loaded apart, and sharing the layout's module would split it out of the dashboard's
  // first load (one more file, past decision 159's ceiling).
  return (
    <div className={layout.dashShell}>
      <header className={layout.dashBar}>
        <div className={`${container} ${layout.dashBarInner}`}>
          <Link to="/dashboard" className={layout.dashBrand}>
            {BRAND_NAME} — Espace équipe
          </Link>
        </div>
      </header>
      <main id="contenu" tabIndex={-1} className={`${container} ${layout.dashMain}`}>
        <DashboardNotFound />
      </main>
    </div>
  );
}

/** The page itself, in the dashboard's layout. */
function DashboardNotFound() {
  const { pathname } = useLocation();
  useDocumentTitle('Page introuvable — Union Sincère');
  return (
    <div className={styles.page} data-testid="dashboard-not-found">
      <div>
        <h1 className={styles.title}>Page introuvable</h1>
        <p className={styles.text}>
          Aucune page de l’espace équipe ne se trouve à l’adresse <code className={styles.code}>{pathname}</code>. Elle a peut-être été
          déplacée, ou l’adresse contient une faute de frappe.
        </p>
      </div>
      <p>
        <Link to="/dashboard">Retour au tableau de bord (Aujourd’hui)</Link>
      </p>
    </div>
  );
}
