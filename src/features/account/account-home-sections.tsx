import { MyInvoices } from '#src/features/account/invoices.tsx';
import { MyRights } from '#src/features/account/my-rights.tsx';
import { MyInstalments } from '#src/features/billing/my-instalments.tsx';

/**
 * The account home below its first panel: « Mes droits », the instalments and the invoices. Loaded
 * after the page's top (`React.lazy` in account-home-page.tsx), as a member's file in the
 * dashboard loads its sections (decision 138): each waits for its own answer anyway.
 */
export function AccountHomeSections() {
  return (
    <>
      <MyRights />
      <MyInstalments />
      <MyInvoices />
    </>
  );
}
