import { useQuery } from '@tanstack/react-query';
import { MemberDocuments } from '#src/features/billing/member-documents.tsx';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { getMemberBilling } from '#src/features/billing/billing-api.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { BillingEntries } from '#src/features/billing/billing-entries.tsx';
import { InstalmentTable, scheduleSummary } from '#src/features/billing/instalment-table.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { count } from '#machines/french/plural.ts';

/** The member page's « Facturation » card (decision 120): the schedule of a monthly plan, then every payment, instalment and refund. */
export function MemberBilling({ memberId }: { memberId: string }) {
  const query = useQuery({ queryKey: memberFileKeys.billing(memberId), queryFn: () => unwrap(getMemberBilling(memberId)) });
  const data = query.data;
  const error = data ? null : errorMessage(query.error);
  return (
    <section className={styles.card} aria-labelledby="billing-title" data-testid="member-billing">
      <h2 id="billing-title" className={styles.cardTitle}>
        Facturation
      </h2>
      {error ? <p role="alert">{error}</p> : null}
      {data ? (
        <>
          <p className={styles.muted}>
            Reçu : {formatEuros(data.totals.receivedCents)} · Remboursé : {formatEuros(data.totals.refundedCents)} · Attendu :{' '}
            {formatEuros(data.totals.expectedCents)}
            {data.totals.failedCount > 0 ? ` · ${count(data.totals.failedCount, 'mensualité échouée', 'mensualités échouées')}` : ''}
          </p>
          {data.schedule ? (
            <>
              <p className={styles.muted}>{scheduleSummary(data.schedule)}</p>
              {data.schedule.flagged.length > 0 ? (
                <p role="alert" className={styles.dialogWarning}>
                  {count(data.schedule.flagged.length, 'prélèvement reçu', 'prélèvements reçus')} hors contrat (après la dernière
                  mensualité, l’arrêt ou la fin du contrat) : remboursé d’office au membre, qui en a été informé par e-mail.
                </p>
              ) : null}
              <div className={styles.tableWrap}>
                <InstalmentTable schedule={data.schedule} tableClass={styles.table} caption="Échéancier des mensualités" />
              </div>
            </>
          ) : null}
          <BillingEntries entries={data.entries} withMember={false} empty="Aucune opération pour ce membre." />
          <MemberDocuments memberId={memberId} />
        </>
      ) : null}
    </section>
  );
}
