import { createFileRoute } from '@tanstack/react-router';
import { DefaultLayout } from '#src/features/layout/default-layout.tsx';

/**
 * Layout "default" (pathless): header + main + footer for the public pages. Not split: its
 * component lives in the public shell's chunk already, and a split would add one more file to every
 * public page's first load only to re-export it.
 */
export const Route = createFileRoute('/_default')({
  codeSplitGroupings: [],
  component: DefaultLayout,
});
