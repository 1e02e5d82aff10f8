import { Link } from '@tanstack/react-router';
import { billingKindLabels, billingStatusLabels } from '#machines/onboarding/labels.ts';
import type { BillingEntryView } from '#src/features/billing/billing-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { StackedCell } from '#src/features/dashboard/stacked-cell.tsx';
import { formatAmount, formatDateTime } from '#src/features/dashboard/format-fr.ts';

/** Billing lines as staff read them (decision 120): French words from the label table, amounts and dates in fr-FR. */
export function BillingEntries({ entries, withMember, empty }: { entries: BillingEntryView[]; withMember: boolean; empty: string }) {
  if (entries.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.stackedTable}`} data-testid="billing-entries">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Type</th>
            {withMember ? <th scope="col">Membre</th> : null}
            <th scope="col">Libellé</th>
            <th scope="col">Montant</th>
            <th scope="col">Statut</th>
            <th scope="col">Facture</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.key} data-status={e.status}>
              <StackedCell label="Date">{formatDateTime(e.at)}</StackedCell>
              <StackedCell label="Type">{billingKindLabels[e.kind]}</StackedCell>
              {withMember ? (
                <StackedCell label="Membre">
                  <Link to="/dashboard/member/$memberId" params={{ memberId: e.memberId }}>
                    {e.memberName}
                  </Link>
                </StackedCell>
              ) : null}
              <StackedCell label="Libellé">
                {e.label}
                {e.outsideContract ? (
                  <>
                    {' '}
                    <span className={styles.badge.danger}>Reçue hors contrat : remboursée d’office</span>
                  </>
                ) : null}
              </StackedCell>
              <StackedCell label="Montant">{formatAmount(e.amountCents)}</StackedCell>
              <StackedCell label="Statut">
                {e.status === 'echouee' ? (
                  <span className={styles.badge.danger}>{billingStatusLabels[e.status]}</span>
                ) : (
                  billingStatusLabels[e.status]
                )}
              </StackedCell>
              <StackedCell label="Facture">{e.invoiceNumber ?? '—'}</StackedCell>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
