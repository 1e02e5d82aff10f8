import { useQuery } from '@tanstack/react-query';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/member-view.ts';
import { api, send } from '#src/lib/api-client.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';

/** `GET /api/v1/dashboard/members/:id/access-log`: who on the staff read this file, newest first. */
function getAccessLog(memberId: string) {
  return send(api.dashboard.members[':id']['access-log'].$get({ param: { id: memberId } }));
}

type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
export type AccessLogEntry = Ok<Awaited<ReturnType<typeof getAccessLog>>>['entries'][number];

/** The staff reads of a member's file (decision 107): the member finds the same list in their export. */
export function AccessLogList({ entries }: { entries: AccessLogEntry[] }) {
  if (entries.length === 0) return <p className={styles.muted}>Aucune consultation enregistrée.</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Membre de l’équipe</th>
            <th scope="col">Consultation</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={`${entry.at}-${entry.staff.id}-${entry.resource}`}>
              <td>{formatDateTime(entry.at)}</td>
              <td>{entry.staff.name}</td>
              <td>{entry.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The access-log card of the member page, loaded after the file itself (so it lists this read). */
export function MemberAccessLog({ memberId }: { memberId: string }) {
  const query = useQuery({
    queryKey: memberFileKeys.accessLog(memberId),
    queryFn: async () => (await unwrap(getAccessLog(memberId))).entries,
  });
  const entries: AccessLogEntry[] | null = query.data ?? null;
  const error = entries ? null : errorMessage(query.error);

  return (
    <section className={styles.card} aria-labelledby="access-log-title">
      <h2 id="access-log-title" className={styles.cardTitle}>
        Consultations du dossier
      </h2>
      <p className={styles.muted}>
        Chaque ouverture de ce dossier ou du contrat signé par l’équipe est enregistrée (conservée 12 mois) ; le membre la retrouve dans
        l’export de ses données.
      </p>
      {error ? (
        <p className={styles.muted}>{error}</p>
      ) : entries ? (
        <AccessLogList entries={entries} />
      ) : (
        <p className={styles.muted}>Chargement…</p>
      )}
    </section>
  );
}
