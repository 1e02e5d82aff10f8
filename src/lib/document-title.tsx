import { type ReactNode, useEffect } from 'react';

/**
 * The document title of a page of the member area, the dashboard or the sign-in pages (public
 * pages write theirs with `usePageMeta`). Set from the page's component, which is code-split, so
 * that the titles of every route are not in the route definitions of every page's first load.
 */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** A route's page component with its document title. */
export function titled(title: string, Page: () => ReactNode): () => ReactNode {
  return function Titled() {
    useDocumentTitle(title);
    return <Page />;
  };
}
