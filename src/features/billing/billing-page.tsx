import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { billingKindLabels, billingStatusLabels } from '#machines/onboarding/labels.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { type BillingFilters, billingExportHref, getAgencyBilling } from '#src/features/billing/billing-api.ts';
import { Button } from '#src/components/ui/button.tsx';
import { BillingEntries } from '#src/features/billing/billing-entries.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';

const STATUSES = ['payee', 'a-venir', 'echouee', 'annulee', 'remboursement-en-cours', 'rembourse', 'remboursement-echoue'] as const;
const KINDS = ['payment', 'instalment', 'refund'] as const;

/**
 * `/dashboard/facturation` (decision 120): the agency's payments, instalments (paid, failed, due,
 * to come) and refunds with their invoice numbers, filtered by period, status and kind, with
 * totals and the CSV export of the same filters.
 */
export function BillingPage() {
  const ids = { from: useId(), to: useId(), status: useId(), kind: useId() };
  const [filters, setFilters] = useState<BillingFilters>({});
  // The database pages the list (decision 204); a new filter starts again at page 1.
  const [page, setPage] = useState(1);
  const billing = useQuery({
    queryKey: staffKeys.billing(filters, page),
    queryFn: () => unwrap(getAgencyBilling(filters, page)),
    placeholderData: keepPreviousData,
  });
  const { data } = billing;
  const error = errorMessage(billing.error);
  const loading = billing.isFetching;
  const set = (patch: Partial<BillingFilters>) => {
    setFilters((prev) => ({ ...prev, ...patch }));
    setPage(1);
  };

  return (
    <div className={styles.page}>
      <div>
        <h1 className={styles.title}>Facturation</h1>
        <p className={styles.text}>
          Paiements, mensualités (payées, échouées, à venir) et remboursements de tous les membres, avec leur facture, les plus récents
          d’abord.
        </p>
      </div>
      <section className={styles.card} aria-labelledby="billing-list-title" aria-busy={loading}>
        <h2 id="billing-list-title" className={styles.cardTitle}>
          Opérations
        </h2>
        <div className={styles.filters}>
          <label className={styles.control} htmlFor={ids.from}>
            Du
            <input
              id={ids.from}
              type="date"
              className={styles.input}
              value={filters.from ?? ''}
              onChange={(e) => set({ from: e.target.value })}
            />
          </label>
          <label className={styles.control} htmlFor={ids.to}>
            Au
            <input
              id={ids.to}
              type="date"
              className={styles.input}
              value={filters.to ?? ''}
              onChange={(e) => set({ to: e.target.value })}
            />
          </label>
          <label className={styles.control} htmlFor={ids.status}>
            Statut
            <select id={ids.status} className={styles.input} value={filters.status ?? ''} onChange={(e) => set({ status: e.target.value })}>
              <option value="">Tous les statuts</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {billingStatusLabels[s]}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.control} htmlFor={ids.kind}>
            Type
            <select id={ids.kind} className={styles.input} value={filters.kind ?? ''} onChange={(e) => set({ kind: e.target.value })}>
              <option value="">Tous les types</option>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {billingKindLabels[k]}
                </option>
              ))}
            </select>
          </label>
          <a href={billingExportHref(filters)} download data-testid="billing-export">
            Exporter en CSV (Excel)
          </a>
        </div>
        {error ? <p role="alert">{error}</p> : null}
        {data ? (
          <>
            <p className={styles.muted} data-testid="billing-totals">
              Reçu : {formatEuros(data.totals.receivedCents)} · Remboursé : {formatEuros(data.totals.refundedCents)} · Attendu :{' '}
              {formatEuros(data.totals.expectedCents)} · Mensualités échouées : {data.totals.failedCount}
            </p>
            <BillingEntries entries={data.entries} withMember empty="Aucune opération pour ces critères." />
            {data.pageCount > 1 ? (
              <nav className={styles.pager} aria-label="Pagination">
                <Button variant="secondary" disabled={data.page <= 1} onClick={() => setPage(data.page - 1)}>
                  Précédent
                </Button>
                <span>
                  Page {data.page} sur {data.pageCount}
                </span>
                <Button variant="secondary" disabled={data.page >= data.pageCount} onClick={() => setPage(data.page + 1)}>
                  Suivant
                </Button>
              </nav>
            ) : null}
          </>
        ) : null}
      </section>
    </div>
  );
}
