import { Link } from '@tanstack/react-router';
import { CallToAction, ContentPage, type PageContent } from '#src/features/public-site/content-page.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';

/** `/pre-inscription/merci`: after the pre-registration (kept out of search engines). */
export function ThanksPage({ page }: { page: PageContent }) {
  return (
    <ContentPage page={page} path="/pre-inscription/merci" eyebrow="Pré-inscription enregistrée" meta={{ noindex: true }}>
      <CallToAction
        title="Créer votre espace membre"
        text="Utilisez la même adresse e-mail et choisissez un mot de passe d’au moins 12 caractères."
      >
        <Link to="/connexion/nouveau-compte" className={styles.ctaButton}>
          Créer mon espace membre
        </Link>
        <Link to="/blog" className={styles.ctaLink}>
          Lire nos conseils en attendant
        </Link>
      </CallToAction>
    </ContentPage>
  );
}
