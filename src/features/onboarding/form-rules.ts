import { type RefObject, useEffect } from 'react';

type FormRules = typeof import('#machines/onboarding/forms.ts');

let loading: Promise<FormRules> | null = null;

/**
 * The onboarding forms' rules (`machines/onboarding/forms.ts`, the very schemas the server applies)
 * are loaded when a form is first used, not with the page: with the phone numbering metadata they
 * weigh 32 kB gzipped, which the step's first paint does not need. A failed load is retried at the
 * next call.
 */
export function loadFormRules(): Promise<FormRules> {
  loading ??= import('#machines/onboarding/forms.ts').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** Starts loading the rules as soon as the member touches the form (focus or pointer), so that they are there at submit. */
export function useFormRulesOnFirstUse(formRef: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const start = () => void loadFormRules().catch(() => undefined);
    form.addEventListener('focusin', start, { once: true });
    form.addEventListener('pointerdown', start, { once: true });
    return () => {
      form.removeEventListener('focusin', start);
      form.removeEventListener('pointerdown', start);
    };
  }, [formRef]);
}
