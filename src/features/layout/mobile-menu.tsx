import { useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import * as styles from '#src/features/layout/mobile-menu.css.ts';

const loadPanel = () => import('#src/features/layout/mobile-menu-panel.tsx');
const MobileMenuPanel = lazy(loadPanel);

export interface MobileMenuProps {
  signedIn: boolean;
  onSignOut: () => void;
  signingOut: boolean;
}

/**
 * The menu button of small screens. The panel (a Radix Dialog: title, focus trap, Escape closes)
 * is fetched on first intent (hover, focus, touch) so it stays out of the first load. It closes on
 * every route change; focus returns to this button when the member closes it themselves.
 */
export function MobileMenu({ signedIn, onSignOut, signingOut }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so Radix runs its closing (animation, focus return) itself.
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const href = useRouterState({ select: (state) => state.location.href });

  useEffect(() => {
    void href;
    setOpen(false);
  }, [href]);

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className={styles.trigger}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
        onTouchStart={() => void loadPanel()}
        onClick={() => setOpen(true)}
      >
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M4 6h16M4 12h16M4 18h16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span>Menu</span>
      </button>
      {mounted ? (
        <Suspense fallback={null}>
          <MobileMenuPanel
            open={open}
            onOpenChange={setOpen}
            returnFocusTo={triggerRef}
            signedIn={signedIn}
            onSignOut={onSignOut}
            signingOut={signingOut}
          />
        </Suspense>
      ) : null}
    </>
  );
}
