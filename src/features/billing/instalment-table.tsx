import { instalmentStatusLabels } from '#machines/onboarding/labels.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import type { MySchedule } from '#src/features/billing/billing-api.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { count } from '#machines/french/plural.ts';
import { cardTable } from '#src/styles/card-table.css.ts';

const day = (iso: string) => frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long' }).format(new Date(iso));

/** The rows of a monthly plan's schedule (decision 120), words from the one label table. */
export function InstalmentTable({
  schedule,
  tableClass,
  caption,
}: {
  schedule: NonNullable<MySchedule>;
  tableClass?: string;
  caption: string;
}) {
  return (
    <table className={tableClass ? `${cardTable} ${tableClass}` : cardTable} data-testid="instalment-schedule">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Mensualité</th>
          <th scope="col">Échéance</th>
          <th scope="col">Montant</th>
          <th scope="col">Statut</th>
        </tr>
      </thead>
      <tbody>
        {schedule.rows.map((row) => (
          <tr key={row.number} data-status={row.status}>
            <td data-label="Mensualité">
              {row.number} sur {row.of}
            </td>
            <td data-label="Échéance">{day(row.dueAt)}</td>
            <td data-label="Montant">{formatEuros(row.amountCents)}</td>
            <td data-label="Statut">
              {instalmentStatusLabels[row.status]}
              {row.status === 'payee' && row.paidAt ? ` le ${day(row.paidAt)}` : ''}
              {row.status === 'payee' && row.refundedCents > 0 ? ` (dont ${formatEuros(row.refundedCents)} remboursés)` : ''}
              {row.status === 'echouee' && row.failedAt ? ` le ${day(row.failedAt)}` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function scheduleSummary(schedule: NonNullable<MySchedule>): string {
  const next = schedule.next ? ` Prochaine échéance : ${formatEuros(schedule.next.amountCents)} le ${day(schedule.next.dueAt)}.` : '';
  // What the contract's refunds gave back from these instalments (decision 175), once there is any.
  const refunded = schedule.refundedCents > 0 ? `, dont ${formatEuros(schedule.refundedCents)} remboursés` : '';
  return `${count(schedule.paidCount, 'mensualité payée', 'mensualités payées')} sur ${schedule.of} (${formatEuros(schedule.paidCents)}${refunded}) ; reste à payer : ${formatEuros(schedule.leftCents)}.${next}`;
}
