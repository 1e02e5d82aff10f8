import { Link } from '@tanstack/react-router';
import { PageBody, type PageContent } from '#src/features/public-site/content-page.tsx';
import { usePageMeta } from '#src/features/public-site/use-page-meta.ts';
import * as styles from '#src/features/public-site/public-site.css.ts';

/** `/bio`: the link-in-bio page of the social networks, without the site's layout. */
export function BioPage({ page }: { page: PageContent }) {
  usePageMeta({ title: page.title, description: page.description, path: '/bio' });
  return (
    <main id="contenu" tabIndex={-1} className={styles.bioPage}>
      <div className={styles.bioCard}>
        <img src="/favicon.svg" alt="" width={80} height={80} className={styles.bioLogo} />
        <h1 className={styles.bioTitle}>{page.heading}</h1>
        <PageBody page={page} className={styles.bioContent} />
        <nav aria-label="Informations" className={styles.bioFooter}>
          <Link to="/">Site de l’agence</Link>
          <Link to="/mentions-legales">Mentions légales</Link>
          <Link to="/politique-de-confidentialite">Confidentialité</Link>
        </nav>
      </div>
    </main>
  );
}
