import { createFileRoute } from '@tanstack/react-router';
import { DefaultLayout } from '#src/features/layout/default-layout.tsx';

/** Layout "default" (pathless): header + main + footer for the public pages. */
export const Route = createFileRoute('/_default')({
  component: DefaultLayout,
});
