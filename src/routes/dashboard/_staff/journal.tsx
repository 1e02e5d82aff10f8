import { createFileRoute } from '@tanstack/react-router';
import { AccessJournalPage } from '#src/features/dashboard/access-journal-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/journal')({
  component: titled('Journal des accès — Union Sincère', AccessJournalPage),
});
