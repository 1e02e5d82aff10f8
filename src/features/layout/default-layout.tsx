import { Outlet } from '@tanstack/react-router';
import { SiteHeader } from '#src/features/layout/site-header.tsx';
import * as styles from '#src/features/layout/layouts.css.ts';
import { DeferredPart, deferred } from '#src/lib/deferred.tsx';

/** The footer: links and copy below the fold, hydrated once the page is idle (src/lib/deferred.tsx). */
const footer = deferred(() => import('#src/features/layout/site-footer.tsx'));

/** Public pages: header, main, footer. Pages bring their own container and `<h1>`. */
export function DefaultLayout() {
  return (
    <div className={styles.shell}>
      <SiteHeader />
      <main id="contenu" tabIndex={-1} className={styles.main}>
        <Outlet />
      </main>
      <DeferredPart part={footer} render={(module) => <module.SiteFooter />} />
    </div>
  );
}
