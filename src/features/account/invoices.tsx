import { useEffect, useState } from 'react';
import { formatEuros } from '#machines/onboarding/plans.ts';
import * as styles from '#src/features/account/account.css.ts';
import { api, send } from '#src/lib/api-client.ts';

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
export const fetchInvoices = () => send(api.user.invoices.$get());

export const invoiceHref = (number: string) => `/api/v1/user/invoices/${encodeURIComponent(number)}.pdf`;

const paidOn = (iso: string) => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', dateStyle: 'long' }).format(new Date(iso));

/** The member's invoices; reloaded when `refresh` changes (a payment just confirmed). */
export function useInvoices(refresh: unknown = null): InvoiceSummary[] | null {
  const [invoices, setInvoices] = useState<InvoiceSummary[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `refresh` only triggers a reload.
  useEffect(() => {
    let live = true;
    void fetchInvoices().then((result) => {
      if (live && result.ok) setInvoices(result.data.invoices);
    });
    return () => {
      live = false;
    };
  }, [refresh]);
  return invoices;
}

function InvoiceLink({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <a href={invoiceHref(invoice.number)} target="_blank" rel="noopener" type="application/pdf">
      Facture {invoice.number} (PDF)
    </a>
  );
}

/** The "Mes factures" section for a loaded list. */
export function InvoiceList({ invoices }: { invoices: InvoiceSummary[] }) {
  return (
    <section className={styles.panel} aria-labelledby="my-invoices" data-testid="my-invoices">
      <h2 id="my-invoices">Mes factures</h2>
      {invoices.length === 0 ? (
        <p className={styles.text}>Aucune facture pour le moment : chaque paiement en fait une, que vous retrouverez ici.</p>
      ) : (
        <ul className={styles.messageList}>
          {invoices.map((invoice) => (
            <li key={invoice.number} className={styles.text}>
              {invoice.label} — {formatEuros(invoice.totalCents)}, payé le {paidOn(invoice.paidAt)} : <InvoiceLink invoice={invoice} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Mes factures" in Mon espace: every payment's invoice, with its PDF. */
export function MyInvoices() {
  const invoices = useInvoices();
  return invoices === null ? null : <InvoiceList invoices={invoices} />;
}

/** "Paiement reçu": the amount actually paid (0,00 € with the coupon) and the link to its invoice. */
export function PaymentReceivedNotice({ invoice }: { invoice: InvoiceSummary }) {
  return (
    <div role="status" className={styles.panel} data-testid="payment-received">
      <h2>Paiement reçu</h2>
      <p className={styles.text}>
        {invoice.label} : {formatEuros(invoice.totalCents)} payé le {paidOn(invoice.paidAt)}. <InvoiceLink invoice={invoice} />
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
