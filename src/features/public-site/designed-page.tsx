import type { ReactNode } from 'react';
import type { PageContent } from '#src/features/public-site/content-page.tsx';
import type { PictureName } from '#src/features/public-site/page-sections.tsx';
import type { PageMeta } from '#src/features/public-site/page-meta.ts';
import { usePageMeta } from '#src/features/public-site/use-page-meta.ts';
import * as styles from '#src/features/public-site/public-site.css.ts';
// The sections' styles: imported here, so that each page showing them has their rules inlined.
import '#src/features/public-site/sections.css.ts';
import { DeferredPart, deferred } from '#src/lib/deferred.tsx';
import { container } from '#src/styles/global.css.ts';

/**
 * A content page in the home page's design language (decision 130): a hero band (eyebrow, title,
 * the page's description as lead, calls to action), then its Markdown laid out as full-width
 * sections, or for a legal page as a column with a table of contents (`page-sections.tsx`, a
 * deferred part: in the prerendered HTML, its code loaded once the page is idle).
 */
const layouts = deferred(() => import('#src/features/public-site/page-sections.tsx'));

export interface DesignedPageProps {
  page: PageContent;
  path: string;
  eyebrow: string;
  /** `legal`: one column and a table of contents; otherwise designed sections, the intro beside this picture. */
  layout: PictureName | 'legal';
  /** Calls to action of the hero band. */
  actions?: ReactNode;
  /** Sections after the text (plans, testimonials, FAQ, call to action). */
  children?: ReactNode;
  meta?: Partial<PageMeta>;
}

export function DesignedPage({ page, path, eyebrow, layout, actions, children, meta }: DesignedPageProps) {
  usePageMeta({ title: page.title, description: page.description, path, ...meta });
  return (
    <>
      <div className={styles.pageHeader}>
        <div className={container}>
          <p className={styles.eyebrow}>{eyebrow}</p>
          <h1 className={styles.heroTitle}>{page.heading}</h1>
          <p className={styles.lead}>{page.description}</p>
          {actions ? <div className={styles.ctas}>{actions}</div> : null}
        </div>
      </div>
      <DeferredPart
        part={layouts}
        render={(module) => (
          <DeferredPart
            part={page.body}
            render={(html) =>
              layout === 'legal' ? <module.LegalBody html={html} /> : <module.DesignedBody html={html} picture={layout} />
            }
          />
        )}
      />
      {children}
    </>
  );
}
