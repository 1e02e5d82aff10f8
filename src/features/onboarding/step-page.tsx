import type { ReactNode } from 'react';
import type { StepId } from '#machines/onboarding/steps.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepProgress } from '#src/features/onboarding/step-progress.tsx';
import { frenchDateFormat } from '#machines/french/dates.ts';

/** The frame of every onboarding screen: its one h1, the progress indicator, then the screen. */
export function StepPage({ step, title, intro, children }: { step: StepId; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <>
      <h1 className={styles.title}>{title}</h1>
      <StepProgress current={step} />
      {intro ? <p className={styles.text}>{intro}</p> : null}
      {children}
    </>
  );
}

const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'full', timeStyle: 'short' });

/** `'2026-11-23T09:00:00.000Z'` → « lundi 23 novembre 2026 à 10:00 » (heure de Paris). */
export function formatParis(instant: string | number | null | undefined): string {
  if (instant === null || instant === undefined) return '—';
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? '—' : parisDateTime.format(date);
}
