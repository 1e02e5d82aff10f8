import faq from 'virtual:content/data/faq';
import testimonials from 'virtual:content/data/testimonials';
import publicPlans from 'virtual:public-plans';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { siteText } from '#src/features/public-site/site-values.ts';
import { container } from '#src/styles/global.css.ts';

/** Questions and answers of `content/data/faq.json`, as native disclosure widgets. */
export function FaqSection({ limit, title = 'Questions fréquentes' }: { limit?: number; title?: string }) {
  const items = limit ? faq.slice(0, limit) : faq;
  return (
    <section className={styles.section} aria-labelledby="faq-title">
      <div className={container}>
        <h2 id="faq-title" className={styles.sectionTitle}>
          {title}
        </h2>
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

/** Illustrative testimonials (clearly presented as examples, not real members). */
export function TestimonialsSection({ limit = 3 }: { limit?: number }) {
  return (
    <section className={styles.sectionMuted} aria-labelledby="testimonials-title">
      <div className={container}>
        <h2 id="testimonials-title" className={styles.sectionTitle}>
          Ce que nos accompagnements cherchent à offrir
        </h2>
        <p className={styles.note}>
          Ces récits sont des exemples rédigés pour illustrer notre façon d’accompagner. Ils ne décrivent pas des membres réels et ne
          constituent pas une promesse de résultat.
        </p>
        <ul className={styles.grid3}>
          {testimonials.slice(0, limit).map((item) => (
            <li key={item.name}>
              <figure className={styles.quote}>
                <blockquote>
                  <p>« {item.text} »</p>
                </blockquote>
                <figcaption className={styles.quoteAuthor}>
                  {item.name}, {item.city} — témoignage illustratif
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
 * build time: `virtual:public-plans` in vite.config.ts). The pay-in-full price follows the staff's
 * setting: it is a token, filled in at serve time (decision 106).
 */
export function PlansSection({ titleId = 'plans-title' }: { titleId?: string }) {
  const { monthly, fileFee } = publicPlans;
  return (
    <section className={styles.sectionMuted} aria-labelledby={titleId}>
      <div className={container}>
        <h2 id={titleId} className={styles.sectionTitle}>
          Nos formules
        </h2>
        <ul className={styles.grid3}>
          {monthly.map((plan) => (
            <li key={plan.id} className={plan.highlight ? styles.cardHighlight : styles.card}>
              {plan.highlight ? <p className={styles.badge}>La plus choisie</p> : null}
              <h3 className={styles.cardTitle}>
                {plan.title} — {plan.durationMonths} mois
              </h3>
              <p className={styles.price}>
                {plan.price} <span className={styles.priceCycle}>{plan.cycleLabel}</span>
              </p>
              <p className={styles.priceAlt}>{siteText(`ou ${plan.payInFull} en une fois${plan.payInFullDetail}`)}</p>
              <ul className={styles.featureList}>
                {plan.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </li>
          ))}
          <li className={styles.card}>
            <h3 className={styles.cardTitle}>{fileFee.title}</h3>
            <p className={styles.price}>
              {fileFee.price}{' '}
              <span className={styles.priceCycle}>
                au lieu de <del>{fileFee.displayedPrice}</del>
              </span>
            </p>
            <p className={styles.cardText}>{fileFee.description}</p>
            <p className={styles.cardText}>Identiques pour les deux formules, réglés une seule fois.</p>
          </li>
        </ul>
        <p className={styles.note}>
          Prix toutes taxes comprises, payables par carte sur une page de paiement sécurisée. Contrat à durée déterminée, sans reconduction
          tacite ; {siteText('{{delai-renonciation}}')} après la signature, sans aucun paiement pendant ce délai.
        </p>
      </div>
    </section>
  );
}
