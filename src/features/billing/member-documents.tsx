import { useQuery } from '@tanstack/react-query';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { getMemberCreditNotes, getMemberInvoices } from '#src/features/billing/billing-api.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';

interface Document {
  kind: 'Facture' | 'Avoir';
  number: string;
  label: string;
  amountCents: number;
  at: string;
  href: string;
}

type Invoices = Extract<Awaited<ReturnType<typeof getMemberInvoices>>, { ok: true }>['data']['invoices'];
type CreditNotes = Extract<Awaited<ReturnType<typeof getMemberCreditNotes>>, { ok: true }>['data']['creditNotes'];

/** Invoices then credit notes, each with the staff URL of its PDF. */
export function documentsOf(memberId: string, invoices: Invoices, notes: CreditNotes): Document[] {
  const id = encodeURIComponent(memberId);
  return [
    ...invoices.map((i) => ({
      kind: 'Facture' as const,
      number: i.number,
      label: i.label,
      amountCents: i.totalCents,
      at: i.paidAt,
      href: `/api/v1/dashboard/members/${id}/invoices/${encodeURIComponent(i.number)}.pdf`,
    })),
    ...notes.map((n) => ({
      kind: 'Avoir' as const,
      number: n.number,
      label: n.invoiceNumber ? `${n.label} (facture ${n.invoiceNumber})` : n.label,
      amountCents: n.amountCents,
      at: n.issuedAt,
      href: `/api/v1/dashboard/members/${id}/credit-notes/${encodeURIComponent(n.number)}.pdf`,
    })),
  ];
}

/** The list itself: number, what, amount, date, PDF. */
export function DocumentList({ documents }: { documents: Document[] }) {
  return (
    <div className={styles.part} data-testid="member-documents">
      <h3 className={styles.partTitle}>Factures et avoirs</h3>
      {documents.length === 0 ? (
        <p className={styles.muted}>Aucune facture pour l’instant.</p>
      ) : (
        <ul>
          {documents.map((d) => (
            <li key={d.number}>
              {d.kind} {d.number} — {d.label}, {formatEuros(d.amountCents)}, le {formatDateTime(d.at)} :{' '}
              <a href={d.href} target="_blank" rel="noopener" type="application/pdf">
                PDF
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A member's invoices and credit notes as staff open them (decisions 110 and 119). */
export function MemberDocuments({ memberId }: { memberId: string }) {
  const documents = useQuery(memberDocumentsQuery(memberId)).data;
  return documents === undefined ? null : <DocumentList documents={documents} />;
}

/** The card's query: both lists asked at once; a list that fails shows as empty, as before. */
function memberDocumentsQuery(memberId: string) {
  return {
    queryKey: memberFileKeys.documents(memberId),
    queryFn: async () => {
      const [invoices, notes] = await Promise.all([getMemberInvoices(memberId), getMemberCreditNotes(memberId)]);
      return documentsOf(memberId, invoices.ok ? invoices.data.invoices : [], notes.ok ? notes.data.creditNotes : []);
    },
  };
}
