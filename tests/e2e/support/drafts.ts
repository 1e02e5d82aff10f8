import { expect, type Page } from '@playwright/test';
import { DRAFT_PREFIX } from '#src/features/onboarding/drafts.ts';

/**
 * Waits until the wizard's draft of this page (localStorage, written 300 ms after the last input)
 * holds every one of `values`, instead of sleeping past the 300 ms (issue 58: no test sleeps for
 * what it can wait for).
 */
export async function draftHolds(page: Page, values: string[]): Promise<void> {
  const drafts = () =>
    page.evaluate(
      (prefix) =>
        Object.keys(localStorage)
          .filter((key) => key.startsWith(prefix))
          .map((key) => localStorage.getItem(key) ?? '')
          .join('\n'),
      DRAFT_PREFIX,
    );
  await expect
    .poll(
      async () => {
        const text = await drafts();
        return values.filter((value) => !text.includes(JSON.stringify(value)));
      },
      { message: 'le brouillon garde chaque valeur saisie' },
    )
    .toEqual([]);
}
