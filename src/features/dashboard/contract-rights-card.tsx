import { formatEuros } from '#machines/onboarding/plans.ts';
import type { MemberDetail } from '#src/features/dashboard/dashboard-api.ts';
import { formatDateTime, formatDay } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { TerminationDecision, TerminationLetter } from '#src/features/dashboard/termination-decision.tsx';

/** The member's rights and term as staff read them (decision 118): dates, deadlines, refunds owed. */
export function ContractRightsCard({
  rights,
  memberId,
  onReload,
  canRecordLetter = false,
}: {
  rights: MemberDetail['rights'] | undefined;
  memberId: string;
  onReload: () => Promise<void>;
  /** An active member without a pending request: staff may record a letter (decision 189). */
  canRecordLetter?: boolean;
}) {
  if (!rights || rights.signedAt === null) return null;
  const at = (iso: string | null) => (iso === null ? '—' : formatDateTime(iso));
  // The periods and the term end at midnight starting the next day (civil days, decisions 118 and
  // 165): the last day they include is the day before (the contract's « prend fin le … »).
  const lastDay = (iso: string | null) => (iso === null ? '—' : formatDay(new Date(Date.parse(iso) - 1).toISOString()));
  return (
    <section className={styles.card} aria-labelledby="rights-title">
      <h2 id="rights-title" className={styles.cardTitle}>
        Droits et terme du contrat
      </h2>
      <dl className={styles.definitions}>
        <dt>Contrat signé</dt>
        <dd>{at(rights.signedAt)}</dd>
        <dt>Renonciation possible jusqu’au (inclus, 7 jours)</dt>
        <dd>{lastDay(rights.renunciationEndsAt)}</dd>
        <dt>Rétractation possible jusqu’au (inclus, 14 jours)</dt>
        <dd>{lastDay(rights.withdrawalEndsAt)}</dd>
        <dt>Fin du contrat (dernier jour)</dt>
        <dd>{lastDay(rights.termEndsAt)}</dd>
        {rights.renouncedAt ? (
          <>
            <dt>Contrat annulé (renonciation)</dt>
            <dd>{at(rights.renouncedAt)}</dd>
          </>
        ) : null}
        {rights.withdrawnAt ? (
          <>
            <dt>Contrat résilié (rétractation)</dt>
            <dd>{at(rights.withdrawnAt)}</dd>
          </>
        ) : null}
      </dl>
      {rights.termination ? <TerminationDecision memberId={memberId} termination={rights.termination} onDecided={onReload} /> : null}
      {canRecordLetter ? <TerminationLetter memberId={memberId} onRecorded={onReload} /> : null}
      {rights.refunds.length > 0 ? (
        <ul>
          {rights.refunds.map((r) => (
            <li key={`${r.requestedAt}-${r.amountCents}-${r.dueBy}`}>
              Remboursement de {formatEuros(r.amountCents)}
              {r.keptCents > 0 ? ` (${formatEuros(r.keptCents)} retenus au prorata)` : ''} — à effectuer au plus tard le {at(r.dueBy)} :{' '}
              {r.done ? `effectué le ${at(r.completedAt)}` : 'en attente'}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
