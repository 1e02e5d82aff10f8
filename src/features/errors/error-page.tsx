import { Link, useRouter, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { Button } from '#src/components/ui/button.tsx';
import * as styles from '#src/features/errors/error-page.css.ts';
import * as layoutStyles from '#src/features/layout/layouts.css.ts';
import { BRAND_NAME, type NavItem } from '#src/features/layout/navigation.ts';
import { SiteFooter } from '#src/features/layout/site-footer.tsx';
import { SiteHeader } from '#src/features/layout/site-header.tsx';
import { isChunkLoadError, reloadOnce } from '#src/lib/chunk-reload.ts';

/** The spec's defaults (§2), in French as decided (decisions §"French everywhere"): still HTTP 404. */
export const DEFAULT_ERROR_STATUS = 404;
export const DEFAULT_ERROR_MESSAGE = 'La page que vous cherchez n’existe pas ou a été déplacée.';
export const NOT_FOUND_NAME = 'Page introuvable';
export const ERROR_NAME = 'Une erreur est survenue';
export const HOME_LINK_TEXT = 'Retour à l’accueil';

/** 'Page introuvable : {path}' (the prerendered 404 page gets the requested path from the server). */
export function notFoundMessage(path: string): string {
  return `${NOT_FOUND_NAME} : ${path}`;
}

/** Pages a lost visitor may be looking for (type-checked against the route tree). */
export const usefulLinks: readonly NavItem[] = [
  { label: 'Qui sommes-nous ?', to: '/qui-sommes-nous' },
  { label: 'S’inscrire', to: '/inscription-agence-matrimoniale-musulmane' },
  { label: 'Le blog', to: '/blog' },
  { label: 'Nous contacter', to: '/contactez-agence-matrimoniale-musulmane' },
];

export interface ErrorPageProps {
  status?: number;
  name?: string;
  message?: string;
  /** Clears the error boundary (the root's `reset`), called once the home page is reached. */
  onReset?: () => void;
}

/**
 * The page of an unexpected error (status, title, message, 'Retour à l’accueil'), on its own: the
 * error may come from the site's layout itself.
 */
export function ErrorPage({ status = DEFAULT_ERROR_STATUS, name, message = DEFAULT_ERROR_MESSAGE, onReset }: ErrorPageProps) {
  const router = useRouter();
  const mainRef = useRef<HTMLElement>(null);
  const title = name || (status === 404 ? NOT_FOUND_NAME : ERROR_NAME);

  useEffect(() => {
    document.title = `${title} (${status}) — ${BRAND_NAME}`;
    mainRef.current?.focus();
  }, [status, title]);

  async function goHome() {
    await router.navigate({ to: '/' });
    onReset?.();
  }

  return (
    <main ref={mainRef} tabIndex={-1} className={styles.page} aria-labelledby="error-title">
      <a href="/" className={styles.brand}>
        {BRAND_NAME}
      </a>
      <p className={styles.status}>{status}</p>
      <h1 id="error-title" className={styles.name}>
        {title}
      </h1>
      <p className={styles.message}>{message || DEFAULT_ERROR_MESSAGE}</p>
      <Button onClick={goHome}>{HOME_LINK_TEXT}</Button>
    </main>
  );
}

/** The 404 page inside the site's layout: header, 'Page introuvable : {path}', useful links, footer. */
export function NotFoundContent({ path }: { path: string }) {
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    document.title = `${NOT_FOUND_NAME} (404) — ${BRAND_NAME}`;
    mainRef.current?.focus();
  }, []);

  return (
    <div className={layoutStyles.shell}>
      <SiteHeader />
      <main id="contenu" ref={mainRef} tabIndex={-1} className={layoutStyles.main} aria-labelledby="error-title">
        <div className={styles.inLayout}>
          <p className={styles.status}>404</p>
          <h1 id="error-title" className={styles.name}>
            {NOT_FOUND_NAME}
          </h1>
          <p className={styles.message}>{notFoundMessage(path)}</p>
          <p className={styles.message}>{DEFAULT_ERROR_MESSAGE}</p>
          <Link to="/" className={buttonClass.primary}>
            {HOME_LINK_TEXT}
          </Link>
          <nav aria-labelledby="useful-links-title" className={styles.links}>
            <h2 id="useful-links-title" className={styles.linksTitle}>
              Vous cherchiez peut-être
            </h2>
            <ul className={styles.linkList}>
              {usefulLinks.map((item) => (
                <li key={item.to}>
                  <Link to={item.to}>{item.label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}

/** The root's `errorComponent`: a chunk that failed to load reloads the page once (spec §4/§8). */
export function RouteErrorPage({ error, reset }: { error: unknown; reset?: () => void }) {
  const chunkError = isChunkLoadError(error);
  const [reloading] = useState(() => chunkError && reloadOnce());
  if (reloading) return null;
  const status = statusOf(error);
  // The error's own name and message are technical (and English): the visitor reads French words.
  const message = status === 404 ? DEFAULT_ERROR_MESSAGE : 'Nous n’avons pas pu afficher cette page. Réessayez dans un instant.';
  return <ErrorPage status={status} message={message} {...(reset ? { onReset: reset } : {})} />;
}

/** The root's `notFoundComponent`: 'Page introuvable : {path}' in the site's layout. */
export function NotFoundPage() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // An unknown back-office address: the back office's own page, in its layout (issue 63).
  if (pathname.startsWith('/dashboard/'))
    return (
      <Suspense fallback={null}>
        <BackOfficeNotFound />
      </Suspense>
    );
  return <NotFoundContent path={pathname} />;
}

const BackOfficeNotFound = lazy(() =>
  import('#src/features/dashboard/dashboard-not-found.tsx').then((m) => ({ default: m.BackOfficeNotFound })),
);

/** An error's HTTP status when it carries one; 500 for any other thrown error. */
function statusOf(error: unknown): number {
  if (error && typeof error === 'object') {
    const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
    if (typeof status === 'number' && status >= 400 && status < 600) return status;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 600) return statusCode;
  }
  return error === undefined || error === null ? DEFAULT_ERROR_STATUS : 500;
}
