import { Link } from '@tanstack/react-router';
import { BRAND_NAME, type NavItem } from '#src/features/layout/navigation.ts';
import * as styles from '#src/features/layout/site-footer.css.ts';
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

interface SocialLink {
  label: string;
  href: string;
}

/** Placeholder profile addresses until the agency gives its own. */
const socialLinks: readonly SocialLink[] = [
  { label: 'Facebook', href: 'https://www.facebook.com/' },
  { label: 'Instagram', href: 'https://www.instagram.com/' },
  { label: 'TikTok', href: 'https://www.tiktok.com/' },
];

/** The site footer (spec §2): sitemap, customer information, cookies, social links, copyright. */
export function SiteFooter() {
  const year = new Date().getFullYear();
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
          <div>
            <h2 id="footer-social" className={styles.heading}>
              Suivez-nous
            </h2>
            <ul className={styles.list} aria-labelledby="footer-social">
              {socialLinks.map((social) => (
                <li key={social.label}>
                  <a href={social.href} className={styles.link} target="_blank" rel="noopener noreferrer">
                    {social.label}
                    <span className={srOnly}> (nouvel onglet)</span>
                  </a>
                </li>
              ))}
            </ul>
          </div>
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
