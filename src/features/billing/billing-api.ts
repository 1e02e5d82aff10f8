import { api, send } from '#src/lib/api-client.ts';

/** Billing (decision 120): the member's schedule, one member's billing, the agency's. */

export const getMyInstalments = () => send(api.user.instalments.$get());
export const getMemberBilling = (memberId: string) => send(api.dashboard.members[':id'].billing.$get({ param: { id: memberId } }));
/** One member's invoices (decision 110) and credit notes (decision 119), for their PDFs. */
export const getMemberInvoices = (memberId: string) => send(api.dashboard.members[':id'].invoices.$get({ param: { id: memberId } }));
export const getMemberCreditNotes = (memberId: string) =>
  send(api.dashboard.members[':id']['credit-notes'].$get({ param: { id: memberId } }));

export interface BillingFilters {
  from?: string | undefined;
  to?: string | undefined;
  status?: string | undefined;
  kind?: string | undefined;
}

function cleaned(filters: BillingFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

export const getAgencyBilling = (filters: BillingFilters, page = 1) =>
  send(api.dashboard.billing.$get({ query: { ...cleaned(filters), ...(page > 1 ? { page: String(page) } : {}) } }));

/** The CSV export of the same filters (a download: a plain link the browser follows with its cookie). */
export function billingExportHref(filters: BillingFilters): string {
  const query = new URLSearchParams(cleaned(filters)).toString();
  return `/api/v1/dashboard/billing/export${query ? `?${query}` : ''}`;
}

type Ok<T> = T extends { ok: true; data: infer D } ? D : never;
export type MySchedule = Ok<Awaited<ReturnType<typeof getMyInstalments>>>['schedule'];
type AgencyBilling = Ok<Awaited<ReturnType<typeof getAgencyBilling>>>;
export type BillingEntryView = AgencyBilling['entries'][number];
