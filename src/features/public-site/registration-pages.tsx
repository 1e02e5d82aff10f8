import { Link } from '@tanstack/react-router';
import { REGISTRATION_PATH } from '#src/features/layout/navigation.ts';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { CallToAction, type PageContent } from '#src/features/public-site/content-page.tsx';
import { DesignedPage } from '#src/features/public-site/designed-page.tsx';
import { FaqSection, PlansSection, TestimonialsSection } from '#src/features/public-site/deferred-sections.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';

/** `/inscription-agence-matrimoniale-musulmane`: the steps, the packs and the file fee, FAQ. */
export function RegistrationOverviewPage({ page }: { page: PageContent }) {
  return (
    <DesignedPage
      page={page}
      path={REGISTRATION_PATH}
      eyebrow="Inscription"
      layout="salon"
      actions={
        <>
          <Link to="/formulaire-inscription" className={buttonClass.primary}>
            Je me pré-inscris
          </Link>
          <Link to="/connexion/nouveau-compte" className={buttonClass.secondary}>
            Créer mon espace membre
          </Link>
        </>
      }
    >
      <PlansSection />
      <FaqSection />
      <CallToAction
        title="Commencer votre inscription"
        text="Pré-inscription gratuite, puis création de votre espace membre : vous avancez à votre rythme."
      >
        <Link to="/formulaire-inscription" className={styles.ctaButton}>
          Je me pré-inscris
        </Link>
        <Link to="/connexion/nouveau-compte" className={styles.ctaLink}>
          Créer directement mon espace membre
        </Link>
      </CallToAction>
    </DesignedPage>
  );
}

/** `/inscription-agence-matrimoniale-musulmane/pour-les-femmes` and `/pour-les-hommes`. */
export function RegistrationPathPage({ page, gender }: { page: PageContent; gender: 'femme' | 'homme' }) {
  const path = `${REGISTRATION_PATH}/${gender === 'femme' ? 'pour-les-femmes' : 'pour-les-hommes'}`;
  return (
    <DesignedPage
      page={page}
      path={path}
      eyebrow={gender === 'femme' ? 'Inscription pour les femmes' : 'Inscription pour les hommes'}
      layout="famille"
      actions={
        <>
          <Link to="/formulaire-inscription" search={{ genre: gender }} className={buttonClass.primary}>
            Je me pré-inscris
          </Link>
          <Link to="/contactez-agence-matrimoniale-musulmane" className={buttonClass.secondary}>
            Poser une question
          </Link>
        </>
      }
    >
      <TestimonialsSection />
      <PlansSection />
      <CallToAction
        title={gender === 'femme' ? 'Sœur, faites le premier pas' : 'Frère, faites le premier pas'}
        text="La pré-inscription est gratuite et sans engagement. Nous vous guidons ensuite vers votre espace membre."
      >
        <Link to="/formulaire-inscription" search={{ genre: gender }} className={styles.ctaButton}>
          Je me pré-inscris
        </Link>
        <Link to={REGISTRATION_PATH} className={styles.ctaLink}>
          Voir toutes les étapes
        </Link>
      </CallToAction>
    </DesignedPage>
  );
}
