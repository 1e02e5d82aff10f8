import { useState } from 'react';
import * as v from 'valibot';
import { FILE_FEE_CENTS, formatEuros, isPlanId, planById } from '#machines/onboarding/plans.ts';
import { CONTRACT_MAX_MONTHS } from '#machines/onboarding/periods.ts';
import { COUNTING_RULE, dayAfterText, untilText } from '#machines/onboarding/deadline-texts.ts';
import { deadlinesOfSignature, NO_PAYMENT_PERIOD_DAYS, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-deadlines.ts';
import { preContractOkPayloadSchema } from '#machines/onboarding/update-contexts.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { flattenFieldErrors } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useSession } from '#src/lib/use-session.ts';
import { siteText } from '#src/features/public-site/site-values.ts';
import { AGENCY_IDENTITY_TEXT, earlyStartCostText, MEDIATOR_TEXT } from '#machines/onboarding/pre-contract-info.ts';

/** Step 4: pre-contract information (prices, term, withdrawal rights), acknowledged by the member; the plan may still change. */
export function PreContractPage() {
  const { user } = useSession();
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const { update } = useOnboardingUpdate();
  const plan = user?.selectedPlanId && isPlanId(user.selectedPlanId) ? planById(user.selectedPlanId) : null;
  const renounced = user?.subscription.renouncedWithdrawalRight === true;
  const [changing, setChanging] = useState(false);
  const [changeError, setChangeError] = useState<string | null>(null);
  // An example of the civil-day periods (decision 165): those of a contract signed today.
  const today = deadlinesOfSignature(Date.now());

  async function changePlan() {
    setChanging(true);
    setChangeError(null);
    const result = await update({ context: 'sel_plan_res' });
    if (!result.ok) setChangeError(result.error.message);
    setChanging(false);
  }

  const onSubmit = handleSubmit(async (data) => {
    const body = { context: 'pre_contract_ok', acknowledged: data.get('acknowledged') === 'true' };
    const parsed = v.safeParse(preContractOkPayloadSchema, body);
    if (!parsed.success) return { fieldErrors: flattenFieldErrors(v.flatten(parsed.issues)) };
    const result = await update(body);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    return undefined;
  });

  return (
    <StepPage step="informations-et-tarifs" {...STEP_FRAMES['informations-et-tarifs']}>
      <section className={styles.section} aria-labelledby="agency">
        <h2 id="agency" className={styles.sectionTitle}>
          L’agence
        </h2>
        <p data-testid="pre-contract-identity">{siteText(AGENCY_IDENTITY_TEXT)}.</p>
        <p>
          Le contrat qui vous sera proposé est un contrat de courtage matrimonial (articles L224‑90 à L224‑95 du Code de la consommation) :
          l’agence étudie votre dossier, vous reçoit en entretien et vous présente, avec l’accord des deux personnes, des profils
          compatibles avec votre questionnaire.
        </p>
      </section>
      <section className={styles.section} aria-labelledby="prices">
        <h2 id="prices" className={styles.sectionTitle}>
          Prix
        </h2>
        <ul className={styles.list}>
          <li>
            Frais de dossier : {formatEuros(FILE_FEE_CENTS)}, réglés avec l’abonnement, au plus tôt à la fin du délai de{' '}
            {NO_PAYMENT_PERIOD_DAYS} jours pleins qui suit la signature du contrat. Rien n’est à payer aujourd’hui.
          </li>
          {plan ? (
            <li>
              Formule {plan.title} ({plan.durationMonths} mois) :{' '}
              {plan.installments > 1
                ? `${formatEuros(plan.priceCents)} par mois pendant ${plan.installments} mois, soit ${formatEuros(plan.totalCents)} au total`
                : `${formatEuros(plan.totalCents)} en une seule fois`}
              , toutes taxes comprises.
            </li>
          ) : null}
          <li>Aucun autre frais ne vous sera demandé pendant la durée du contrat.</li>
        </ul>
        <FormAlert tone="error">{changeError}</FormAlert>
        <div className={styles.actions}>
          <Button variant="secondary" loading={changing} loadingText="Retour aux formules…" onClick={changePlan} disabled={submitting}>
            Changer de formule
          </Button>
        </div>
      </section>
      <section className={styles.section} aria-labelledby="term">
        <h2 id="term" className={styles.sectionTitle}>
          Durée
        </h2>
        <ul className={styles.list}>
          <li>
            Contrat à durée déterminée de {plan ? plan.durationMonths : 'six ou douze'} mois (jamais plus de {CONTRACT_MAX_MONTHS} mois).
          </li>
          <li>Pas de reconduction tacite : le contrat prend fin à son terme, sans démarche de votre part.</li>
          {plan && plan.installments > 1 ? (
            <li>
              Les prélèvements s’arrêtent d’eux-mêmes après la {plan.installments}
              <sup>e</sup> mensualité.
            </li>
          ) : null}
        </ul>
      </section>
      <section className={styles.section} aria-labelledby="rights">
        <h2 id="rights" className={styles.sectionTitle}>
          Vos droits
        </h2>
        <ul className={styles.list}>
          <li>
            Délai de renonciation : aucun paiement, de quelque nature que ce soit (frais de dossier compris), ne peut être exigé avant{' '}
            {NO_PAYMENT_PERIOD_DAYS} jours pleins après la signature du contrat (article L224‑91 du Code de la consommation) ; vous pouvez
            renoncer au contrat sans frais pendant ce délai.
          </li>
          <li>
            Délai de rétractation : vous pouvez vous rétracter pendant {WITHDRAWAL_PERIOD_DAYS} jours après la signature, sans motif
            (article L221‑18).{' '}
            {renounced
              ? 'Vous avez demandé à commencer sans attendre : en cas de rétractation, le service déjà fourni reste dû.'
              : 'L’accompagnement commence à la fin de ce délai.'}
          </li>
          <li>
            Calcul des délais : {COUNTING_RULE}. Par exemple, pour un contrat signé aujourd’hui, vous pourriez renoncer{' '}
            {untilText(today.renunciation)}, le paiement s’ouvrirait {dayAfterText(today.renunciation)} et vous pourriez vous rétracter{' '}
            {untilText(today.withdrawal)}.
          </li>
          <li data-testid="pre-contract-early-start">Démarrage anticipé : {earlyStartCostText(plan, Date.now())}</li>
          <li>Vous recevrez une copie de votre contrat au format PDF.</li>
        </ul>
      </section>
      <section className={styles.section} aria-labelledby="mediation">
        <h2 id="mediation" className={styles.sectionTitle}>
          Réclamations et médiation
        </h2>
        <ul className={styles.list}>
          <li>
            Pour toute réclamation, écrivez à l’agence : {siteText('{{agence.email}}')}, ou {siteText('{{agence.adresse}}')}.
          </li>
          <li data-testid="pre-contract-mediator">
            En cas de litige non résolu, vous pouvez recourir gratuitement au médiateur de la consommation dont relève l’agence (articles
            L612‑1 et suivants du Code de la consommation) : {siteText(MEDIATOR_TEXT)}.
          </li>
        </ul>
      </section>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <CheckboxField
          name="acknowledged"
          required
          error={fieldErrors.acknowledged}
          label="J’ai pris connaissance des informations précontractuelles : identité de l’agence, prix, durée, renonciation, rétractation et médiation."
        />
        <div className={styles.actions}>
          <Button type="submit" loading={submitting} loadingText="Enregistrement…">
            Continuer vers la prise de rendez-vous
          </Button>
        </div>
      </form>
    </StepPage>
  );
}
