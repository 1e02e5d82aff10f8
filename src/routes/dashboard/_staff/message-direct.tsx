import { createFileRoute } from '@tanstack/react-router';
import { DirectMessagePage } from '#src/features/dashboard/direct-message-page.tsx';
import { checkedSearch } from '#src/lib/checked-search.tsx';
import { matching } from '#src/lib/search-params.ts';
import { titled } from '#src/lib/document-title.tsx';

/** `?memberId=<uuid>` preselects the member; checked in the page's chunk (decision 220). */
const checkMessageSearch = (search: Record<string, unknown>): { memberId?: string } => ({
  memberId: matching(search.memberId, /^[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}$/i),
});

export const Route = createFileRoute('/dashboard/_staff/message-direct')({
  validateSearch: (search: Record<string, unknown>) => search as { memberId?: string },
  component: titled('Messages — Union Sincère', checkedSearch(checkMessageSearch, DirectMessagePage)),
});
