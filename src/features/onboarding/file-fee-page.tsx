import { useCallback, useEffect, useState } from 'react';
import { FILE_FEE_WITH_COUPON_CENTS, fileFee, formatEuros, isPlanId, planById, planDescription } from '#machines/onboarding/plans.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { getPaymentLink, type LinkAnswer } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { usePaymentReturn } from '#src/features/onboarding/payment-return.ts';
import { PlanPrice } from '#src/features/onboarding/plans-page.tsx';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useSession } from '#src/lib/use-session.ts';
import { srOnly } from '#src/styles/global.css.ts';
import { useChart, useChartAllows } from '#src/features/onboarding/onboarding-chart.tsx';

/** Step 4: the file fee (228 € struck, 169 €), the coupon (once), "Payer", or back to the plans. */
export function FileFeePage({ csid }: { csid?: string | undefined }) {
  const { user } = useSession();
  const { update } = useOnboardingUpdate();
  const payment = usePaymentReturn('app', user?.email, csid);
  const [link, setLink] = useState<LinkAnswer | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'coupon' | 'pay' | 'change' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);

  const loadLink = useCallback(async () => {
    const result = await getPaymentLink('file_fee');
    if (result.ok) {
      setLink(result.data);
      setLinkError(null);
    } else {
      setLink(null);
      setLinkError(
        result.error.status === 404
          ? 'Le paiement en ligne n’est pas encore disponible. Réessayez un peu plus tard.'
          : result.error.message,
      );
    }
  }, []);

  useEffect(() => {
    if (!csid) void loadLink();
  }, [csid, loadLink]);

  const plan = user?.selectedPlanId && isPlanId(user.selectedPlanId) ? planById(user.selectedPlanId) : null;
  // What the chart (restored from the record, as on the server) says about the coupon.
  const couponApplied = useChart((snapshot) => snapshot.context.couponApplied) ?? false;
  const couponAllowed = useChartAllows({ context: 'coupon' });

  async function applyCoupon() {
    setBusy('coupon');
    setError(null);
    // Reloads the session too: the chart is restored from the new record (coupon applied).
    const result = await update({ context: 'coupon' });
    if (result.ok) {
      await loadLink();
      setInfo('Votre code avantage est appliqué : les frais de dossier vous sont offerts.');
    } else setError(result.error.message);
    setBusy(null);
  }

  async function changePlan() {
    setBusy('change');
    setError(null);
    const result = await update({ context: 'sel_plan_res' });
    if (!result.ok) setError(result.error.message);
    setBusy(null);
  }

  function pay() {
    if (!link) return;
    setBusy('pay');
    window.location.assign(link.url);
  }

  if (csid && payment.status !== 'failed') {
    return (
      <StepPage step="frais-de-dossier" title="Frais de dossier">
        <p role="status" className={styles.text}>
          Confirmation de votre paiement en cours…
        </p>
      </StepPage>
    );
  }

  return (
    <StepPage
      step="frais-de-dossier"
      title="Frais de dossier"
      intro="Les frais de dossier couvrent l’ouverture et l’étude de votre dossier, avant l’entretien personnalisé."
    >
      <FormAlert tone="error">{payment.error ? `Paiement non confirmé : ${payment.error.message}` : (error ?? linkError)}</FormAlert>
      <FormAlert tone="success">{info}</FormAlert>
      {plan ? (
        <section className={styles.section} aria-labelledby="chosen-plan">
          <h2 id="chosen-plan" className={styles.sectionTitle}>
            Votre formule : {plan.title} ({plan.durationMonths} mois)
          </h2>
          <PlanPrice plan={plan} />
          <p>{planDescription(plan, couponApplied)}</p>
          <div className={styles.actions}>
            <Button
              variant="secondary"
              loading={busy === 'change'}
              loadingText="Retour aux formules…"
              onClick={changePlan}
              disabled={busy !== null && busy !== 'change'}
            >
              Changer de formule
            </Button>
          </div>
        </section>
      ) : null}
      <section className={styles.cardHighlight} aria-labelledby="file-fee" style={{ marginTop: '1.5rem', maxWidth: '42rem' }}>
        <p className={styles.badge}>{fileFee.discount.label}</p>
        <h2 id="file-fee" className={styles.cardTitle}>
          {fileFee.title}
        </h2>
        <p className={styles.price}>
          <del className={styles.struck}>
            <span className={srOnly}>Prix habituel : </span>
            {formatEuros(fileFee.discount.originalPriceCents)}
          </del>{' '}
          {couponApplied ? (
            <>
              <del className={styles.struck}>{formatEuros(fileFee.priceCents)}</del> {formatEuros(FILE_FEE_WITH_COUPON_CENTS)}
            </>
          ) : (
            <>
              <span className={srOnly}>Prix de lancement : </span>
              {formatEuros(fileFee.priceCents)}
            </>
          )}
        </p>
        <p>{fileFee.description}</p>
        {couponApplied ? <p>Code avantage appliqué : frais de dossier offerts.</p> : null}
        <div className={styles.actions}>
          <Button
            onClick={pay}
            disabled={!link || (busy !== null && busy !== 'pay')}
            loading={busy === 'pay'}
            loadingText="Ouverture du paiement…"
          >
            Payer
          </Button>
          {couponAllowed && !couponApplied ? (
            <Button
              variant="secondary"
              onClick={applyCoupon}
              loading={busy === 'coupon'}
              loadingText="Application du code…"
              disabled={busy !== null && busy !== 'coupon'}
            >
              Appliquer mon code avantage
            </Button>
          ) : null}
        </div>
        {user?.subscription.renouncedWithdrawalRight === true ? (
          <p className={styles.cycle}>Le code avantage n’est pas disponible lorsque vous avez demandé à commencer sans attendre.</p>
        ) : null}
        <p className={styles.cycle}>Le paiement est sécurisé par Stripe. Vous reviendrez ici automatiquement après le paiement.</p>
      </section>
    </StepPage>
  );
}
