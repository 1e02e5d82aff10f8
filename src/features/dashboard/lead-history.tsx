import type { LeadAnswerSent, LeadEvent } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { deliveryLabel, deliveryTone, historyLine } from '#src/features/dashboard/leads-view.ts';

/** The answers mailed to a lead, newest first: who, when, to whom, the text, and whether it left (decision 211). */
export function LeadAnswers({ answers, titleId }: { answers: LeadAnswerSent[] | null; titleId: string }) {
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.cardTitle}>
        Réponses envoyées
      </h3>
      {answers === null ? (
        <p className={styles.muted}>Chargement…</p>
      ) : answers.length === 0 ? (
        <p className={styles.muted}>Aucune réponse par e-mail pour l’instant.</p>
      ) : (
        <ul className={styles.messages} aria-label="Réponses envoyées">
          {answers.map((a) => (
            <li key={a.id} className={styles.message}>
              <p className={styles.muted}>
                {a.author}, le {formatDateTime(a.at)}, à {a.to} —{' '}
                <span className={styles.badge[deliveryTone(a.delivery)]}>{deliveryLabel(a.delivery)}</span>
              </p>
              <p>
                <strong>Objet :</strong> {a.subject}
              </p>
              <p className={styles.pre}>{a.body}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A lead's history, newest first, each line a French sentence. */
export function LeadHistory({ events, titleId }: { events: LeadEvent[] | null; titleId: string }) {
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.cardTitle}>
        Historique
      </h3>
      {events === null ? (
        <p className={styles.muted}>Chargement…</p>
      ) : events.length === 0 ? (
        <p className={styles.muted}>Aucune modification pour l’instant.</p>
      ) : (
        <ol className={styles.timeline}>
          {events.map((e) => (
            <li key={e.id} className={styles.timelineItem}>
              {formatDateTime(e.at)} — {historyLine(e)}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
