import { createFileRoute } from '@tanstack/react-router';
import { MessagesPage } from '#src/features/account/messages-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/mon-compte/messages')({
  component: titled('Messages — Union Sincère', MessagesPage),
});
