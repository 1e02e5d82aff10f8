import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '#src/features/layout/auth-layout.tsx';

/** Layout "auth" (pathless): the sign-in area's centred card. */
export const Route = createFileRoute('/_auth')({
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: AuthLayout,
});
