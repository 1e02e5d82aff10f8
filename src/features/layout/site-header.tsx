import { Link, useRouterState } from '@tanstack/react-router';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { useSignOut } from '#src/features/auth/api/sign-out.ts';
import { MobileMenu } from '#src/features/layout/mobile-menu.tsx';
import { BRAND_NAME, mainNav, type NavItem, signedOutActions } from '#src/features/layout/navigation.ts';
import * as styles from '#src/features/layout/site-header.css.ts';
import { container } from '#src/styles/global.css.ts';
import { useSession } from '#src/lib/use-session.ts';

/** The site header (spec §2): brand, main menu, account buttons, and the mobile panel. */
export function SiteHeader() {
  const session = useSession();
  const signedIn = session.status === 'signed-in';
  const { signOut, pending } = useSignOut();

  return (
    <header className={styles.header}>
      <a href="#contenu" className={styles.skipLink}>
        Aller au contenu
      </a>
      <div className={`${container} ${styles.bar}`}>
        <Link to="/" className={styles.brand}>
          {BRAND_NAME}
        </Link>
        <nav aria-label="Navigation principale" className={styles.desktopNav}>
          <ul className={styles.navList}>
            {mainNav.map((item) =>
              item.children ? <MenuWithChildren key={item.to} item={item} /> : <MenuLink key={item.to} item={item} />,
            )}
          </ul>
        </nav>
        <div className={styles.actions}>
          {signedIn ? (
            <>
              <Link to="/mon-compte" className={buttonClass.secondary}>
                Mon compte
              </Link>
              <Button variant="ghost" onClick={signOut} loading={pending} loadingText="Déconnexion…">
                Se déconnecter
              </Button>
            </>
          ) : (
            <>
              <Link to={signedOutActions.signIn.to} className={buttonClass.ghost}>
                {signedOutActions.signIn.label}
              </Link>
              <Link to={signedOutActions.register.to} className={buttonClass.primary}>
                {signedOutActions.register.label}
              </Link>
            </>
          )}
        </div>
        <div className={styles.mobileOnly}>
          <MobileMenu signedIn={signedIn} onSignOut={signOut} signingOut={pending} />
        </div>
      </div>
    </header>
  );
}

function MenuLink({ item }: { item: NavItem }) {
  return (
    <li className={styles.navItem}>
      <Link to={item.to} className={styles.navLink} activeOptions={{ exact: item.to === '/' }}>
        {item.label}
      </Link>
    </li>
  );
}

/** Disclosure menu: the parent stays a link; a separate button opens the children (Escape closes). */
function MenuWithChildren({ item }: { item: NavItem }) {
  const [open, setOpen] = useState(false);
  const submenuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  useEffect(() => {
    void pathname;
    setOpen(false);
  }, [pathname]);

  function onKeyDown(event: KeyboardEvent<HTMLLIElement>) {
    if (event.key === 'Escape' && open) {
      setOpen(false);
      toggleRef.current?.focus();
    }
  }

  return (
    <li
      className={styles.navItem}
      data-open={open}
      onKeyDown={onKeyDown}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <div className={styles.withChildren}>
        <Link to={item.to} className={styles.navLink} activeOptions={{ exact: true }}>
          {item.label}
        </Link>
        <button
          ref={toggleRef}
          type="button"
          className={styles.submenuToggle}
          aria-expanded={open}
          aria-controls={submenuId}
          aria-label={`Sous-menu ${item.label}`}
          onClick={() => setOpen((value) => !value)}
        >
          <svg className={styles.chevron} viewBox="0 0 12 12" aria-hidden="true" focusable="false">
            <path d="M2 4l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.5" />
          </svg>
        </button>
      </div>
      <ul id={submenuId} className={styles.submenu}>
        {item.children?.map((child) => (
          <li key={child.to}>
            <Link to={child.to} className={styles.submenuLink}>
              {child.label}
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}
