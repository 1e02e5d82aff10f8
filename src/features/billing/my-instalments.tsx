import { useQuery } from '@tanstack/react-query';
import * as styles from '#src/features/account/account.css.ts';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { getMyInstalments } from '#src/features/billing/billing-api.ts';
import { unwrap } from '#src/lib/query-client.ts';
import { InstalmentTable, scheduleSummary } from '#src/features/billing/instalment-table.tsx';

/** "Mes mensualités" in Mon espace, next to the invoices: paid, due, left (decision 120). Nothing for a plan paid at once. */
export function MyInstalments() {
  const schedule = useQuery({
    queryKey: memberKeys.instalments,
    queryFn: async () => (await unwrap(getMyInstalments())).schedule,
  }).data;
  if (!schedule) return null;
  return (
    <section className={styles.panel} aria-labelledby="my-instalments" data-testid="my-instalments">
      <h2 id="my-instalments">Mes mensualités</h2>
      <p className={styles.text}>{scheduleSummary(schedule)}</p>
      <InstalmentTable schedule={schedule} caption="Échéancier de votre formule" />
    </section>
  );
}
