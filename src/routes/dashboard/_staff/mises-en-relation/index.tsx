import { createFileRoute } from '@tanstack/react-router';
import { IntroductionsPage } from '#src/features/introductions/introductions-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/mises-en-relation/')({
  component: titled('Mises en relation — Union Sincère', IntroductionsPage),
});
