import { useQuery } from '@tanstack/react-query';
import { formatEuros } from '#machines/onboarding/plans.ts';
import * as styles from '#src/features/account/account.css.ts';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { api, send } from '#src/lib/api-client.ts';
import { unwrap } from '#src/lib/query-client.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { isContractEndState } from '#machines/onboarding/steps.ts';
import { useSession } from '#src/lib/use-session.ts';

/** One invoice as `GET /api/v1/user/invoices` lists it (decision 110). */
export interface InvoiceSummary {
  number: string;
  offerId: string;
  label: string;
  totalCents: number;
  paymentMethod: string;
  paidAt: string;
}

/** `GET /api/v1/user/invoices`: the member's invoices, newest first. */
const fetchInvoices = () => send(api.user.invoices.$get());

export const invoiceHref = (number: string) => `/api/v1/user/invoices/${encodeURIComponent(number)}.pdf`;

const paidOn = (iso: string) => frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long' }).format(new Date(iso));

/** The member's invoices; asked again when `refresh` changes (a payment just confirmed); null until they arrive. */
function useInvoices(refresh: unknown = null): InvoiceSummary[] | null {
  const query = useQuery({
    queryKey: [...memberKeys.invoices, refresh],
    queryFn: async () => (await unwrap(fetchInvoices())).invoices as InvoiceSummary[],
  });
  return query.data ?? null;
}

function InvoiceLink({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <a href={invoiceHref(invoice.number)} target="_blank" rel="noopener" type="application/pdf">
      Facture {invoice.number} (PDF)
    </a>
  );
}

/** The "Mes factures" section for a loaded list. */
export function InvoiceList({ invoices, ended = false }: { invoices: InvoiceSummary[]; ended?: boolean }) {
  return (
    <section className={styles.panel} aria-labelledby="my-invoices" data-testid="my-invoices">
      <h2 id="my-invoices">Mes factures</h2>
      {invoices.length === 0 ? (
        <p className={styles.text}>
          {ended
            ? 'Aucune facture n’a été émise.'
            : 'Aucune facture pour le moment\u00a0: chaque paiement en fait une, que vous retrouverez ici.'}
        </p>
      ) : (
        <ul className={styles.messageList}>
          {invoices.map((invoice) => (
            <li key={invoice.number} className={styles.text}>
              {invoice.label} — {formatEuros(invoice.totalCents)}, payé le {paidOn(invoice.paidAt)} : <InvoiceLink invoice={invoice} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One credit note as `GET /api/v1/user/credit-notes` lists it (decision 119). */
export interface CreditNoteSummary {
  number: string;
  invoiceNumber: string | null;
  label: string;
  amountCents: number;
  issuedAt: string;
}

/** The member's credit notes (one per refund), newest first; empty until a refund is owed. */
function useCreditNotes(): CreditNoteSummary[] {
  const query = useQuery({
    queryKey: memberKeys.creditNotes,
    queryFn: async () => (await unwrap(send(api.user['credit-notes'].$get()))).creditNotes as CreditNoteSummary[],
  });
  return query.data ?? [];
}

/** "Mes avoirs": the credit note of each refund (withdrawal, termination), with its PDF. */
function CreditNoteList({ notes }: { notes: CreditNoteSummary[] }) {
  if (notes.length === 0) return null;
  return (
    <section className={styles.panel} aria-labelledby="my-credit-notes" data-testid="my-credit-notes">
      <h2 id="my-credit-notes">Mes avoirs</h2>
      <ul className={styles.messageList}>
        {notes.map((note) => (
          <li key={note.number} className={styles.text}>
            {note.label} — {formatEuros(note.amountCents)}, émis le {paidOn(note.issuedAt)}
            {note.invoiceNumber ? ` (facture ${note.invoiceNumber})` : ''} :{' '}
            <a
              href={`/api/v1/user/credit-notes/${encodeURIComponent(note.number)}.pdf`}
              target="_blank"
              rel="noopener"
              type="application/pdf"
            >
              Avoir {note.number} (PDF)
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Mes factures" in Mon espace: every payment's invoice, with its PDF, and the credit notes of refunds. */
export function MyInvoices() {
  const invoices = useInvoices();
  const notes = useCreditNotes();
  // A contract that ended (renounced, withdrawn, terminated, at its term) promises no payment to come.
  const ended = isContractEndState(useSession().user?.state);
  return invoices === null ? null : (
    <>
      <InvoiceList invoices={invoices} ended={ended} />
      <CreditNoteList notes={notes} />
    </>
  );
}

/** "Paiement reçu": the amount actually paid (0,00 € with the coupon) and the link to its invoice. */
export function PaymentReceivedNotice({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <div role="status" className={styles.panel} data-testid="payment-received">
      <h2>Paiement reçu</h2>
      <p className={styles.text}>
        {invoice.label} : {formatEuros(invoice.totalCents)} payé le {paidOn(invoice.paidAt)}. <InvoiceLink invoice={invoice} />
      </p>
    </div>
  );
}

/**
 * After a checkout came back and was confirmed: the newest invoice is the one this payment just
 * made (the server creates it with the recorded payment, before the member can confirm it).
 */
export function PaymentReceived({ refresh }: { refresh: unknown }) {
  const latest = useInvoices(refresh)?.[0];
  return latest ? <PaymentReceivedNotice invoice={latest} /> : null;
}
