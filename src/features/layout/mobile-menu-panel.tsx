import * as Dialog from '@radix-ui/react-dialog';
import { Link } from '@tanstack/react-router';
import type { RefObject } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { buttonClass } from '#src/components/ui/button.css.ts';
import * as styles from '#src/features/layout/mobile-menu.css.ts';
import { BRAND_NAME, mainNav, signedOutActions } from '#src/features/layout/navigation.ts';

export interface MobileMenuPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  signedIn: boolean;
  onSignOut: () => void;
  signingOut: boolean;
}

export default function MobileMenuPanel({ open, onOpenChange, returnFocusTo, signedIn, onSignOut, signingOut }: MobileMenuPanelProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.panel}
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            // No Dialog.Trigger (the panel is lazy): give the focus back to the menu button ourselves.
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <div className={styles.panelHeader}>
            <Dialog.Title className={styles.title}>Menu — {BRAND_NAME}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label="Fermer le menu">
              <span aria-hidden="true">×</span>
            </Dialog.Close>
          </div>
          <nav aria-label="Navigation principale (mobile)">
            <ul className={styles.list}>
              {mainNav.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className={styles.link} activeOptions={{ exact: true }} onClick={close}>
                    {item.label}
                  </Link>
                  {item.children ? (
                    <ul className={styles.sublist}>
                      {item.children.map((child) => (
                        <li key={child.to}>
                          <Link to={child.to} className={styles.sublink} onClick={close}>
                            {child.label}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          </nav>
          <div className={styles.actions}>
            {signedIn ? (
              <>
                <Link to="/mon-compte" className={buttonClass.primary} onClick={close}>
                  Mon espace
                </Link>
                <Button
                  variant="secondary"
                  loading={signingOut}
                  loadingText="Déconnexion…"
                  onClick={() => {
                    close();
                    onSignOut();
                  }}
                >
                  Se déconnecter
                </Button>
              </>
            ) : (
              <>
                <Link to={signedOutActions.signIn.to} className={buttonClass.secondary} onClick={close}>
                  {signedOutActions.signIn.label}
                </Link>
                <Link to={signedOutActions.register.to} className={buttonClass.primary} onClick={close}>
                  {signedOutActions.register.label}
                </Link>
              </>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
