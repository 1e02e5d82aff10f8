import * as styles from '#src/features/messages/messages.css.ts';
import { unreadLabel } from '#src/features/messages/unread.ts';
import { srOnly } from '#src/styles/global.css.ts';

/** The count after a link's text; read out as « 3 messages non lus ». Nothing when zero. */
export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span className={styles.unreadBadge} data-testid="unread-badge">
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className={srOnly}> ({unreadLabel(count)})</span>
    </span>
  );
}
