import { createFileRoute } from '@tanstack/react-router';
import { IntroductionDetailPage } from '#src/features/introductions/introduction-detail-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/mises-en-relation/$id')({
  component: titled('Mise en relation — Union Sincère', IntroductionDetailPage),
});
