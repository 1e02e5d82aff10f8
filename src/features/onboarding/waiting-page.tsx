import { MyRights } from '#src/features/account/my-rights.tsx';
import { untilText } from '#machines/onboarding/deadline-texts.ts';
import { contractDeadlines, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/legal-deadlines.ts';
import { CONTRACT_PDF_URL } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { Countdown } from '#src/features/onboarding/countdown.tsx';
import { subOf } from '#src/features/onboarding/onboarding-state.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { useStateWatch } from '#src/features/onboarding/use-state-watch.ts';
import { useSession } from '#src/lib/use-session.ts';

/** Step 9: the 14-day withdrawal period (unless renounced), then the matchmaking meeting. */
export function WaitingPage() {
  const { user } = useSession();
  const { goToCurrent } = useOnboardingUpdate();
  // The period's end, the matchmaking meeting validated by staff: the page follows by itself.
  useStateWatch();
  const renounced = user?.subscription.renouncedWithdrawalRight === true;
  const withdrawal = contractDeadlines(user?.subscription.subscriptionDate ?? null)?.withdrawal ?? null;
  const waiting = subOf(user?.state) === 'delai-retractation' && !renounced;
  return (
    <StepPage step="attente" title="Bientôt votre première mise en relation">
      <section className={styles.section} aria-labelledby="period">
        <h2 id="period" className={styles.sectionTitle}>
          Délai de rétractation
        </h2>
        {renounced ? (
          <p>Vous avez demandé à commencer sans attendre la fin du délai de rétractation de {WITHDRAWAL_PERIOD_DAYS} jours.</p>
        ) : waiting && withdrawal !== null ? (
          <Countdown
            until={withdrawal.endsAtMs}
            label={`Votre délai de rétractation de ${WITHDRAWAL_PERIOD_DAYS} jours court ${untilText(withdrawal)} :`}
            onDone={() => void goToCurrent()}
          />
        ) : (
          <p>Votre délai de rétractation de {WITHDRAWAL_PERIOD_DAYS} jours est terminé.</p>
        )}
      </section>
      <section className={styles.section} aria-labelledby="after">
        <h2 id="after" className={styles.sectionTitle}>
          Et ensuite ?
        </h2>
        <p>
          {waiting
            ? 'À la fin de ce délai, l’équipe vous contactera pour l’entretien de rapprochement, première étape de votre accompagnement.'
            : 'L’équipe vous contactera pour l’entretien de rapprochement, première étape de votre accompagnement.'}
        </p>
        <p>
          <a href={CONTRACT_PDF_URL} target="_blank" rel="noopener" type="application/pdf">
            Télécharger mon contrat (PDF)
          </a>
        </p>
      </section>
      <MyRights />
    </StepPage>
  );
}
