import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { buttonClass } from '#src/components/ui/button.css.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { BRAND_NAME } from '#src/features/layout/navigation.ts';

/** `/connexion/confirmation` (no layout, spec §2): a plain confirmation. */
export function ConfirmationPage() {
  const mainRef = useRef<HTMLElement>(null);
  useEffect(() => mainRef.current?.focus(), []);
  return (
    <main ref={mainRef} id="contenu" tabIndex={-1} className={styles.standalone}>
      <p>{BRAND_NAME}</p>
      <h1 className={styles.title}>C’est confirmé !</h1>
      <p className={styles.intro}>
        Votre demande a bien été prise en compte. Vous pouvez maintenant vous connecter à votre espace personnel.
      </p>
      <div className={styles.standaloneActions}>
        <Link to="/connexion" className={buttonClass.primary}>
          Se connecter
        </Link>
        <Link to="/" className={buttonClass.secondary}>
          Retour à l’accueil
        </Link>
      </div>
    </main>
  );
}
