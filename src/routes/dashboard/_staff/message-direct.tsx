import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { DirectMessagePage } from '#src/features/dashboard/direct-message-page.tsx';

export const Route = createFileRoute('/dashboard/_staff/message-direct')({
  validateSearch: v.object({ memberId: v.fallback(v.optional(v.pipe(v.string(), v.uuid())), undefined) }),
  head: () => ({ meta: [{ title: 'Message direct — Union Sincère' }] }),
  component: DirectMessagePage,
});
