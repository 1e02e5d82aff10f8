import type { Db } from '#bff/db/database.ts';
import { recordOf } from '#bff/members/members.ts';
import { memberRow } from '#bff/payments/store/members.ts';
import { subscriptionPaymentOpen } from '#machines/onboarding/legal-deadlines.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';

/**
 * No money of any kind before the contract is signed and its 7-day renunciation period is over
 * (L224-91, decision 105; civil days, Paris, decision 165). The checkout stand-in and the Stripe webhook ask this before anything is taken
 * or recorded; `POST /api/v1/user/update` asks the chart (its payment events carry the same guard).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** French explanation shown by the stand-in and returned with a refused payment link. */
export const NO_PAYMENT_YET_MESSAGE =
  'Aucun paiement ne peut être demandé avant la signature du contrat et l’expiration d’un délai de 7 jours pleins (article L224‑91 du Code de la consommation).';

/**
 * The member a checkout names (`client_reference_id`) when that member may not pay yet: their
 * current state, for the refusal. Null when the payment is allowed, or when the reference names
 * no member (such a session can never confirm a step: verify-payment.ts checks the member).
 */
export async function paymentNotYetAllowed(
  db: Db,
  reference: string | null,
  now: Date,
): Promise<{ memberId: string; state: string } | null> {
  if (reference === null || !UUID.test(reference)) return null;
  const row = await memberRow(db, reference.toLowerCase());
  if (row?.role !== 'member') return null;
  const record = recordOf(row);
  if (subscriptionPaymentOpen(record.subscriptionDate, now.getTime())) return null;
  return { memberId: row.id, state: stateKey(stateFromRecord(record, now.getTime())) };
}
