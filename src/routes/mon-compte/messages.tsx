import { createFileRoute } from '@tanstack/react-router';
import { MessagesPage } from '#src/features/account/messages-page.tsx';

export const Route = createFileRoute('/mon-compte/messages')({
  head: () => ({ meta: [{ title: 'Messages — Union Sincère' }] }),
  component: MessagesPage,
});
