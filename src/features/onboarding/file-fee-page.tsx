import { MyRights } from '#src/features/account/my-rights.tsx';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  expectedAmountCents,
  fileFee,
  formatEuros,
  isPlanId,
  type OfferId,
  planById,
  planDescription,
} from '#machines/onboarding/plans.ts';
import { Button } from '#src/components/ui/button.tsx';
import { PaymentReceived } from '#src/features/account/invoices.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { getPaymentLink } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { useChart, useChartAllows } from '#src/features/onboarding/onboarding-chart.tsx';
import { usePaymentReturn } from '#src/features/onboarding/payment-return.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useSession } from '#src/lib/use-session.ts';
import type { ApiFailure } from '#src/lib/api-result.ts';
import { paymentLinkQuery } from '#src/features/onboarding/onboarding-queries.ts';
import { ApiError, errorMessage } from '#src/lib/query-client.ts';

/** A payment link refused: not set up yet (404), or the server's French message. */
function linkFailureText(failure: ApiFailure): string {
  return failure.status === 404 ? 'Le paiement en ligne n’est pas encore disponible. Réessayez un peu plus tard.' : failure.message;
}

/**
 * Step 8 (decision 105): once the renunciation period is over (civil days, decision 165), the file fee and the subscription (or
 * its first instalment) with one total and one "Payer" action. Stripe Payment Links take one offer
 * each, so "Payer" runs the parts one after the other, file fee first: each secure page comes back
 * here with `?csid=`, the server confirms that part (`app`, then `sub`), and the button continues
 * with what is left. A code the member types (created by staff, checked by the server: decision
 * 195; once, never after renouncing) takes an amount off the file fee or waives it: a waived fee
 * is settled without any checkout.
 */
export function FileFeePage({ csid }: { csid?: string | undefined }) {
  const { user } = useSession();
  const { update } = useOnboardingUpdate();
  const feePaid = user?.subscription.applicationFeesPaid === true;
  const subscriptionPaid = user?.subscription.subscriptionFeesPaid === true;
  // The checkout that came back is the part being paid: the file fee until it is confirmed.
  const returning: 'app' | 'sub' = feePaid ? 'sub' : 'app';
  const payment = usePaymentReturn(returning, user?.email, csid);
  const [busy, setBusy] = useState<'coupon' | 'pay' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);

  const plan = user?.selectedPlanId && isPlanId(user.selectedPlanId) ? planById(user.selectedPlanId) : null;
  // What the chart (restored from the record, as on the server) says about the coupon.
  const couponApplied = useChart((snapshot) => snapshot.context.couponApplied) ?? false;
  const fileFeeDiscountCents = useChart((snapshot) => snapshot.context.fileFeeDiscountCents) ?? null;
  const couponAllowed = useChartAllows({ context: 'coupon', code: 'CODE' });

  const feeCents = expectedAmountCents('file_fee', { couponApplied, fileFeeDiscountCents });
  const feeWaived = couponApplied && feeCents === 0;
  const subscriptionCents = plan ? expectedAmountCents(plan.id, { couponApplied: false }) : 0;
  const totalCents = feeCents + subscriptionCents;
  const dueCents = (feePaid ? 0 : feeCents) + (subscriptionPaid ? 0 : subscriptionCents);
  const nextOffer: OfferId | null = !feePaid ? 'file_fee' : !subscriptionPaid && plan ? plan.id : null;

  // Whether the next part's payment link is ready (not while a returning checkout is confirmed).
  const link = useQuery({ ...paymentLinkQuery(nextOffer ?? 'file_fee'), enabled: !csid && nextOffer !== null });
  const linkReady = link.isSuccess ? true : link.isError ? false : null;
  const _linkError = link.error instanceof ApiError ? linkFailureText(link.error.failure) : errorMessage(link.error);

  async function applyCoupon(event: React.FormEvent) {
    event.preventDefault();
    if (code.trim() === '') {
      setCodeError('Saisissez votre code avantage.');
      return;
    }
    setBusy('coupon');
    setError(null);
    setCodeError(null);
    // Reloads the session too: the chart is restored from the new record (coupon applied).
    const result = await update({ context: 'coupon', code });
    if (result.ok) {
      setCode('');
      setInfo('Votre code avantage est appliqué.');
    } else setCodeError(result.error.message);
    setBusy(null);
  }

  async function pay() {
    if (!nextOffer) return;
    setBusy('pay');
    setError(null);
    const result = await getPaymentLink(nextOffer);
    if (result.ok) {
      window.location.assign(result.data.url);
      return;
    }
    setError(linkFailureText(result.error));
    setBusy(null);
  }

  if (csid && payment.status === 'confirming') {
    return (
      <StepPage step="frais-de-dossier" title="Paiement">
        <p role="status" className={styles.text}>
          Confirmation de votre paiement en cours…
        </p>
      </StepPage>
    );
  }

  return (
    <StepPage
      step="frais-de-dossier"
      title="Paiement"
      intro="Votre contrat est signé et le délai de 7 jours sans aucun paiement (article L224‑91 du Code de la consommation) est écoulé : vous pouvez régler les frais de dossier et votre abonnement."
    >
      <FormAlert tone="error">{payment.error ? `Paiement non confirmé : ${payment.error.message}` : error}</FormAlert>
      <FormAlert tone="success">{info}</FormAlert>
      {payment.status === 'done' ? <PaymentReceived refresh={payment.status} /> : null}
      <section className={styles.cardHighlight} aria-labelledby="to-pay" style={{ maxWidth: '42rem' }}>
        <h2 id="to-pay" className={styles.cardTitle}>
          À régler
        </h2>
        <ul className={styles.list}>
          <li data-testid="line-file-fee">
            {fileFee.title} :{' '}
            {couponApplied
              ? feeWaived
                ? `${formatEuros(fileFee.priceCents)}, offerts par votre code avantage`
                : `${formatEuros(fileFee.priceCents)} moins ${formatEuros(fileFee.priceCents - feeCents)} (code avantage), soit ${formatEuros(feeCents)}`
              : formatEuros(feeCents)}
            {feePaid && !feeWaived ? ' — réglé' : null}
          </li>
          {plan ? (
            <li data-testid="line-subscription">
              Formule {plan.title} ({plan.durationMonths} mois) :{' '}
              {plan.installments > 1
                ? `${formatEuros(subscriptionCents)}, première des ${plan.installments} mensualités (les suivantes sont prélevées chaque mois)`
                : `${formatEuros(subscriptionCents)} en une fois`}
              {subscriptionPaid ? ' — réglé' : null}
            </li>
          ) : null}
        </ul>
        <p className={styles.price} data-testid="payment-total">
          Total aujourd’hui : {formatEuros(totalCents)}
        </p>
        {plan ? <p>{planDescription(plan, couponApplied)}</p> : null}
        {feePaid && !subscriptionPaid ? (
          <p role="status">
            {feeWaived ? 'Frais de dossier offerts' : 'Frais de dossier réglés'}. Reste à régler : {formatEuros(dueCents)}.
          </p>
        ) : null}
        <div className={styles.actions}>
          <Button
            onClick={pay}
            disabled={nextOffer === null || linkReady === false || (busy !== null && busy !== 'pay')}
            loading={busy === 'pay'}
            loadingText="Ouverture du paiement…"
          >
            {feePaid ? `Payer ${formatEuros(dueCents)}` : 'Payer'}
          </Button>
        </div>
        {couponAllowed && !couponApplied && !feePaid ? (
          <form className={styles.form} onSubmit={applyCoupon} noValidate aria-label="Code avantage">
            <TextField
              label="Code avantage (facultatif)"
              name="code"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={40}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              error={codeError ?? undefined}
            />
            <div>
              <Button
                type="submit"
                variant="secondary"
                loading={busy === 'coupon'}
                loadingText="Vérification du code…"
                disabled={busy !== null && busy !== 'coupon'}
              >
                Appliquer le code
              </Button>
            </div>
          </form>
        ) : null}
        {user?.subscription.renouncedWithdrawalRight === true ? (
          <p className={styles.cycle}>Le code avantage n’est pas disponible lorsque vous avez demandé à commencer sans attendre.</p>
        ) : null}
        <p className={styles.cycle}>
          {feePaid
            ? `Le paiement est sécurisé par Stripe. Il se fait sur la page de paiement, pour l’abonnement seul ; vous revenez ici automatiquement après.`
            : `Le paiement est sécurisé par Stripe. Il se fait en deux passages sur la page de paiement : les frais de dossier, puis l’abonnement ; vous revenez ici automatiquement après chacun.`}
        </p>
      </section>
      <MyRights />
    </StepPage>
  );
}
