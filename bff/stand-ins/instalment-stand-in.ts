import { Hono } from 'hono';
import { html } from 'hono/html';
import * as v from 'valibot';
import { sameOriginWrites } from '#bff/http/same-origin.ts';
import { log } from '#bff/logger.ts';
import { cancelStoppedSubscriptions } from '#bff/payments/contract-ledger.ts';
import { memberInstalments } from '#bff/payments/instalment-schedules.ts';
import { refreshExpectedInstalments } from '#bff/payments/expected-instalments.ts';
import { subscriptionGateway } from '#bff/payments/subscription-gateway.ts';
import type { StandInDeps } from '#bff/stand-ins/checkout-stand-in.ts';
import { deliverStripeEvent, randomId, stripeTestEvent } from '#bff/stand-ins/stripe-events.ts';
import { standInDocument } from '#bff/stand-ins/stand-in-layout.ts';
import { knownInstalmentInvoiceId, ownersWithInstalmentDue } from '#bff/stand-ins/store/instalments.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { count } from '#machines/french/plural.ts';

/**
 * The embedded stand-in of Stripe Billing for monthly plans (decision 120). Stripe takes each
 * instalment itself and tells the server by `invoice.paid` / `invoice.payment_failed`; here a pass
 * (`chargeDueInstalments`: every 15 minutes in the server, or `POST /_local/instalments` for a
 * person or a test with the movable clock) reads each member's schedule and, for every instalment
 * due and not paid, builds the genuine Stripe event, signs it with the real `stripe` library and
 * posts it to the product's own webhook (the production handler). It never charges what the
 * schedule does not show as due: after the N-th, a withdrawal, a renunciation or the term's end,
 * it stops. A failed attempt keeps its Stripe invoice id, so the retry that pays it is the same
 * instalment, as with Stripe.
 */

export type ChargeOutcome = 'paid' | 'failed';

/** An `invoice.paid` or `invoice.payment_failed` event for one instalment, in Stripe's shape. */
export async function instalmentInvoiceEvent(input: {
  type: 'invoice.paid' | 'invoice.payment_failed';
  invoiceId: string;
  subscriptionId: string;
  amountCents: number;
  email: string;
  offerId: string;
  billingReason?: string;
  now: Date;
}) {
  const created = Math.floor(input.now.getTime() / 1000);
  const paid = input.type === 'invoice.paid';
  const invoice = {
    id: input.invoiceId,
    object: 'invoice',
    amount_due: input.amountCents,
    amount_paid: paid ? input.amountCents : 0,
    amount_remaining: paid ? 0 : input.amountCents,
    attempt_count: 1,
    attempted: true,
    billing_reason: input.billingReason ?? 'subscription_cycle',
    collection_method: 'charge_automatically',
    created,
    currency: 'eur',
    customer: null,
    customer_email: input.email,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: { offer_id: input.offerId }, subscription: input.subscriptionId },
    },
    period_end: created,
    period_start: created,
    status: paid ? 'paid' : 'open',
    status_transitions: { finalized_at: created, paid_at: paid ? created : null, marked_uncollectible_at: null, voided_at: null },
    total: input.amountCents,
  };
  return stripeTestEvent(input.type, invoice, created);
}

export interface ChargeSummary {
  paid: number;
  failed: number;
  amountCents: number;
}

/** Takes every instalment due now (or only one member's), the way Stripe Billing would. */
export async function chargeDueInstalments(
  deps: StandInDeps,
  options: { memberId?: string; outcome?: ChargeOutcome } = {},
): Promise<ChargeSummary> {
  const now = deps.clock.now();
  const outcome = options.outcome ?? 'paid';
  // Contracts that stopped or reached their term: their subscription is cancelled first (decision 175).
  await cancelStoppedSubscriptions(deps.db, subscriptionGateway(deps.config), {
    now,
    ...(options.memberId ? { memberId: options.memberId } : {}),
  });
  // Only the members with an instalment due and not cancelled, by the stored expected lines and
  // their due date (decision 213): never every subscriber.
  await refreshExpectedInstalments(deps.db);
  const owners = await ownersWithInstalmentDue(deps.db, now, options.memberId);
  const summary: ChargeSummary = { paid: 0, failed: 0, amountCents: 0 };
  for (const owner of owners) {
    if (!owner.memberId) continue;
    const current = await memberInstalments(deps.db, owner.memberId, now);
    if (!current) continue;
    for (const row of current.schedule.rows) {
      if (!row.due || row.number === 1) continue;
      // A failed attempt is retried on the same Stripe invoice.
      const knownInvoiceId = await knownInstalmentInvoiceId(deps.db, current.subscriptionId, row.number);
      const event = await instalmentInvoiceEvent({
        type: outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed',
        invoiceId: knownInvoiceId ?? randomId('in_local_', 24),
        subscriptionId: current.subscriptionId,
        amountCents: row.amountCents,
        email: owner.email ?? '',
        offerId: current.schedule.planId,
        now,
      });
      const delivered = await deliverStripeEvent(deps, event);
      if (!delivered.ok) {
        log.warn('mensualité locale : webhook refusé', { status: delivered.status, memberId: owner.memberId });
        continue;
      }
      if (outcome === 'paid') {
        summary.paid += 1;
        summary.amountCents += row.amountCents;
      } else summary.failed += 1;
      // Stripe takes one instalment per invoice and per pass: a member late by several months is charged one at a time.
      break;
    }
  }
  return summary;
}

const ChargeForm = v.object({
  member: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.uuid('Identifiant de membre invalide.'))])),
  outcome: v.optional(v.picklist(['paid', 'failed'], 'Résultat inconnu (paid ou failed).')),
});

/** `/_local/instalments`: runs a charging pass now (optionally for one member, optionally failing). */
export function instalmentStandIn(deps: StandInDeps) {
  return (
    new Hono()
      // A charging pass sends signed webhooks to the product: only from the product's own page.
      .use('/instalments', sameOriginWrites(deps.config.publicSiteUrl))
      .get('/instalments', (c) => {
        c.header('Cache-Control', 'no-store');
        return c.html(
          standInDocument(
            'Mensualités — simulation locale',
            html`<main aria-labelledby="title">
<p class="badge">Simulation locale de Stripe : aucune carte n’est débitée.</p>
<h1 id="title">Prélever les mensualités dues</h1>
<form method="post" class="card">
<label for="member">Identifiant du membre (facultatif)</label>
<input id="member" name="member" type="text" autocomplete="off">
<fieldset><legend>Résultat du prélèvement</legend>
<label><input type="radio" name="outcome" value="paid" checked> Payé</label>
<label><input type="radio" name="outcome" value="failed"> Refusé par la banque</label>
</fieldset>
<button type="submit">Prélever maintenant</button>
</form>
</main>`,
          ),
          200,
        );
      })
      .post('/instalments', async (c) => {
        c.header('Cache-Control', 'no-store');
        const invalid = (message: string) =>
          c.html(
            standInDocument('Mensualités', html`<main><h1>Demande invalide</h1><p role="alert" class="error">${message}</p></main>`),
            400,
          );
        // A form, as the page sends it: any other body (JSON, a broken multipart) runs nothing.
        const type = c.req.header('content-type') ?? '';
        if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return invalid('Formulaire attendu.');
        const form = await c.req.parseBody().catch(() => null);
        if (!form) return invalid('Formulaire illisible.');
        const parsed = v.safeParse(ChargeForm, { member: form.member, outcome: form.outcome });
        if (!parsed.success) return invalid(parsed.issues[0].message);
        const summary = await chargeDueInstalments(deps, {
          ...(parsed.output.member ? { memberId: parsed.output.member } : {}),
          outcome: parsed.output.outcome ?? 'paid',
        });
        const wantsJson = (c.req.header('accept') ?? '').includes('application/json');
        if (wantsJson) return c.json(summary, 200);
        return c.html(
          standInDocument(
            'Mensualités — simulation locale',
            html`<main aria-labelledby="title"><h1 id="title">Prélèvements effectués</h1>
<p role="status">${count(summary.paid, 'mensualité payée', 'mensualités payées')} (${formatEuros(summary.amountCents)}), ${count(summary.failed, 'refusée', 'refusées')}.</p>
<p><a href="/_local/instalments">Nouveau passage</a></p></main>`,
          ),
          200,
        );
      })
  );
}
