import { PLAN_BADGE } from '#machines/glossary.ts';
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { activePlans, formatEuros, isPlanId, type PayInFullSetting, type Plan, type PlanId } from '#machines/onboarding/plans.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { offersQuery } from '#src/features/onboarding/onboarding-queries.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useSession } from '#src/lib/use-session.ts';
import { currentConsentText } from '#machines/privacy/consent-texts.ts';

/** The exact text whose hash is stored with the express request (machines/privacy/consent-texts.ts). */
const EARLY_START_CONSENT = currentConsentText('early_start');

function PlanPrice({ plan }: { plan: Plan }) {
  return (
    <p className={styles.price}>
      {formatEuros(plan.priceCents)} <span className={styles.cycle}>{plan.cycleLabel}</span>
      {/* Measured against the monthly instalments offered beside it, never a struck former price (decision 195). */}
      {plan.discount ? (
        <span className={styles.cycle}> — 10 % de moins que les mensualités ({formatEuros(plan.discount.originalPriceCents)})</span>
      ) : null}
    </p>
  );
}

function PlanCard({ plan, submitting, onChoose }: { plan: Plan; submitting: boolean; onChoose: (id: PlanId) => void }) {
  const titleId = `plan-${plan.id}`;
  return (
    <li className={plan.highlight ? styles.cardHighlight : styles.card} aria-labelledby={titleId}>
      {plan.highlight ? <p className={styles.badge}>{PLAN_BADGE}</p> : null}
      <h2 id={titleId} className={styles.cardTitle}>
        {plan.title} — {plan.durationMonths} mois{plan.type === 'monthly' ? ', mensuel' : ', en une fois'}
      </h2>
      <PlanPrice plan={plan} />
      {plan.discount ? <p className={styles.badge}>{plan.discount.label}</p> : null}
      <p>{plan.description}</p>
      {plan.installments > 1 ? <p className={styles.cycle}>Total sur la durée du contrat : {formatEuros(plan.totalCents)}</p> : null}
      <ul className={styles.features}>
        {plan.features.map((feature) => (
          <li key={feature}>{feature}</li>
        ))}
      </ul>
      <div className={styles.cardFooter}>
        <Button type="submit" block name="planId" value={plan.id} disabled={submitting} onClick={() => onChoose(plan.id)}>
          {plan.button.label}
        </Button>
      </div>
    </li>
  );
}

/** Step 3: choose a plan, with the express request to start before the 14-day period ends. */
export function PlansPage() {
  const { user } = useSession();
  const setting: PayInFullSetting | null = useQuery(offersQuery).data ?? null;
  const chosen = useRef<PlanId | null>(null);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const { update } = useOnboardingUpdate();

  const selected = user?.selectedPlanId && isPlanId(user.selectedPlanId) ? user.selectedPlanId : null;
  const plans = setting ? activePlans(setting, selected) : [];

  const onSubmit = handleSubmit(async (data) => {
    const id = chosen.current;
    if (!id) return { formError: 'Choisissez une formule.' };
    const result = await update({ context: 'sel_plan', id, renounce: data.get('renounce') === 'true' });
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    return undefined;
  });

  return (
    <StepPage step="formules" {...STEP_FRAMES.formules}>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <div className={styles.section}>
          <CheckboxField
            name="renounce"
            error={fieldErrors.renounce}
            description={<p>{EARLY_START_CONSENT.description}</p>}
            label={EARLY_START_CONSENT.label}
          />
        </div>
        {setting === null ? (
          <p role="status" className={styles.text}>
            Chargement des formules…
          </p>
        ) : (
          <ul className={styles.cards} aria-label="Formules">
            {plans.map((plan) => (
              <PlanCard key={plan.id} plan={plan} submitting={submitting} onChoose={(id) => (chosen.current = id)} />
            ))}
          </ul>
        )}
      </form>
    </StepPage>
  );
}
