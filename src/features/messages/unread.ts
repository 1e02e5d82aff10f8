import { useEffect, useState } from 'react';
import { api, send } from '#src/lib/api-client.ts';
import { browserEnvironment, type PollSchedule, poll } from '#src/lib/poll.ts';

/** Dispatched on `window` when a conversation was read or written: the badges ask again. */
const MESSAGES_CHANGED = 'union:messages-changed';

export function messagesChanged(): void {
  window.dispatchEvent(new Event(MESSAGES_CHANGED));
}

/**
 * The badges keep up by themselves (decision 128): asked on mount, then every 30 s doubling up to
 * 5 min while the count stays the same (a new message starts the back-off over), nothing while
 * the tab is hidden, at once when it comes back and when a page read or wrote a conversation.
 * 30 s: a member waiting for an answer sees it within half a minute; 5 min: an idle tab costs
 * about a dozen requests an hour.
 */
export const UNREAD_SCHEDULE: PollSchedule = { firstMs: 30_000, maxMs: 5 * 60_000 };

/** A count from the server, kept up to date by the shared poller. */
function useCount(load: () => Promise<number | null>): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    let alive = true;
    let last: number | null = null;
    const poller = poll(
      async () => {
        const n = await load();
        if (!alive || n === null) return 'unchanged';
        const changed = last !== null && n !== last;
        last = n;
        setCount(n);
        return changed ? 'changed' : 'unchanged';
      },
      browserEnvironment(),
      UNREAD_SCHEDULE,
      { immediate: true },
    );
    window.addEventListener(MESSAGES_CHANGED, poller.now);
    return () => {
      alive = false;
      poller.stop();
      window.removeEventListener(MESSAGES_CHANGED, poller.now);
    };
  }, [load]);
  return count;
}

const loadMemberUnread = async () => {
  const result = await send(api.user.messages.unread.$get());
  return result.ok ? result.data.unread : null;
};

/** The member's messages from the agency not yet opened. */
export function useMemberUnread(): number {
  return useCount(loadMemberUnread);
}

export function getStaffUnread() {
  return send(api.dashboard.messages.unread.$get());
}

const loadStaffUnread = async () => {
  const result = await getStaffUnread();
  return result.ok ? result.data.total : null;
};

/** Messages members wrote that no one on the staff has opened. */
export function useStaffUnread(): number {
  return useCount(loadStaffUnread);
}

/** « 1 message non lu », « 3 messages non lus ». */
export function unreadLabel(count: number): string {
  return count === 1 ? '1 message non lu' : `${count} messages non lus`;
}
