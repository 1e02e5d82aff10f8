import { createFileRoute } from '@tanstack/react-router';
import { LeadsPage } from '#src/features/dashboard/leads-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/prospects')({
  component: titled('Prospects — Union Sincère', LeadsPage),
});
