import { Link } from '@tanstack/react-router';
import { PageBody, type PageContent } from '#src/features/public-site/content-page.tsx';
import { IconBadge, type IconName } from '#src/features/public-site/icons.tsx';
import { FaqSection, PlansSection, TestimonialsSection } from '#src/features/public-site/public-sections.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { ResponsiveImage } from '#src/features/public-site/responsive-image.tsx';
import * as sections from '#src/features/public-site/sections.css.ts';
import { siteText } from '#src/features/public-site/site-values.ts';
import { container } from '#src/styles/global.css.ts';
import { type StepId, steps } from '#machines/onboarding/steps.ts';

/**
 * The home page below the hero: static copy and designed components (trust signals, paths, a
 * picture beside the agency's text, what we offer, the steps, plans, testimonials, FAQ). In the
 * prerendered HTML; its code is a deferred part (`deferred-sections.tsx`), loaded once the page is
 * idle, so none of it is in the first load.
 */

const REGISTRATION = '/inscription-agence-matrimoniale-musulmane';

interface Item {
  icon: IconName;
  title: string;
  text: string;
}

const TRUST: Item[] = [
  { icon: 'person', title: 'Un entretien avec chaque membre', text: 'Personne n’est présenté sans avoir été reçu par l’équipe.' },
  { icon: 'eyeOff', title: 'Aucun profil publié', text: 'Ni annonce ni catalogue : vos informations restent entre nous.' },
  { icon: 'shield', title: 'Sans reconduction tacite', text: 'Un contrat de 6 ou 12 mois, qui prend fin de lui-même.' },
  { icon: 'clock', title: 'Un {{delai-renonciation}}', text: 'Après la signature, sans aucun paiement pendant ce délai.' },
];

const OFFER: Item[] = [
  {
    icon: 'listen',
    title: 'Une écoute personnelle',
    text: 'Nous prenons le temps de comprendre votre parcours, votre pratique, votre situation et ce que vous espérez d’un conjoint.',
  },
  {
    icon: 'target',
    title: 'Des propositions réfléchies',
    text: 'Seulement des personnes dont le projet de vie rejoint le vôtre : mieux vaut une proposition juste que dix au hasard.',
  },
  {
    icon: 'family',
    title: 'Un cadre respectueux',
    text: 'Des premiers échanges clairs et retenus ; votre wali ou un proche peut être associé dès le début.',
  },
  {
    icon: 'lock',
    title: 'Une discrétion absolue',
    text: 'Vos informations ne sont communiquées qu’aux personnes qui vous sont proposées, et jamais sans votre accord.',
  },
];

/**
 * The journey's steps as the member's area names and numbers them (the onboarding chart's
 * `steps`): only the one line under each title is the home page's own.
 */
const STEP_LINES: Record<StepId, { icon: IconName; text: string }> = {
  profil: { icon: 'person', text: 'Votre situation, avec votre accord explicite pour votre pratique religieuse.' },
  'questionnaire-profil': { icon: 'form', text: 'Votre pratique et la personne que vous recherchez.' },
  formules: { icon: 'card', text: 'Horizon ou Sérénité : vous ne payez rien à cette étape.' },
  'informations-et-tarifs': { icon: 'check', text: 'Toutes les conditions sur une page, avant de vous engager.' },
  'prendre-un-rendez-vous': { icon: 'calendar', text: 'Un créneau de 15 minutes, au moment que vous choisissez.' },
  'attente-entretien-personnalise': { icon: 'listen', text: 'Nous faisons connaissance, sans frais.' },
  'attente-contrat': {
    icon: 'contract',
    text: 'À durée déterminée, sans reconduction tacite ; puis {{delai-renonciation}}, sans aucun paiement.',
  },
  'frais-de-dossier': { icon: 'lock', text: 'Le délai de renonciation écoulé : frais de dossier et formule, un seul total.' },
  attente: { icon: 'handshake', text: 'Le {{delai-retractation}}, puis l’entretien de rapprochement : les propositions commencent.' },
};

const STEPS: (Item & { number: number })[] = steps.map((step) => ({ ...STEP_LINES[step.id], title: step.title, number: step.number }));

/** « neuf » for the heading: the chart decides how many steps there are. */
const COUNT_WORDS: Readonly<Record<number, string>> = { 7: 'Sept', 8: 'Huit', 9: 'Neuf', 10: 'Dix', 11: 'Onze', 12: 'Douze' };

export function HomeSections({ page }: { page: PageContent }) {
  return (
    <>
      <section aria-label="Nos engagements">
        <div className={container}>
          <ul className={sections.trust}>
            {TRUST.map((item) => (
              <li key={item.icon}>
                <IconBadge name={item.icon} />
                <p>
                  <strong>{siteText(item.title)}</strong>
                  <span>{item.text}</span>
                </p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={styles.sectionMuted} aria-labelledby="home-paths">
        <div className={container}>
          <div className={sections.head}>
            <p>Pour vous</p>
            <h2 id="home-paths">Par où commencer ?</h2>
          </div>
          <ul className={sections.features}>
            <li>
              <IconBadge name="person" />
              <h3>Vous êtes une femme</h3>
              <p>Confidentialité, place du wali, propositions choisies : un accompagnement à votre rythme.</p>
              <Link to="/inscription-agence-matrimoniale-musulmane/pour-les-femmes">Inscription pour les femmes</Link>
            </li>
            <li>
              <IconBadge name="person" />
              <h3>Vous êtes un homme</h3>
              <p>Une démarche sérieuse, des propositions compatibles et des rencontres dans le respect.</p>
              <Link to="/inscription-agence-matrimoniale-musulmane/pour-les-hommes">Inscription pour les hommes</Link>
            </li>
            <li>
              <IconBadge name="family" />
              <h3>Vous êtes un parent ou un wali</h3>
              <p>Vous accompagnez un proche : découvrez la place que nous faisons à la famille.</p>
              <Link to="/blog/$slug" params={{ slug: 'role-du-wali-et-de-la-famille' }}>
                Le rôle du wali et de la famille
              </Link>
            </li>
            <li>
              <IconBadge name="lock" />
              <h3>Déjà membre ?</h3>
              <p>Retrouvez votre espace personnel et suivez chaque étape de votre inscription.</p>
              <Link to="/connexion">Se connecter</Link>
            </li>
          </ul>
        </div>
      </section>

      <section className={styles.section} aria-labelledby="une-agence-pensee-pour-le-mariage-et-seulement-pour-le-mariage">
        <div className={`${container} ${sections.split}`}>
          <ResponsiveImage
            src="/images/accueil/salon.jpg"
            alt="Un salon calme : une table basse, un service à thé et deux verres, devant une fenêtre en arc ouverte sur un jardin."
            width={1600}
            height={1200}
            maxDisplayWidth={520}
            sizes="(min-width: 1024px) 33vw, 100vw"
            className={sections.picture}
          />
          <PageBody page={page} className={styles.prose} />
        </div>
      </section>

      <section className={styles.sectionMuted} aria-labelledby="home-offer">
        <div className={container}>
          <div className={sections.head}>
            <p>Notre accompagnement</p>
            <h2 id="home-offer">Ce que nous vous proposons</h2>
            <p>Une équipe à votre écoute, des propositions réfléchies et un cadre qui respecte votre pudeur, votre famille et votre foi.</p>
          </div>
          <ul className={sections.features}>
            {OFFER.map((item) => (
              <li key={item.title}>
                <IconBadge name={item.icon} />
                <h3>{item.title}</h3>
                <p>{item.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className={styles.section} aria-labelledby="home-steps">
        <div className={container}>
          <div className={sections.head}>
            <p>Comment ça marche</p>
            <h2 id="home-steps">{`${COUNT_WORDS[steps.length] ?? steps.length} étapes, à votre rythme`}</h2>
            <p>
              Après une pré-inscription gratuite, vous avancez depuis votre espace membre : vous savez toujours où vous en êtes, ce qui
              vient ensuite et ce que cela coûte.
            </p>
          </div>
          <ol className={sections.steps}>
            {STEPS.map((step) => (
              <li key={step.title}>
                <IconBadge name={step.icon} />
                <p>Étape {step.number}</p>
                <h3>{step.title}</h3>
                <p>{siteText(step.text)}</p>
              </li>
            ))}
          </ol>
          <p className={styles.ctas}>
            <Link to="/inscription-agence-matrimoniale-musulmane">Le détail de chaque étape</Link>
          </p>
        </div>
      </section>

      <PlansSection />

      <section className={styles.section} aria-labelledby="home-family">
        <div className={`${container} ${sections.split}`}>
          <ResponsiveImage
            src="/images/accueil/famille.jpg"
            alt="Deux familles face à face dans une cour, sous des arches : la rencontre se fait avec les proches."
            width={1600}
            height={1200}
            maxDisplayWidth={520}
            sizes="(min-width: 1024px) 33vw, 100vw"
            className={sections.picture}
          />
          <div>
            <div className={`${sections.head} ${sections.headStart}`}>
              <p>La famille</p>
              <h2 id="home-family">Votre wali et vos proches, à la place que vous choisissez</h2>
              <p>
                Informés de chaque proposition, présents dès le premier échange ou associés un peu plus tard : c’est vous qui décidez, et le
                wali n’a pas besoin de s’inscrire.
              </p>
            </div>
            <p className={styles.ctas}>
              <Link to={REGISTRATION}>Voir le parcours d’inscription</Link>
            </p>
          </div>
        </div>
      </section>

      <TestimonialsSection />
      <FaqSection limit={6} />
    </>
  );
}
