import { createRootRouteWithContext } from '@tanstack/react-router';
import { NotFoundPage, RouteErrorPage } from '#src/features/errors/lazy-error-pages.tsx';
import { RootLayout } from '#src/features/layout/root-layout.tsx';
import type { RouterContext } from '#src/lib/router-context.ts';

export const Route = createRootRouteWithContext<RouterContext>()({
  head: () => ({
    meta: [{ title: 'Union Sincère — agence matrimoniale musulmane' }],
  }),
  component: RootLayout,
  errorComponent: RouteErrorPage,
  notFoundComponent: NotFoundPage,
});
