import { createFileRoute } from '@tanstack/react-router';
import { ProgressPage } from '#src/features/introductions/progress-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/mon-compte/progression')({
  component: titled('Mon accompagnement — Union Sincère', ProgressPage),
});
