import { createFileRoute } from '@tanstack/react-router';
import { TeamPage } from '#src/features/dashboard/team-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/equipe')({
  component: titled('Équipe — Union Sincère', TeamPage),
});
