import { useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import * as styles from '#src/features/errors/error-page.css.ts';
import { BRAND_NAME } from '#src/features/layout/navigation.ts';
import { isChunkLoadError, reloadOnce } from '#src/lib/chunk-reload.ts';

/** The spec's defaults (§2); these strings stay in English as quoted by the spec. */
export const DEFAULT_ERROR_STATUS = 404;
export const DEFAULT_ERROR_MESSAGE = "This is not the page you're looking for.";
export const NOT_FOUND_NAME = 'Not Found';

export interface ErrorPageProps {
  status?: number;
  name?: string;
  message?: string;
  /** Clears the error boundary (the root's `reset`), called once the home page is reached. */
  onReset?: () => void;
}

/** The error page of the spec: status, name, message and 'Go back home'. Unknown routes and fatal errors show it. */
export function ErrorPage({ status = DEFAULT_ERROR_STATUS, name, message = DEFAULT_ERROR_MESSAGE, onReset }: ErrorPageProps) {
  const router = useRouter();
  const mainRef = useRef<HTMLElement>(null);
  const title = name || (status === 404 ? NOT_FOUND_NAME : 'Error');

  useEffect(() => {
    document.title = `${status} ${title} — ${BRAND_NAME}`;
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
      <Button onClick={goHome}>Go back home</Button>
    </main>
  );
}

/** The root's `errorComponent`: a chunk that failed to load reloads the page once (spec §4/§8). */
export function RouteErrorPage({ error, reset }: { error: unknown; reset?: () => void }) {
  const chunkError = isChunkLoadError(error);
  const [reloading] = useState(() => chunkError && reloadOnce());
  if (reloading) return null;
  const status = statusOf(error);
  const name = error instanceof Error ? error.name : undefined;
  const message = error instanceof Error ? error.message : undefined;
  return <ErrorPage status={status} {...(name ? { name } : {})} {...(message ? { message } : {})} {...(reset ? { onReset: reset } : {})} />;
}

/** The root's `notFoundComponent`: 'Page not found: {path}'. */
export function NotFoundPage() {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  return <ErrorPage status={404} name={NOT_FOUND_NAME} message={`Page not found: ${pathname}`} />;
}

/** An error's HTTP status when it carries one; 500 for any other thrown error. */
function statusOf(error: unknown): number {
  if (error && typeof error === 'object') {
    const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
    if (typeof status === 'number' && status >= 400 && status < 600) return status;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 600) return statusCode;
  }
  return error === undefined || error === null ? DEFAULT_ERROR_STATUS : 500;
}
