import { PLAN_BADGE } from '#machines/glossary.ts';
import faq from 'virtual:content/data/faq';
import testimonials from 'virtual:content/data/testimonials';
import publicPlans from 'virtual:public-plans';
import { Link } from '@tanstack/react-router';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { Icon } from '#src/features/public-site/icons.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import * as sections from '#src/features/public-site/sections.css.ts';
import { siteText } from '#src/features/public-site/site-values.ts';
import { container } from '#src/styles/global.css.ts';

/**
 * Questions and answers of `content/data/faq.json`, as native disclosure widgets (keyboard and
 * screen readers for free, no script), the heading beside them from `lg`.
 */
export function FaqSection({ limit, title = 'Questions fréquentes' }: { limit?: number; title?: string }) {
  const items = limit ? faq.slice(0, limit) : faq;
  return (
    <section className={styles.section} aria-labelledby="faq-title">
      <div className={`${container} ${sections.faq}`}>
        <div>
          <h2 id="faq-title">{title}</h2>
          <p>
            Une autre question ? <Link to="/contactez-agence-matrimoniale-musulmane">Écrivez-nous</Link> : une personne de l’équipe vous
            répond.
          </p>
        </div>
        <div className={styles.faqList}>
          {items.map((item) => (
            <details key={item.question} className={styles.faqItem}>
              <summary className={styles.faqQuestion}>{item.question}</summary>
              <p className={styles.faqAnswer}>{siteText(item.answer)}</p>
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}

/** Initials of a testimonial's author, for the avatar ("Samira B." → "SB"). */
function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase())
    .join('')
    .slice(0, 2);
}

/** Illustrative testimonials (clearly presented as examples, not real members). */
export function TestimonialsSection({ limit = 3 }: { limit?: number }) {
  return (
    <section className={styles.sectionMuted} aria-labelledby="testimonials-title">
      <div className={container}>
        <div className={sections.head}>
          <p>Témoignages illustratifs</p>
          <h2 id="testimonials-title">Ce que nos accompagnements cherchent à offrir</h2>
          <p>
            Ces récits sont des exemples rédigés pour illustrer notre façon d’accompagner. Ils ne décrivent pas des membres réels et ne
            constituent pas une promesse de résultat.
          </p>
        </div>
        <ul className={sections.testimonials}>
          {testimonials.slice(0, limit).map((item) => (
            <li key={item.name}>
              <figure>
                <Icon name="quote" size={32} />
                <blockquote>
                  <p>{item.text}</p>
                </blockquote>
                <figcaption>
                  <span aria-hidden="true">{initials(item.name)}</span>
                  <span>
                    <strong>{item.name}</strong>
                    <small>{item.city} — témoignage illustratif</small>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/**
 * The two packs with the spec's prices, and the file fee (`machines/onboarding/plans.ts`, read at
 * build time: `virtual:public-plans` in vite.config.ts), the same source as the app's offers. The
 * pay-in-full price follows the staff's setting: it is a token, filled in at serve time (decision 106).
 */
export function PlansSection({ titleId = 'plans-title' }: { titleId?: string }) {
  const { monthly, fileFee } = publicPlans;
  return (
    <section className={styles.sectionMuted} aria-labelledby={titleId}>
      <div className={container}>
        <div className={sections.head}>
          <p>Tarifs</p>
          <h2 id={titleId}>Nos formules</h2>
          <p>Un même accompagnement, deux durées. Vous choisissez votre formule depuis votre espace membre, après la pré-inscription.</p>
        </div>
        <ul className={sections.plans}>
          {monthly.map((plan) => (
            <li key={plan.id} {...(plan.highlight ? { 'data-highlight': '' } : {})}>
              {plan.highlight ? <p className={styles.badge}>{PLAN_BADGE}</p> : null}
              <h3 className={styles.cardTitle}>
                {plan.title} — {plan.durationMonths} mois
              </h3>
              <p className={styles.price}>
                {plan.price} <span className={styles.priceCycle}>{plan.cycleLabel}</span>
              </p>
              <p className={styles.priceAlt}>{siteText(`ou ${plan.payInFull} en une seule fois${plan.payInFullDetail}`)}</p>
              <ul>
                {plan.features.map((feature) => (
                  <li key={feature}>
                    <Icon name="check" size={18} />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
              <Link to="/formulaire-inscription" className={plan.highlight ? buttonClass.primary : buttonClass.secondary}>
                Je me pré-inscris
              </Link>
            </li>
          ))}
          <li>
            <h3 className={styles.cardTitle}>{fileFee.title}</h3>
            <p className={styles.price}>
              {fileFee.price} <span className={styles.priceCycle}>une seule fois</span>
            </p>
            <p className={styles.cardText}>{fileFee.description}</p>
            <ul>
              <li>
                <Icon name="check" size={18} />
                <span>Identiques pour les deux formules</span>
              </li>
              <li>
                <Icon name="check" size={18} />
                <span>Réglés une seule fois, par carte</span>
              </li>
            </ul>
          </li>
        </ul>
        <p className={styles.note}>
          Prix toutes taxes comprises, payables par carte sur une page de paiement sécurisée. Contrat à durée déterminée, sans reconduction
          tacite ; {siteText('{{delai-renonciation}}')} après la signature, sans aucun paiement pendant ce délai.
        </p>
      </div>
    </section>
  );
}
