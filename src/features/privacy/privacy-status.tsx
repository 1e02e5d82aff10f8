import type { ConsentStatus } from '#bff/api-type.ts';
import * as styles from '#src/features/privacy/privacy.css.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { consentsQuery, privacyKeys } from '#src/features/privacy/privacy-api.ts';
import { errorMessage } from '#src/lib/query-client.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/*
 * The member's consents and the matchmaking pause, apart from the « Mes données personnelles »
 * section (privacy-section.tsx) and its dialogs: the account home shows the pause notice without
 * loading them.
 */

export type { ConsentStatus } from '#bff/api-type.ts';
type Matchmaking = { paused: true; since: string; message: string } | { paused: false };
const NOT_PAUSED: Matchmaking = { paused: false };

const dateFormat = frenchDateFormat({ dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));

/** The member's consents and whether matchmaking is paused, loaded from the BFF; `reload()` after a withdrawal. */
export function useConsents() {
  const { data, error } = useQuery(consentsQuery);
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: privacyKeys.consents });
  const consents = (data?.consents ?? null) as ConsentStatus[] | null;
  const matchmaking = (data?.matchmaking ?? NOT_PAUSED) as Matchmaking;
  return { consents, matchmaking, error: errorMessage(error), reload };
}

/** Shown on the member's pages while matchmaking is paused by a withdrawal. */
export function MatchmakingPausedNotice({ matchmaking }: { matchmaking: Matchmaking }) {
  if (!matchmaking.paused) return null;
  return (
    <div className={styles.notice} role="status" data-testid="matchmaking-paused">
      <strong>Recherche de profils suspendue depuis le {formatDate(matchmaking.since)}.</strong> {matchmaking.message}
    </div>
  );
}
