import * as v from 'valibot';
import type { Config } from '#bff/config.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { paymentReceivedMail } from '#bff/mail/agency-mails.ts';
import type { Transaction } from '#bff/db/database.ts';
import type { InvoiceLine } from '#bff/db/invoices-schema.ts';
import {
  checkoutSessionById,
  insertInvoice,
  invoicedMember,
  invoiceListOf,
  invoiceNumberOfReference,
  invoicePdfRow,
  nextInvoiceRank,
} from '#bff/invoices/store/invoices.ts';
import type { Executor } from '#bff/mail/outbox.ts';
import { enqueueMailOnce } from '#bff/mail/outbox.ts';
import { isOfferId, offerLabel } from '#bff/contract/offers.ts';
import { offerById } from '#machines/onboarding/plans.ts';

/**
 * Every recorded payment gets an invoice (decision 110): when a checkout session becomes complete
 * and paid for a known member and
 * offer, in the transaction that records it. The number is taken from the year's counter row in
 * that transaction, so it is gap-free and unique; the PDF is stored and mailed as an attachment.
 */

/**
 * Only money received is invoiced: a session that took nothing (`no_payment_required`, 0 €) gets
 * no invoice. A code that waives the file fee settles it without any checkout (decision 195).
 */
const PAID = new Set(['paid']);

/**
 * The rank's width in every billing number, invoices and credit notes alike (decision 186):
 * « 2026-000123 », « AV-2026-000007 ».
 */
export const NUMBER_DIGITS = 6;
export const MAX_RANK = 10 ** NUMBER_DIGITS - 1;

function invoiceNumber(year: number, rank: number): string {
  return `${year}-${String(rank).padStart(NUMBER_DIGITS, '0')}`;
}

/** The calendar year in Paris, where the agency invoices. */
export function invoiceYear(at: Date): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', year: 'numeric' }).format(at));
}

/**
 * The next number of `year`: the year's row is created or incremented by one upsert, which locks
 * it until the caller's transaction ends (the same as SELECT … FOR UPDATE then UPDATE, in one
 * statement, on PGlite and PostgreSQL). A rolled-back transaction gives the number back.
 */
export async function allocateInvoiceNumber(tx: Executor, year: number): Promise<{ number: string; rank: number }> {
  const rank = await nextInvoiceRank(tx, year);
  if (!Number.isInteger(rank) || rank < 1) throw new Error('invoice_counters: no number returned');
  if (rank > MAX_RANK) throw new Error('invoice_counters: more than 999 999 invoices in a year');
  return { number: invoiceNumber(year, rank), rank };
}

const NamedContract = v.object({ fullName: v.pipe(v.string(), v.trim(), v.minLength(1)) });
const NamedProfile = v.object({ firstName: v.pipe(v.string(), v.trim()), lastName: v.pipe(v.string(), v.trim()) });

/** The member's name as the contract form gives it, else the profile's, else the e-mail. */
export function customerNameOf(row: { email: string; contract: unknown; profile: unknown }): string {
  const contract = v.safeParse(NamedContract, row.contract);
  if (contract.success) return contract.output.fullName;
  const profile = v.safeParse(NamedProfile, row.profile);
  if (profile.success && `${profile.output.firstName} ${profile.output.lastName}`.trim() !== '')
    return `${profile.output.firstName} ${profile.output.lastName}`.trim();
  return row.email;
}

const PostalContract = v.object({
  address: v.pipe(v.string(), v.trim(), v.minLength(1)),
  postcode: v.pipe(v.string(), v.trim()),
  city: v.pipe(v.string(), v.trim()),
});
const PostalProfile = v.object({ postcode: v.optional(v.pipe(v.string(), v.trim())), city: v.optional(v.pipe(v.string(), v.trim())) });

/**
 * The member's postal address as invoices and credit notes print it (decision 186): the
 * contract's (street, postcode and city, given before any payment), else step 1's postcode and
 * city, else nothing.
 */
export function customerAddressOf(row: { contract: unknown; profile: unknown }): string[] {
  const contract = v.safeParse(PostalContract, row.contract);
  if (contract.success) return [contract.output.address, `${contract.output.postcode} ${contract.output.city}`.trim()].filter(Boolean);
  const profile = v.safeParse(PostalProfile, row.profile);
  const town = profile.success ? `${profile.output.postcode ?? ''} ${profile.output.city ?? ''}`.trim() : '';
  return town ? [town] : [];
}

/** What the invoice says was bought and what was paid, from the offer and the amount paid. */
function invoiceLines(offerId: string, totalCents: number): { lines: InvoiceLine[]; subtotalCents: number; discountCents: number } {
  if (!isOfferId(offerId)) return { lines: [{ label: 'Paiement', amountCents: totalCents }], subtotalCents: totalCents, discountCents: 0 };
  const offer = offerById(offerId);
  const label = offer.monthlyPayments !== null ? `${offerLabel(offerId)} — mensualité 1 sur ${offer.monthlyPayments}` : offerLabel(offerId);
  // Only the file fee has a promotion code (the coupon): the difference is shown as a discount.
  if (offerId === 'file_fee' && totalCents < offer.amountCents) {
    const discountCents = offer.amountCents - totalCents;
    return {
      lines: [
        { label, amountCents: offer.amountCents },
        { label: 'Remise (code promotionnel)', amountCents: -discountCents },
      ],
      subtotalCents: offer.amountCents,
      discountCents,
    };
  }
  return { lines: [{ label, amountCents: totalCents }], subtotalCents: totalCents, discountCents: 0 };
}

function paymentMethodOf(totalCents: number, livemode: boolean): string {
  if (totalCents === 0) return 'aucun débit (remise de 100 %)';
  return livemode ? 'carte bancaire (Stripe)' : 'carte bancaire (Stripe, mode test)';
}

export function invoiceFileName(number: string): string {
  return `facture-${number}.pdf`;
}

/**
 * Creates the invoice of checkout session `sessionId` if it is now a recorded payment and has
 * none yet. Called right after the session's row was written in `tx`: that write holds the
 * session's row lock, so a concurrent delivery for the same session waits and then sees this
 * invoice. Returns the new invoice's number, or null.
 */
export async function invoiceRecordedPayment(tx: Transaction, config: Config, sessionId: string, now: Date): Promise<string | null> {
  const session = await checkoutSessionById(tx, sessionId);
  if (
    session?.status !== 'complete' ||
    !PAID.has(session.paymentStatus) ||
    session.memberId === null ||
    session.offerId === null ||
    session.amountTotal === null ||
    session.amountTotal <= 0
  )
    return null;
  const existing = await invoiceNumberOfReference(tx, sessionId);
  if (existing) return null;
  const member = await invoicedMember(tx, session.memberId);
  if (member?.role !== 'member') return null;

  const { lines, subtotalCents, discountCents } = invoiceLines(session.offerId, session.amountTotal);
  return issueInvoice(tx, config, {
    member,
    reference: session.id,
    offerId: session.offerId,
    lines,
    subtotalCents,
    discountCents,
    totalCents: session.amountTotal,
    currency: session.currency ?? 'eur',
    livemode: session.livemode,
    contractId: session.contractId,
    now,
  });
}

/**
 * Numbers, renders, stores and mails one invoice in `tx` (decision 110's sequence): a checkout
 * session's or a paid instalment's. `reference` is the payment's reference (the checkout session
 * id, or the Stripe invoice id `in_…` of an instalment). Returns the invoice's number.
 */
export async function issueInvoice(
  tx: Transaction,
  config: Config,
  input: {
    member: { id: string; email: string; contract: unknown; profile: unknown };
    reference: string;
    offerId: string;
    lines: InvoiceLine[];
    subtotalCents: number;
    discountCents: number;
    totalCents: number;
    currency: string;
    livemode: boolean;
    /** The contract the payment belongs to (decision 175). */
    contractId: number | null;
    now: Date;
  },
): Promise<string> {
  const { member, lines, now } = input;
  const year = invoiceYear(now);
  const { number, rank } = await allocateInvoiceNumber(tx, year);
  const customerName = customerNameOf(member);
  const paymentMethod = paymentMethodOf(input.totalCents, input.livemode);
  // pdf-lib is loaded at the first invoice, not at start (decision 080).
  const { renderInvoicePdf } = await import('#bff/invoices/invoice-pdf.ts');
  const pdf = await renderInvoicePdf({
    number,
    agency: config.agency,
    customerName,
    customerAddress: customerAddressOf(member),
    customerEmail: member.email,
    lines,
    totalCents: input.totalCents,
    paymentMethod,
    paidAt: now,
  });
  await insertInvoice(tx, {
    number,
    year,
    rank,
    memberId: member.id,
    checkoutSessionId: input.reference,
    contractId: input.contractId,
    offerId: input.offerId,
    customerName,
    lines,
    subtotalCents: input.subtotalCents,
    discountCents: input.discountCents,
    totalCents: input.totalCents,
    currency: input.currency,
    paymentMethod,
    paidAt: now,
    pdf,
    createdAt: now,
  });
  await enqueueMailOnce(
    tx,
    paymentReceivedMail(
      { siteUrl: config.publicSiteUrl, agency: config.agency },
      { to: member.email, firstName: firstNameOf(member.profile) },
      {
        amountCents: input.totalCents,
        what: lines[0]?.label ?? 'paiement',
        invoiceNumber: number,
        invoicePdf: pdf,
        invoiceFileName: invoiceFileName(number),
      },
    ),
    `agency-payment-received:${member.id}:${input.reference}`,
  );
  return number;
}

/** A member's invoices, newest first, without their PDF. */
export async function invoicesOf(executor: Executor, memberId: string) {
  return invoiceListOf(executor, memberId);
}

/** One invoice's PDF, only if it is this member's. */
export async function invoicePdfOf(executor: Executor, memberId: string, number: string): Promise<Uint8Array | null> {
  const row = await invoicePdfRow(executor, memberId, number);
  return row?.pdf ?? null;
}
