import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { type FramedStep, STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';
import { container } from '#src/styles/global.css.ts';

/**
 * What the prerendered shell of a framed step paints before the SPA has run (decision 142): the
 * step's heading and introduction, with the classes and width the step's page gives them, and the
 * loading line. Rendered at build time only (`src/entry-prerender.tsx`); the SPA draws the page
 * over it (`data-shell`, src/main.tsx). The `app-shell-*` rules are the shell's own, inlined with
 * the page (`SHELL_STYLE`, scripts/prerender.ts).
 */
export function StepShell({ step }: { step: FramedStep }) {
  const { title, intro } = STEP_FRAMES[step];
  return (
    <div data-shell="" className={`${container} app-shell-frame`}>
      <p className="app-shell-brand">Union Sincère</p>
      <h1 className={styles.title}>{title}</h1>
      <p className={styles.text}>{intro}</p>
      <p className="app-shell-status" role="status">
        Chargement de votre espace…
      </p>
    </div>
  );
}
