import { createFileRoute } from '@tanstack/react-router';
import { AccountLayout } from '#src/features/layout/account-layout.tsx';
import { requireMember } from '#src/lib/route-guards.ts';

/** Layout "mon-compte", guarded by `auth`: every `/mon-compte/*` page needs a signed-in member. */
export const Route = createFileRoute('/mon-compte')({
  beforeLoad: requireMember,
  head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }),
  component: AccountLayout,
});
