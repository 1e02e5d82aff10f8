import { Link } from '@tanstack/react-router';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { SiteLink } from '#src/components/ui/site-link.tsx';
import { REGISTRATION_PATH } from '#src/features/layout/navigation.ts';
import { CallToAction, PageBody, type PageContent } from '#src/features/public-site/content-page.tsx';
import { usePageMeta } from '#src/features/public-site/use-page-meta.ts';
import { FaqSection } from '#src/features/public-site/deferred-sections.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { ResponsiveImage } from '#src/features/public-site/responsive-image.tsx';
import { container } from '#src/styles/global.css.ts';

/** `/`: who the agency is for, how it works, the packs, illustrative testimonials, FAQ. */
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
                Comment ça marche ?
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
      <section className={styles.section} aria-labelledby="home-paths">
        <div className={container}>
          <h2 id="home-paths" className={styles.sectionTitle}>
            Par où commencer ?
          </h2>
          <ul className={styles.grid3}>
            <li className={styles.card}>
              <h3 className={styles.cardTitle}>Vous êtes une femme</h3>
              <p className={styles.cardText}>Confidentialité, place du wali, propositions choisies : un accompagnement à votre rythme.</p>
              <SiteLink to={`${REGISTRATION_PATH}/pour-les-femmes`}>Inscription pour les femmes</SiteLink>
            </li>
            <li className={styles.card}>
              <h3 className={styles.cardTitle}>Vous êtes un homme</h3>
              <p className={styles.cardText}>Une démarche sérieuse, des propositions compatibles et des rencontres dans le respect.</p>
              <SiteLink to={`${REGISTRATION_PATH}/pour-les-hommes`}>Inscription pour les hommes</SiteLink>
            </li>
            <li className={styles.card}>
              <h3 className={styles.cardTitle}>Déjà membre ?</h3>
              <p className={styles.cardText}>Retrouvez votre espace personnel et suivez chaque étape de votre inscription.</p>
              <Link to="/connexion">Se connecter</Link>
            </li>
          </ul>
        </div>
      </section>
      <div className={container}>
        <PageBody page={page} className={styles.prose} />
      </div>
      <FaqSection limit={6} />
      <CallToAction
        title="Prêt à faire le premier pas ?"
        text="La pré-inscription est gratuite et sans engagement : elle nous permet de vous recontacter."
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
