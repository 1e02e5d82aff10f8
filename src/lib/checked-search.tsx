import { Navigate, useSearch } from '@tanstack/react-router';
import type { ReactNode } from 'react';

type Search = Record<string, unknown>;

/** The keys `check` knows whose value in `search` it dropped or changed. */
export function malformedKeys(search: Search, checked: Search): string[] {
  return Object.keys(checked).filter((key) => search[key] !== undefined && search[key] !== checked[key]);
}

/**
 * A signed-in route's search checked in the route's own chunk instead of by `validateSearch`
 * (decision 220): the route tree, with every `validateSearch`, is in every public page's first
 * load. The route declares its search type (`validateSearch: (search) => search as S`), and
 * `Page` renders with checked values only: an address with a malformed one is replaced at once by
 * the address with the checked values (a bad link still opens the page's default).
 */
export function checkedSearch<S extends object>(check: (search: Search) => S, Page: () => ReactNode): () => ReactNode {
  return function CheckedSearch() {
    const search = useSearch({ strict: false }) as Search;
    const checked = check(search) as Search;
    if (malformedKeys(search, checked).length > 0) return <Navigate to="." search={checked as never} replace />;
    return <Page />;
  };
}
