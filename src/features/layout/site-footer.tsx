import { Link } from '@tanstack/react-router';
import { BRAND_NAME, type NavItem } from '#src/features/layout/navigation.ts';
import * as styles from '#src/features/layout/site-footer.css.ts';
import { pageSiteValues } from '#src/features/public-site/site-values.ts';
import { socialNetworks } from '#machines/public-site/social-links.ts';
import { container, srOnly } from '#src/styles/global.css.ts';

/** The footer's links: with the footer, out of the header's first load. */
const footerSitemap: readonly NavItem[] = [
  { label: 'Accueil', to: '/' },
  { label: 'Qui sommes-nous ?', to: '/qui-sommes-nous' },
  { label: 'Blog', to: '/blog' },
  { label: 'Inscription pour les hommes', to: '/inscription-agence-matrimoniale-musulmane/pour-les-hommes' },
  { label: 'Inscription pour les femmes', to: '/inscription-agence-matrimoniale-musulmane/pour-les-femmes' },
  { label: 'Contact', to: '/contactez-agence-matrimoniale-musulmane' },
];

const footerLegal: readonly NavItem[] = [
  { label: 'Mentions légales', to: '/mentions-legales' },
  { label: 'Conditions générales de vente', to: '/conditions-generales-de-vente' },
  { label: 'Politique de confidentialité', to: '/politique-de-confidentialite' },
];

/**
 * The agency's pages on the networks, from the configuration (decision 198): during the prerender
 * each link keeps its `{{reseau.…}}` token and its `data-reseau` mark, and the server removes the
 * ones without an address (and the whole block when none has one) as it fills the tokens in; the
 * browser, which reads the values from the page, renders the same.
 */
function socialLinks(): { key: string; label: string; href: string }[] {
  const values = pageSiteValues();
  return socialNetworks
    .map(({ key, label }) => ({ key, label, href: values ? (values[`reseau.${key}`] ?? '') : `{{reseau.${key}}}` }))
    .filter((link) => link.href !== '');
}

/** The site footer (spec §2): sitemap, customer information, cookies, social links, copyright. */
export function SiteFooter() {
  const year = new Date().getFullYear();
  const social = socialLinks();
  return (
    <footer className={styles.footer}>
      <div className={container}>
        <div className={styles.grid}>
          <div>
            <p className={styles.brand}>{BRAND_NAME}</p>
            <p className={styles.tagline}>Agence matrimoniale musulmane : un accompagnement sérieux et bienveillant vers le mariage.</p>
          </div>
          <nav aria-labelledby="footer-sitemap">
            <h2 id="footer-sitemap" className={styles.heading}>
              Plan du site
            </h2>
            <ul className={styles.list}>
              {footerSitemap.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className={styles.link}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-labelledby="footer-legal">
            <h2 id="footer-legal" className={styles.heading}>
              Informations client
            </h2>
            <ul className={styles.list}>
              {footerLegal.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className={styles.link}>
                    {item.label}
                  </Link>
                </li>
              ))}
              <li>
                {/* Opens the cookie banner: consent-opener.ts listens to its clicks from the start. */}
                <button type="button" className={styles.cookieButton} data-consent-open="">
                  Gérer les cookies
                </button>
              </li>
            </ul>
          </nav>
          {social.length > 0 ? (
            <div data-reseaux="">
              <h2 id="footer-social" className={styles.heading}>
                Suivez-nous
              </h2>
              <ul className={styles.list} aria-labelledby="footer-social">
                {social.map((link) => (
                  <li key={link.key} data-reseau={link.key}>
                    <a href={link.href} className={styles.link} target="_blank" rel="noopener noreferrer">
                      {link.label}
                      <span className={srOnly}> (nouvel onglet)</span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
        <div className={styles.bottom}>
          <p>
            © {year} {BRAND_NAME}. Tous droits réservés.
          </p>
        </div>
      </div>
    </footer>
  );
}
