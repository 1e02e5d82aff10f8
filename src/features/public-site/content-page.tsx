import type { ReactNode } from 'react';
import { ContentHtml } from '#src/features/public-site/content-html.tsx';
import { type Deferred, DeferredPart, deferred } from '#src/lib/deferred.tsx';
import type { PageMeta } from '#src/features/public-site/page-meta.ts';
import { usePageMeta } from '#src/features/public-site/use-page-meta.ts';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { container } from '#src/styles/global.css.ts';

/**
 * A page of `content/pages/*.md`: its front matter (`virtual:page-head/<name>`), and its text
 * rendered to HTML (`virtual:content/pages/<name>`) as a deferred part: the prerendered HTML holds
 * it, the browser loads it once the page is idle (src/lib/deferred.tsx).
 */
export interface PageContent {
  title: string;
  description: string;
  heading: string;
  body: Deferred<string>;
}

export function pageContent(
  head: { title: string; description: string; heading: string },
  text: () => Promise<{ default: { html: string } }>,
): PageContent {
  return { ...head, body: deferred(() => text().then((module) => module.default.html)) };
}

/** The page's text (see `PageContent`). */
export function PageBody({ page, className }: { page: PageContent; className?: string }) {
  return <DeferredPart part={page.body} render={(html) => <ContentHtml html={html} {...(className ? { className } : {})} />} />;
}

export interface ContentPageProps {
  page: PageContent;
  path: string;
  eyebrow?: string;
  /** Beside the text from `lg` (forms); below it on small screens. */
  aside?: ReactNode;
  /** Sections after the text (cards, FAQ, call to action). */
  children?: ReactNode;
  meta?: Partial<PageMeta>;
}

/** Title, text and head tags of a content page; the layout brings header, `<main>` and footer. */
export function ContentPage({ page, path, eyebrow, aside, children, meta }: ContentPageProps) {
  usePageMeta({ title: page.title, description: page.description, path, ...meta });
  return (
    <>
      <div className={styles.pageHeader}>
        <div className={container}>
          {eyebrow ? <p className={styles.eyebrow}>{eyebrow}</p> : null}
          <h1 className={styles.pageTitle}>{page.heading}</h1>
          <p className={styles.lead}>{page.description}</p>
        </div>
      </div>
      <div className={`${container} ${styles.body}`}>
        {aside ? (
          <div className={styles.withAside}>
            <PageBody page={page} className={styles.prose} />
            <aside className={styles.aside} aria-label="Formulaire">
              {aside}
            </aside>
          </div>
        ) : (
          <PageBody page={page} className={styles.prose} />
        )}
      </div>
      {children}
    </>
  );
}

/** The closing call to action of the public pages. */
export function CallToAction({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <section className={styles.ctaBand} aria-labelledby="cta-title">
      <div className={container}>
        <h2 id="cta-title" className={styles.ctaTitle}>
          {title}
        </h2>
        <p className={styles.ctaText}>{text}</p>
        <div className={styles.ctas}>{children}</div>
      </div>
    </section>
  );
}
