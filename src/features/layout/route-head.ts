import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';

/** One entry of a route's `head().meta`. */
type HeadMeta = { title?: string; name?: string; content?: string } | undefined;

/**
 * The title and robots rule that the matched routes' `head()` give (sign-in, member area,
 * dashboard), the deepest route winning. The root's default title is the HTML's own, and public
 * pages write their head tags with `usePageMeta`: neither is set from here.
 */
function routeHeadOf(matches: readonly { routeId: string; meta?: readonly HeadMeta[] | undefined }[]): {
  title: string | null;
  robots: string | null;
} {
  let title: string | null = null;
  let robots: string | null = null;
  for (const match of matches) {
    if (match.routeId === '__root__') continue;
    for (const entry of match.meta ?? []) {
      if (entry?.title) title = entry.title;
      if (entry?.name === 'robots' && entry.content) robots = entry.content;
    }
  }
  return { title, robots };
}

/**
 * Applies the routes' `head()` to the document after each navigation: what the router's
 * `HeadContent` did for this app (titles and `robots` only), without its code in the first load.
 */
export function useRouteHead(): void {
  const title = useRouterState({ select: (state) => routeHeadOf(state.matches).title });
  const robots = useRouterState({ select: (state) => routeHeadOf(state.matches).robots });

  useEffect(() => {
    if (title) document.title = title;
  }, [title]);

  useEffect(() => {
    if (!robots) return;
    let element = document.head.querySelector<HTMLMetaElement>('meta[name="robots"]');
    if (!element) {
      element = document.createElement('meta');
      element.name = 'robots';
      document.head.append(element);
    }
    element.content = robots;
  }, [robots]);
}
