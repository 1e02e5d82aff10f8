import { createFileRoute } from '@tanstack/react-router';
import { BillingPage } from '#src/features/billing/billing-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/dashboard/_staff/facturation')({
  component: titled('Facturation — Union Sincère', BillingPage),
});
