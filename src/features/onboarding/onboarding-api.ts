import type { ContractDocument } from '#bff/api-type.ts';
import type * as v from 'valibot';
import { type ApiResult, send } from '#src/lib/api-client.ts';
import type { OfferId, PayInFullSetting } from '#machines/onboarding/plans.ts';

/** Answer of `POST /api/v1/user/update`: the refreshed settings with the chart's state. */
export interface UpdateAnswer {
  state: string | null;
  [field: string]: unknown;
}

function json(method: string, url: string, body?: unknown) {
  return fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** `POST /api/v1/user/update` with one update-context body. */
export function postUpdate(body: { context: string } & Record<string, unknown>): Promise<ApiResult<UpdateAnswer>> {
  return send(json('POST', '/api/v1/user/update', body)) as Promise<ApiResult<UpdateAnswer>>;
}

export interface LinkAnswer {
  url: string;
  origin?: string;
  offerId?: OfferId;
  amountCents?: number;
}

/** `GET /api/v1/user/payment-link?offer=…`: the payment link the current step expects. */
export function getPaymentLink(offer: OfferId): Promise<ApiResult<LinkAnswer>> {
  return send(json('GET', `/api/v1/user/payment-link?offer=${encodeURIComponent(offer)}`)) as Promise<ApiResult<LinkAnswer>>;
}

/** `GET /api/v1/user/booking-link`: the scheduling page, prefilled for the member. */
export function getBookingLink(): Promise<ApiResult<LinkAnswer>> {
  return send(json('GET', '/api/v1/user/booking-link')) as Promise<ApiResult<LinkAnswer>>;
}

export interface BookingAnswer {
  booking: { startTime: string; endTime: string; cancelUrl: string | null; rescheduleUrl: string | null } | null;
}

/** `GET /api/v1/user/booking`: the member's active booking, if any. */
export function getBooking(): Promise<ApiResult<BookingAnswer>> {
  return send(json('GET', '/api/v1/user/booking')) as Promise<ApiResult<BookingAnswer>>;
}

/** `GET /api/v1/subscription/offers`: which pay-in-full plan staff currently offer. */
export async function getPayInFullSetting(): Promise<PayInFullSetting> {
  const result = (await send(json('GET', '/api/v1/subscription/offers'))) as ApiResult<{ payInFull?: string }>;
  return result.ok && result.data.payInFull === 'cash' ? 'cash' : 'cashback';
}

export const CONTRACT_PDF_URL = '/api/v1/user/contract.pdf';
/** Before signature: the PDF exactly as it will be signed today (decision 109). */
export const CONTRACT_PREVIEW_URL = '/api/v1/user/contract-preview.pdf';

/** The contract's text as the PDF prints it (bff/contract/contract-text.ts). */
export type { ContractDocument, ContractSection } from '#bff/api-type.ts';

export interface ContractAnswer {
  details: { fullName: string; address: string; postcode: string; city: string };
  email: string;
  signed: boolean;
  /** Once the details are confirmed: the contract exactly as the PDF prints it. */
  document: ContractDocument | null;
  /** Before: the same text, filled with what the member already gave. */
  draft: ContractDocument | null;
  /** A signature code already sent for this text and still usable (the page shows its field again after a reload). */
  signatureCode: { sentTo: string; sentAt: string; expiresAt: string } | null;
}

/** `GET /api/v1/user/contract`: the details to confirm and, once they are given, the whole contract. */
export function getContract(): Promise<ApiResult<ContractAnswer>> {
  return send(json('GET', '/api/v1/user/contract')) as Promise<ApiResult<ContractAnswer>>;
}

/** `POST /api/v1/user/contract/signature-code`: mails a one-time signature code. */
export function requestSignatureCode(): Promise<ApiResult<{ sentTo: string; expiresAt: string }>> {
  return send(json('POST', '/api/v1/user/contract/signature-code', {})) as Promise<ApiResult<{ sentTo: string; expiresAt: string }>>;
}

/** `POST /api/v1/user/contract/sign`: signs with the code; the server sends the chart's event. */
export function signContract(code: string): Promise<ApiResult<{ signedAt: string; sha256: string; textSha256: string }>> {
  return send(json('POST', '/api/v1/user/contract/sign', { code })) as Promise<
    ApiResult<{ signedAt: string; sha256: string; textSha256: string }>
  >;
}

/** Field errors of a valibot failure, per top-level field, with `v.flatten`. */
export function flattenFieldErrors(flat: v.FlatErrors<undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, messages] of Object.entries(flat.nested ?? {})) {
    const field = path.split('.')[0] ?? path;
    const message = (messages as string[] | undefined)?.[0];
    if (field && message && !(field in out)) out[field] = message;
  }
  return out;
}

/** Server field errors (`soughtRegions.0` …) folded to top-level fields. */
export function topLevelFieldErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = path.split('.')[0] ?? path;
    if (field && !(field in out)) out[field] = message;
  }
  return out;
}
