import { createFileRoute, Link } from '@tanstack/react-router';
import head from 'virtual:page-head/qui-sommes-nous';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { CallToAction, pageContent } from '#src/features/public-site/content-page.tsx';
import { DesignedPage } from '#src/features/public-site/designed-page.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';

const page = pageContent(head, () => import('virtual:content/pages/qui-sommes-nous'));

function AgencyPage() {
  return (
    <DesignedPage
      page={page}
      path="/qui-sommes-nous"
      eyebrow="L’agence"
      layout="famille"
      actions={
        <>
          <Link to="/formulaire-inscription" className={buttonClass.primary}>
            Je me pré-inscris
          </Link>
          <Link to="/contactez-agence-matrimoniale-musulmane" className={buttonClass.secondary}>
            Nous écrire
          </Link>
        </>
      }
    >
      <CallToAction
        title="Prêt à faire le premier pas ?"
        text="La pré-inscription est gratuite et sans engagement : elle nous permet de vous recontacter."
      >
        <Link to="/formulaire-inscription" className={styles.ctaButton}>
          Je me pré-inscris
        </Link>
        <Link to="/inscription-agence-matrimoniale-musulmane" className={styles.ctaLink}>
          Voir le parcours d’inscription
        </Link>
      </CallToAction>
    </DesignedPage>
  );
}

export const Route = createFileRoute('/_default/qui-sommes-nous')({ component: AgencyPage });
