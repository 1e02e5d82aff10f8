import { useQuery } from '@tanstack/react-query';
import { api, send } from '#src/lib/api-client.ts';
import { type PollSchedule, pollingOptions, queryClient, unwrap } from '#src/lib/query-client.ts';
import { useBackoff } from '#src/lib/query-provider.tsx';

/** The unread counts' query keys (decision 214). */
export const unreadKeys = {
  all: ['unread'] as const,
  member: ['unread', 'member'] as const,
  staff: ['unread', 'staff'] as const,
  /** The members with unread messages, listed on the staff's messages page. */
  staffRows: ['unread', 'staff', 'rows'] as const,
};

/** A conversation was read or written: the badges ask again at once, the back-off starting over. */
export function messagesChanged(): void {
  void queryClient.invalidateQueries({ queryKey: unreadKeys.all });
}

/**
 * The badges keep up by themselves (decision 128): asked on mount, then every 30 s doubling up to
 * 5 min while the count stays the same (a new message starts the back-off over), nothing while
 * the tab is hidden, at once when it comes back and when a page read or wrote a conversation.
 * 30 s: a member waiting for an answer sees it within half a minute; 5 min: an idle tab costs
 * about a dozen requests an hour.
 */
export const UNREAD_SCHEDULE: PollSchedule = { firstMs: 30_000, maxMs: 5 * 60_000 };

/** The member's count: messages from the agency not yet opened. */
const memberUnreadQuery = {
  queryKey: unreadKeys.member,
  queryFn: async () => (await unwrap(send(api.user.messages.unread.$get()))).unread,
};

export function getStaffUnread() {
  return send(api.dashboard.messages.unread.$get());
}

/** The staff's count: messages members wrote that no one on the staff has opened. */
const staffUnreadQuery = {
  queryKey: unreadKeys.staff,
  queryFn: async () => (await unwrap(getStaffUnread())).total,
};

/** A count from the server, polled with the unread schedule; 0 until the first answer. */
function useCount(query: { queryKey: readonly string[]; queryFn: () => Promise<number> }): number {
  const poller = useBackoff<number>(query.queryKey, UNREAD_SCHEDULE);
  const { data } = useQuery({ ...query, ...pollingOptions, refetchInterval: poller.refetchInterval });
  return data ?? 0;
}

/** The member's messages from the agency not yet opened. */
export function useMemberUnread(): number {
  return useCount(memberUnreadQuery);
}

/** Messages members wrote that no one on the staff has opened. */
export function useStaffUnread(): number {
  return useCount(staffUnreadQuery);
}

/** « 1 message non lu », « 3 messages non lus ». */
export function unreadLabel(count: number): string {
  return count === 1 ? '1 message non lu' : `${count} messages non lus`;
}
