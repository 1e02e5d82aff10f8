import { Outlet } from '@tanstack/react-router';
import { SiteFooter } from '#src/features/layout/site-footer.tsx';
import { SiteHeader } from '#src/features/layout/site-header.tsx';
import * as styles from '#src/features/layout/layouts.css.ts';

/** Public pages: header, main, footer. Pages bring their own container and `<h1>`. */
export function DefaultLayout() {
  return (
    <div className={styles.shell}>
      <SiteHeader />
      <main id="contenu" tabIndex={-1} className={styles.main}>
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
