import { useId, useState } from 'react';
import { type StepId, steps } from '#machines/onboarding/steps.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { srOnly } from '#src/styles/global.css.ts';

/**
 * "Étape N sur 9 — Formules": one line with a bar, then the ordered list of the steps, done /
 * current (aria-current="step") / next. On a phone (below `sm`) the list is folded behind a
 * disclosure button (aria-expanded), so the progress takes one line; from `sm` up the list is
 * always shown and the button is not.
 */
export function StepProgress({ current }: { current: StepId }) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const index = steps.findIndex((s) => s.id === current);
  const info = steps[index];
  const percent = Math.round(((index + 1) / steps.length) * 100);
  return (
    <nav aria-labelledby="onboarding-progress" className={styles.progress}>
      <div className={styles.progressHeader}>
        <p id="onboarding-progress" className={styles.progressLabel}>
          Étape {index + 1} sur {steps.length}
          {info ? ` — ${info.title}` : ''}
        </p>
        <button
          type="button"
          className={styles.progressToggle}
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded((open) => !open)}
        >
          {expanded ? 'Masquer les étapes' : 'Toutes les étapes'}
        </button>
      </div>
      <div className={styles.progressBar} aria-hidden="true">
        <div className={styles.progressBarFill} style={{ width: `${percent}%` }} />
      </div>
      <ol id={listId} className={expanded ? styles.progressList : styles.progressListFolded} data-expanded={expanded}>
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
