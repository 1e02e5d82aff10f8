import type { Transaction } from '#bff/db/database.ts';
import { checkoutSessionById } from '#bff/invoices/store/invoices.ts';
import { consumeSession } from '#bff/payments/store/checkout-sessions.ts';

/**
 * Checks, inside the update's transaction, that a checkout session the server recorded as paid
 * matches this member, offer and amount. Returns null when it does, or a French reason.
 */
export type PaymentVerifier = (
  tx: Transaction,
  /** `now`: the event's instant (the agency's clock), when the session is marked used. */
  check: { memberId: string; email: string; csid: string; offerId: string; amountCents: number; now: Date },
) => Promise<string | null>;

const PAID = new Set(['paid', 'no_payment_required']);

/**
 * A payment is confirmed only by a checkout session the server recorded from a signed webhook,
 * for this member, this offer and this amount, complete and paid, and not used before. It is
 * marked used in the same transaction as the update it confirms, at the update's instant (the
 * agency's clock, which the ledger's other dates follow).
 */
export const verifyRecordedPayment: PaymentVerifier = async (tx, check) => {
  const session = await checkoutSessionById(tx, check.csid);
  if (!session) return 'Paiement introuvable : il n’a pas (encore) été confirmé par le prestataire de paiement. Réessayez dans un instant.';
  if (session.memberId !== check.memberId) return 'Ce paiement ne correspond pas à votre compte.';
  if (session.offerId !== check.offerId) return 'Ce paiement ne correspond pas à cette étape.';
  if (session.status !== 'complete' || !PAID.has(session.paymentStatus)) return 'Ce paiement n’est pas (encore) confirmé.';
  if (session.amountTotal !== check.amountCents) return 'Le montant payé ne correspond pas au tarif attendu.';
  const used = await consumeSession(tx, check.csid, check.now, check.offerId === 'file_fee' ? 'app' : 'sub');
  if (used.length === 0) return 'Ce paiement a déjà été utilisé.';
  return null;
};
