import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { steps } from '#machines/onboarding/steps.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { StepProgress } from '#src/features/onboarding/step-progress.tsx';

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the wizard’s progress (issue 21: one line on a phone)', () => {
  it('says « Étape 3 sur 9 — Formules » once, with a bar at a third', () => {
    const html = renderToStaticMarkup(<StepProgress current="formules" />);
    expect(steps[2]?.id).toBe('formules');
    expect(text(html)).toContain('Étape 3 sur 9 — Formules');
    expect(html.match(/sur 9/g)).toHaveLength(1);
    expect(html).toContain('width:33%');
  });

  it('folds the list behind a disclosure button (aria-expanded, aria-controls) that names the list', () => {
    const html = renderToStaticMarkup(<StepProgress current="formules" />);
    const button = /<button[^>]*>/.exec(html)?.[0] ?? '';
    expect(button).toContain('type="button"');
    expect(button).toContain('aria-expanded="false"');
    const controls = /aria-controls="([^"]+)"/.exec(button)?.[1];
    const list = /<ol[^>]*>/.exec(html)?.[0] ?? '';
    expect(list).toContain(`id="${controls}"`);
    // Folded: the class that hides it below `sm` and shows it from `sm` up.
    expect(list).toContain(`class="${styles.progressListFolded}"`);
    expect(text(html)).toContain('Toutes les étapes');
  });

  it('keeps the full list of the nine steps: done, current (aria-current), next', () => {
    const html = renderToStaticMarkup(<StepProgress current="formules" />);
    expect(html.match(/<li/g)).toHaveLength(9);
    expect(html.match(/aria-current="step"/g)).toHaveLength(1);
    expect(text(html)).toContain('(terminée)');
    expect(text(html)).toContain('(à venir)');
    for (const step of steps) expect(text(html)).toContain(step.title);
  });
});
