import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { listMessages } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime, formatDay } from '#src/features/dashboard/format-fr.ts';
import { getMemberIntroductions } from '#src/features/dashboard/member-file-api.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';

/*
 * The file's tabs that load their own data once opened (decision 209): « Mises en relation » and
 * « Messages ». Their own chunk, like the file's other tabs.
 */

const CandidatesSection = lazy(() =>
  import('#src/features/introductions/candidates-section.tsx').then((m) => ({ default: m.CandidatesSection })),
);

/** « Mises en relation »: every introduction of the member, newest first, then the candidates to propose. */
export function IntroductionsTab({ memberId, memberName, active }: { memberId: string; memberName: string; active: boolean }) {
  const query = useQuery({ queryKey: memberFileKeys.introductions(memberId), queryFn: () => unwrap(getMemberIntroductions(memberId)) });
  const data = query.data ?? null;
  const error = errorMessage(query.error);
  return (
    <>
      <section className={styles.card} aria-labelledby="introductions-title">
        <h2 id="introductions-title" className={styles.cardTitle}>
          Ses mises en relation
        </h2>
        <FormAlert tone="error">{error}</FormAlert>
        {data === null ? (
          error ? null : (
            <p className={styles.muted}>Chargement…</p>
          )
        ) : data.introductions.length === 0 ? (
          <p className={styles.muted}>Aucune mise en relation pour l’instant.</p>
        ) : (
          <ul className={styles.messages} aria-label="Mises en relation du membre, les plus récentes d’abord">
            {data.introductions.map((i) => (
              <li key={i.id} className={styles.message}>
                <Link to="/dashboard/mises-en-relation/$id" params={{ id: i.id }}>
                  Avec {i.other.firstName ?? 'un membre sans prénom'}
                </Link>{' '}
                — <strong>{i.stateLabel}</strong>
                <p className={styles.muted}>
                  Proposée le {formatDay(i.proposedAt)}
                  {i.awaitingAnswers ? ` · réponse attendue avant le ${formatDay(i.deadlineAt)}` : ''}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Suspense fallback={<p className={styles.muted}>Chargement des candidats…</p>}>
        <CandidatesSection memberId={memberId} memberName={memberName} active={active} />
      </Suspense>
    </>
  );
}

/** « Messages »: the conversation with the member, newest first; answering is on the messages page. */
export function MessagesTab({ memberId }: { memberId: string }) {
  const query = useQuery({ queryKey: memberFileKeys.memberMessages(memberId), queryFn: () => unwrap(listMessages(memberId)) });
  const data = query.data ?? null;
  const error = errorMessage(query.error);
  const messages = data ? [...data.messages].sort((a, b) => b.createdAt.localeCompare(a.createdAt)) : null;
  return (
    <section className={styles.card} aria-labelledby="member-messages-title">
      <h2 id="member-messages-title" className={styles.cardTitle}>
        Messages
      </h2>
      <p>
        <Link to="/dashboard/message-direct" search={{ memberId }}>
          Écrire un message ou répondre
        </Link>
      </p>
      <FormAlert tone="error">{error}</FormAlert>
      {messages === null ? (
        error ? null : (
          <p className={styles.muted}>Chargement…</p>
        )
      ) : messages.length === 0 ? (
        <p className={styles.muted}>Aucun message échangé.</p>
      ) : (
        <ul className={styles.messages} aria-label="Messages échangés, les plus récents d’abord">
          {messages.map((m) => (
            <li key={m.id} className={styles.message}>
              <p className={styles.muted}>
                {m.direction === 'to_agency' ? 'Du membre' : 'De l’agence'}, le {formatDateTime(m.createdAt)}
                {m.direction === 'to_agency' && m.staffReadAt === null ? ' · non lu' : ''}
              </p>
              <p>
                <strong>{m.subject}</strong>
              </p>
              <p className={styles.pre}>{m.body}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
