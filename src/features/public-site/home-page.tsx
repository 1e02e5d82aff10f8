import { Link } from '@tanstack/react-router';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { SiteLink } from '#src/components/ui/site-link.tsx';
import { REGISTRATION_PATH } from '#src/features/layout/navigation.ts';
import { CallToAction, type PageContent } from '#src/features/public-site/content-page.tsx';
import { usePageMeta } from '#src/features/public-site/use-page-meta.ts';
import { HomeSections } from '#src/features/public-site/deferred-sections.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { ResponsiveImage } from '#src/features/public-site/responsive-image.tsx';
import { container } from '#src/styles/global.css.ts';

/**
 * `/`: the hero (in the first load), then who the agency is for, how it works, the packs,
 * illustrative testimonials and the FAQ (`HomeSections`, a deferred part), and a call to action.
 */
export function HomePage({ page }: { page: PageContent }) {
  usePageMeta({ title: page.title, description: page.description, path: '/' });
  return (
    <>
      <section className={styles.hero} aria-labelledby="home-title">
        <div className={`${container} ${styles.heroGrid}`}>
          <div>
            <p className={styles.eyebrow}>Agence matrimoniale musulmane</p>
            <h1 id="home-title" className={styles.heroTitle}>
              {page.heading}
            </h1>
            <p className={styles.lead}>
              Un accompagnement humain, sérieux et discret pour les femmes et les hommes qui souhaitent se marier dans le respect de leurs
              valeurs.
            </p>
            <div className={styles.ctas}>
              <Link to="/formulaire-inscription" className={buttonClass.primary}>
                Je me pré-inscris
              </Link>
              <SiteLink to={REGISTRATION_PATH} className={buttonClass.secondary}>
                Comment ça marche ?
              </SiteLink>
            </div>
          </div>
          <ResponsiveImage
            src="/images/hero.svg"
            alt=""
            width={1200}
            height={900}
            maxDisplayWidth={560}
            sizes="(min-width: 1024px) 40vw, 100vw"
            className={styles.heroImage}
            priority
          />
        </div>
      </section>
      <HomeSections page={page} />
      <CallToAction
        title="Prêt à faire le premier pas ?"
        text="La pré-inscription est gratuite et sans engagement : elle nous permet de vous recontacter."
      >
        <Link to="/formulaire-inscription" className={styles.ctaButton}>
          Je me pré-inscris
        </Link>
        <Link to="/contactez-agence-matrimoniale-musulmane" className={styles.ctaLink}>
          Nous poser une question
        </Link>
      </CallToAction>
    </>
  );
}
