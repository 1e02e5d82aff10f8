import { useEffect, useState } from 'react';
import { api, send } from '#src/lib/api-client.ts';

/** Dispatched on `window` when a conversation was read or written: the badges ask again. */
export const MESSAGES_CHANGED = 'union:messages-changed';

export function messagesChanged(): void {
  window.dispatchEvent(new Event(MESSAGES_CHANGED));
}

/** A count from the server, asked on mount and again whenever a conversation changed. */
function useCount(load: () => Promise<number | null>): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    let alive = true;
    const refresh = () => {
      void load().then((n) => {
        if (alive && n !== null) setCount(n);
      });
    };
    refresh();
    window.addEventListener(MESSAGES_CHANGED, refresh);
    return () => {
      alive = false;
      window.removeEventListener(MESSAGES_CHANGED, refresh);
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
