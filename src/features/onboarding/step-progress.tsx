import { type StepId, steps } from '#machines/onboarding/steps.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { srOnly } from '#src/styles/global.css.ts';

/** "Étape N sur 9": an ordered list of the steps, done / current (aria-current="step") / next. */
export function StepProgress({ current }: { current: StepId }) {
  const index = steps.findIndex((s) => s.id === current);
  const info = steps[index];
  return (
    <nav aria-labelledby="onboarding-progress" className={styles.progress}>
      <p id="onboarding-progress" className={styles.progressLabel}>
        Étape {index + 1} sur {steps.length}
        {info ? ` : ${info.title}` : ''}
      </p>
      <ol className={styles.progressList}>
        {steps.map((step, i) => {
          const status = i < index ? 'done' : i === index ? 'current' : 'next';
          const className = status === 'done' ? styles.progressDone : status === 'current' ? styles.progressCurrent : styles.progressNext;
          return (
            <li key={step.id} className={className} aria-current={status === 'current' ? 'step' : undefined}>
              <span className={styles.progressNumber} aria-hidden="true">
                {status === 'done' ? '✓' : step.number}
              </span>
              <span>
                {step.title}
                <span className={srOnly}>
                  {status === 'done' ? ' (terminée)' : status === 'current' ? ' (étape en cours)' : ' (à venir)'}
                </span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
