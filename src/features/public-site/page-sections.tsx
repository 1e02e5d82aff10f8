import { ContentHtml } from '#src/features/public-site/content-html.tsx';
import {
  type ContentSection,
  listSteps,
  sectionKind,
  splitContent,
  stripNumber,
  tableOfContents,
} from '#src/features/public-site/content-sections.ts';
import { IconBadge, type IconName } from '#src/features/public-site/icons.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { ResponsiveImage } from '#src/features/public-site/responsive-image.tsx';
import * as sections from '#src/features/public-site/sections.css.ts';
import { siteHtml } from '#src/features/public-site/site-values.ts';
import { container } from '#src/styles/global.css.ts';

/**
 * The text of a content page laid out with the home page's components (decision 130): one
 * full-width band per `<h2>` of its Markdown — `<h3>` parts as icon cards, numbered parts or an
 * ordered list as step cards, questions as disclosure widgets, prose beside its heading — or, for
 * the legal pages, one readable column with a table of contents. In the prerendered HTML; its code
 * is a deferred part (`designed-page.tsx`), loaded once the page is idle.
 */

export type PictureName = 'salon' | 'famille';

const PICTURES: Record<PictureName, { src: string; alt: string }> = {
  salon: {
    src: '/images/accueil/salon.jpg',
    alt: 'Un salon calme : une table basse, un service à thé et deux verres, devant une fenêtre en arc ouverte sur un jardin.',
  },
  famille: {
    src: '/images/accueil/famille.jpg',
    alt: 'Deux familles face à face dans une cour, sous des arches : la rencontre se fait avec les proches.',
  },
};

/** Icons of the cards, by heading id (others get a tick). */
const CARD_ICONS: Record<string, IconName> = {
  'la-sincerite': 'target',
  'le-respect': 'family',
  'la-discretion': 'lock',
  lengagement: 'handshake',
  'votre-vie-privee-protegee': 'eyeOff',
  'une-place-pour-votre-wali-et-votre-famille': 'family',
  'des-hommes-recus-et-engages': 'person',
  'le-droit-de-dire-non-a-tout-moment': 'shield',
  'une-intention-claire': 'target',
  'une-presentation-honnete': 'person',
  'le-respect-des-limites': 'shield',
  'des-propositions-choisies': 'target',
  'un-regard-exterieur': 'listen',
  'un-cadre-qui-rassure-les-familles': 'family',
};

/** The icon of a step, from its title (the questionnaire first: « … de rapprochement »). */
const STEP_ICONS: [RegExp, IconName][] = [
  [/questionnaire/i, 'target'],
  [/pré-inscription/i, 'form'],
  [/informations personnelles/i, 'person'],
  [/informations et tarifs/i, 'form'],
  [/frais/i, 'card'],
  [/entretien personnalisé/i, 'calendar'],
  [/contrat/i, 'contract'],
  [/rétractation/i, 'clock'],
  [/formule|paiement/i, 'card'],
  [/rapprochement/i, 'handshake'],
];

export function stepIcon(title: string): IconName {
  return STEP_ICONS.find(([pattern]) => pattern.test(title))?.[1] ?? 'check';
}

function Html({ as: Tag, html, id, className }: { as: 'h2' | 'h3' | 'span'; html: string; id?: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own Markdown, rendered at build time
  return <Tag {...(id ? { id } : {})} {...(className ? { className } : {})} dangerouslySetInnerHTML={{ __html: siteHtml(html) }} />;
}

function Head({ section, text }: { section: ContentSection; text: string }) {
  return (
    <div className={sections.head}>
      <Html as="h2" id={section.id} html={section.title} />
      {text ? <ContentHtml html={text} /> : null}
    </div>
  );
}

function StepCards({ steps }: { steps: { title: string; html: string }[] }) {
  return (
    <ol className={sections.steps}>
      {steps.map((step, index) => (
        <li key={step.title || index}>
          <IconBadge name={stepIcon(step.title)} />
          <p>Étape {index + 1}</p>
          <Html as="h3" html={step.title} />
          <ContentHtml html={step.html} />
        </li>
      ))}
    </ol>
  );
}

function SectionContent({ section }: { section: ContentSection }) {
  const kind = sectionKind(section);
  if (kind === 'prose') {
    return (
      <div className={`${container} ${sections.faq}`}>
        <Html as="h2" id={section.id} html={section.title} />
        <ContentHtml
          html={[section.html, ...section.parts.map((part) => `<h3 id="${part.id}">${part.title}</h3>${part.html}`)].join('\n')}
          className={styles.prose}
        />
      </div>
    );
  }
  if (kind === 'questions') {
    return (
      <div className={`${container} ${sections.faq}`}>
        <div>
          <Html as="h2" id={section.id} html={section.title} />
          {section.html ? <ContentHtml html={section.html} /> : null}
        </div>
        <div className={styles.faqList}>
          {section.parts.map((part) => (
            <details key={part.id} className={styles.faqItem}>
              <summary className={styles.faqQuestion}>
                <Html as="span" html={part.title} />
              </summary>
              <ContentHtml html={part.html} className={styles.faqAnswer} />
            </details>
          ))}
        </div>
      </div>
    );
  }
  if (kind === 'list-steps') {
    const { before, steps, after } = listSteps(section.html);
    return (
      <div className={container}>
        <Head section={section} text={before} />
        <StepCards steps={steps} />
        {after ? <ContentHtml html={after} className={styles.note} /> : null}
      </div>
    );
  }
  if (kind === 'steps') {
    return (
      <div className={container}>
        <Head section={section} text={section.html} />
        <StepCards steps={section.parts.map((part) => ({ title: stripNumber(part.title), html: part.html }))} />
      </div>
    );
  }
  return (
    <div className={container}>
      <Head section={section} text={section.html} />
      <ul className={sections.features} data-count={section.parts.length}>
        {section.parts.map((part) => (
          <li key={part.id}>
            <IconBadge name={CARD_ICONS[part.id] ?? 'check'} />
            <Html as="h3" id={part.id} html={part.title} />
            <ContentHtml html={part.html} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A content page's text as designed bands; the text before its first heading beside a picture. */
export function DesignedBody({ html, picture }: { html: string; picture: PictureName }) {
  const { intro, sections: parts } = splitContent(html);
  const image = PICTURES[picture];
  // Bands alternate, the last one white: the sections after it (plans, testimonials) are muted.
  const muted = (index: number) => (parts.length - 1 - index) % 2 === 1;
  return (
    <>
      {intro ? (
        <section className={muted(-1) ? styles.sectionMuted : styles.section} aria-label="Présentation">
          {/* The text first: on a phone the picture comes below it, out of the first screen (LCP). */}
          <div className={`${container} ${sections.split}`} data-text-first="">
            <ContentHtml html={intro} className={styles.prose} />
            <ResponsiveImage
              src={image.src}
              alt={image.alt}
              width={1600}
              height={1200}
              maxDisplayWidth={520}
              sizes="(min-width: 1024px) 33vw, 100vw"
              className={sections.picture}
            />
          </div>
        </section>
      ) : null}
      {parts.map((section, index) => (
        <section key={section.id} className={muted(index) ? styles.sectionMuted : styles.section} aria-labelledby={section.id}>
          <SectionContent section={section} />
        </section>
      ))}
    </>
  );
}

/** A legal page: one readable column, its table of contents beside it from `lg`. */
export function LegalBody({ html }: { html: string }) {
  const toc = tableOfContents(html);
  return (
    <div className={`${container} ${styles.body} ${sections.doc}`}>
      <nav aria-labelledby="toc-title">
        <p id="toc-title">Sommaire</p>
        <ol>
          {toc.map((entry) => (
            <li key={entry.id}>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a heading of the site's own Markdown */}
              <a href={`#${entry.id}`} dangerouslySetInnerHTML={{ __html: siteHtml(entry.html) }} />
            </li>
          ))}
        </ol>
      </nav>
      <ContentHtml html={html} className={styles.prose} />
    </div>
  );
}
