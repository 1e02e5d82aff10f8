import { Link, Outlet } from '@tanstack/react-router';
import { BRAND_NAME } from '#src/features/layout/navigation.ts';
import * as styles from '#src/features/layout/layouts.css.ts';

/** Sign-in area: the brand and one centred card holding the page. */
export function AuthLayout() {
  return (
    <div className={styles.authShell}>
      <header className={styles.authTop}>
        <Link to="/" className={styles.authBrand}>
          {BRAND_NAME}
        </Link>
      </header>
      <main id="contenu" tabIndex={-1} className={styles.authMain}>
        <div className={styles.card}>
          <Outlet />
        </div>
      </main>
      <footer className={styles.authFoot}>
        <Link to="/">Retour au site</Link>
      </footer>
    </div>
  );
}
